/**
 * Money reports (D21) against the real services: each payment, refund and
 * refund an operator failed leaves exactly its balance transactions, once
 * whatever the event's deliveries; the daily report (Africa/Tunis days) equals
 * the sums of each day's transactions, a payment either side of midnight in
 * Tunis included; the balance splits by available_on; every bad query is a
 * problem; one account never sees another's money.
 */
import assert from 'node:assert/strict';
import Big from 'big.js';
import { newId, type Envelope, type SessionEventData } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import { payOnPage, pollUntil, sessionRequest, TestSystem, type ApiClient, type EventCapture, type Merchant } from '@gateway/testkit';

type Txn = {
  id: string;
  type: string;
  session_id: string;
  source: string;
  amount: string;
  fee: string;
  net: string;
  currency: string;
  created_at: string;
  available_on: string;
  livemode: boolean;
  payment_method: string;
};
type TxnList = { data: Txn[]; has_more: boolean };
type Day = { date: string; payments_count: number; gross: string; fees: string; refunds: string; net: string };
type Problem = { type: string; status: number; errors?: { field: string; code: string; message: string }[] };
type Detail = { id: string; status: string; checkout_url: string; amount_captured: string; attempts: { fee_amount: string; net_amount: string }[] };

const MANUAL_REFUND_CARD = '4000000000005126';

describe('Balance transactions, the balance and the daily report (D21)', function () {
  this.timeout(90_000);
  let system: TestSystem;
  let events: EventCapture;

  before(async () => {
    system = await TestSystem.start();
    events = await system.captureEvents(['session.succeeded']);
  });
  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  async function shop(): Promise<{ merchant: Merchant; api: ApiClient }> {
    const merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    return { merchant, api: system.api(merchant.testKey) };
  }

  async function paid(api: ApiClient, amount: string, card = '4242424242424242', extra: Record<string, unknown> = {}): Promise<Detail> {
    const created = await api.post<Detail>('/gateway/sessions/', { ...sessionRequest({ amount }), ...extra });
    assert.equal(created.status, 201, created.text);
    await payOnPage(created.body.checkout_url, { card_number: card });
    return (await api.get<Detail>(`/gateway/sessions/${created.body.id}/`)).body;
  }

  const list = async (api: ApiClient, query = '') => {
    const res = await api.get<TxnList>(`/gateway/balance_transactions/${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  };

  /** Waits until the account's ledger holds `count` entries matching `query`. */
  async function entries(api: ApiClient, count: number, query = ''): Promise<Txn[]> {
    let found: Txn[] = [];
    await pollUntil(async () => (found = await list(api, query)).length >= count, 10_000, `${count} balance transactions`);
    return found;
  }

  it('when a payment is refunded in part, another refund goes to an operator who fails it, then the ledger holds exactly the payment with its fee, both refunds and the reversal, once each', async () => {
    const { api } = await shop();
    const session = await paid(api, '100.000', MANUAL_REFUND_CARD);
    assert.equal(session.status, 'SUCCEEDED');
    const fee = session.attempts[0]?.fee_amount ?? '';
    assert.ok(new Big(fee).gt(0), 'the merchant pays a fee');

    const [payment] = await entries(api, 1);
    assert.deepEqual(
      {
        type: payment?.type,
        session_id: payment?.session_id,
        source: payment?.source,
        amount: payment?.amount,
        fee: payment?.fee,
        net: payment?.net,
        currency: payment?.currency,
        livemode: payment?.livemode,
        payment_method: payment?.payment_method,
      },
      { type: 'payment', session_id: session.id, source: session.id, amount: '100.000', fee, net: new Big(100).minus(fee).toFixed(3), currency: 'TND', livemode: false, payment_method: 'card' },
    );
    assert.match(payment?.id ?? '', /^txn_[0-9A-Za-z]{20,}$/);

    // This card's refunds are never confirmed by the acquirer: each waits for an operator, counted as refunded (D10).
    const first = await api.post<{ refund_id: string; automated_refund: boolean }>(`/gateway/sessions/${session.id}/refund/`, { refund_type: 'PARTIAL', amount: '30.000', reason: 'Returned' });
    const second = await api.post<{ refund_id: string }>(`/gateway/sessions/${session.id}/refund/`, { refund_type: 'PARTIAL', amount: '20.500', reason: 'Damaged' });
    assert.deepEqual([first.status, second.status], [200, 200], first.text + second.text);
    await system.admin(['refund', 'resolve', first.body.refund_id, '--as', 'succeeded']);
    await system.admin(['refund', 'resolve', second.body.refund_id, '--as', 'failed']);

    const all = await entries(api, 4);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const settled = await list(api);
    assert.equal(settled.length, 4, JSON.stringify(settled));
    const by = (type: string, source: string) => all.filter((t) => t.type === type && t.source === source);
    assert.deepEqual(by('refund', first.body.refund_id).map((t) => [t.amount, t.fee, t.net]), [['-30.000', '0.000', '-30.000']]);
    assert.deepEqual(by('refund', second.body.refund_id).map((t) => [t.amount, t.fee, t.net]), [['-20.500', '0.000', '-20.500']]);
    assert.deepEqual(by('refund_reversal', second.body.refund_id).map((t) => [t.amount, t.fee, t.net, t.session_id]), [['20.500', '0.000', '20.500', session.id]]);
    assert.deepEqual([...new Set(all.map((t) => t.payment_method))], ['card'], 'a card payment and its refunds say card');
    assert.deepEqual(await list(api, `?session_id=${session.id}&type=refund`).then((rows) => rows.length), 2);
    // A refund counts when it was made, the time its own events carry, whichever of them the ledger applies first.
    const made = await api.get<{ created_at: string }>(`/gateway/refunds/${second.body.refund_id}/`);
    assert.deepEqual(by('refund', second.body.refund_id).map((t) => t.created_at), [made.body.created_at]);

    // The same events again, redelivered: nothing more is written.
    const succeeded = (await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === session.id))[0] as Envelope<SessionEventData>;
    await system.publishEvents([succeeded, { ...succeeded, id: newId('evt') }]);
    const marker = await paid(api, '1.000');
    await entries(api, 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await list(api);
    assert.deepEqual(after.map((t) => t.source).filter((s) => s === session.id).length, 1, 'one payment entry for the session');
    assert.equal(after[0]?.source, marker.id, 'newest first');

    // Everything is pending for SETTLEMENT_DELAY_DAYS (2): nothing available yet.
    const balance = await api.get<{ available: string; pending: string; currency: string }>('/gateway/balance/');
    const net = after.reduce((sum, t) => sum.plus(t.net), new Big(0)).toFixed(3);
    assert.deepEqual(balance.body, { available: '0.000', pending: net, currency: 'TND', livemode: false });
  });

  it('when a held payment is captured in part, then its payment entry is the captured amount with the fee on it (D22)', async () => {
    const { api } = await shop();
    const session = await paid(api, '80.000', '4242424242424242', { capture_method: 'manual' });
    assert.equal(session.status, 'AUTHORIZED');
    const captured = await api.post<Detail>(`/gateway/sessions/${session.id}/capture/`, { amount: '50.000' });
    assert.equal(captured.status, 200, captured.text);
    const [payment] = await entries(api, 1);
    const fee = captured.body.attempts[0]?.fee_amount ?? '';
    assert.deepEqual([payment?.amount, payment?.fee, payment?.net], ['50.000', fee, new Big(50).minus(fee).toFixed(3)]);
  });

  it('when a session paid with Flouci succeeds and is refunded, then its payment and its refund say flouci and the card payment beside them card (D26)', async () => {
    const { api, merchant } = await shop();
    const card = await paid(api, '10.000');
    const template = (await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === card.id))[0] as Envelope<SessionEventData>;
    // The events as the session service writes them for a Flouci payment: the wallet for brand, no last four.
    const session = {
      ...template.data.session,
      id: newId('ps'),
      amount: '25.000',
      payment: { method: 'flouci', card_brand: 'flouci', card_last_four: '', card_country: '', fee_amount: '0.500', net_amount: '24.500' },
    };
    const refund = { refund_id: newId('re'), amount: '25.000', automated_refund: true, reason: 'Returned', metadata: {}, status: 'succeeded' as const, created_at: new Date().toISOString() };
    await system.publishEvents([
      eventEnvelope('session.succeeded', { merchant_id: merchant.merchantId, webhook_url: '', session }, 'ledger-flouci'),
      eventEnvelope('refund.created', { merchant_id: merchant.merchantId, webhook_url: '', session: { ...session, refund } }, 'ledger-flouci'),
    ]);
    const all = await entries(api, 3);
    assert.deepEqual(
      all.map((t) => [t.type, t.source, t.amount, t.payment_method]).sort(),
      [
        ['payment', card.id, '10.000', 'card'],
        ['payment', session.id, '25.000', 'flouci'],
        ['refund', refund.refund_id, '-25.000', 'flouci'],
      ].sort(),
    );
    assert.deepEqual((await list(api, `?session_id=${session.id}`)).map((t) => t.payment_method), ['flouci', 'flouci']);
  });

  it('when payments are made a second before and a second after midnight in Tunis, then the daily report counts them on two days, and every day equals the sums of its transactions', async () => {
    const { api, merchant } = await shop();
    const real = await paid(api, '10.000');
    const template = (await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === real.id))[0] as Envelope<SessionEventData>;
    await entries(api, 1);
    const at = (paidAt: string, amount: string, fee: string) => {
      const session = { ...template.data.session, id: newId('ps'), amount, paid_at: paidAt, payment: { ...template.data.session.payment!, fee_amount: fee, net_amount: new Big(amount).minus(fee).toFixed(3) } };
      return eventEnvelope('session.succeeded', { merchant_id: merchant.merchantId, webhook_url: '', session }, 'ledger-midnight');
    };
    // Africa/Tunis is UTC+1 all year: 22:59:59Z is 23:59:59 on the 1st, 23:00:01Z is 00:00:01 on the 2nd.
    await system.publishEvents([at('2026-03-01T22:59:59.000Z', '12.500', '0.400'), at('2026-03-01T23:00:01.000Z', '7.250', '0.300'), at('2026-03-02T12:00:00.000Z', '1.000', '0.100')]);
    await entries(api, 4);

    const report = await api.get<{ data: Day[] }>('/gateway/reports/daily/?from=2026-02-28&to=2026-03-03');
    assert.equal(report.status, 200, report.text);
    assert.deepEqual(report.body.data, [
      { date: '2026-02-28', payments_count: 0, gross: '0.000', fees: '0.000', refunds: '0.000', net: '0.000' },
      { date: '2026-03-01', payments_count: 1, gross: '12.500', fees: '0.400', refunds: '0.000', net: '12.100' },
      { date: '2026-03-02', payments_count: 2, gross: '8.250', fees: '0.400', refunds: '0.000', net: '7.850' },
      { date: '2026-03-03', payments_count: 0, gross: '0.000', fees: '0.000', refunds: '0.000', net: '0.000' },
    ]);
    // Each day equals its transactions, read back through the list's own date filter.
    const marchSecond = await list(api, `?created[gte]=2026-03-01T23:00:00.000Z&created[lte]=2026-03-02T22:59:59.999Z`);
    assert.equal(marchSecond.reduce((sum, t) => sum.plus(t.net), new Big(0)).toFixed(3), '7.850');
    assert.deepEqual(marchSecond.map((t) => t.available_on), ['2026-03-04', '2026-03-04']);

    // Those old payments are available now; today's is pending.
    const balance = await api.get<{ available: string; pending: string }>('/gateway/balance/');
    assert.deepEqual([balance.body.available, balance.body.pending], ['19.950', new Big(10).minus(real.attempts[0]?.fee_amount ?? '0').toFixed(3)]);
  });

  it('when a query is bad (not a date, reversed, too long, an unknown filter, another account\'s session), then a validation problem names the field and nothing is answered', async () => {
    const { api } = await shop();
    const other = await shop();
    const stranger = await paid(other.api, '5.000');
    const problems: [string, string][] = [
      ['/gateway/reports/daily/?from=yesterday&to=2026-01-01', 'from'],
      ['/gateway/reports/daily/?from=2026-02-30&to=2026-03-01', 'from'],
      ['/gateway/reports/daily/?from=2026-03-01&to=2026-02-01', 'to'],
      ['/gateway/reports/daily/?from=2025-01-01&to=2026-01-02', 'to'],
      ['/gateway/reports/daily/?from=2026-01-01', 'to'],
      ['/gateway/reports/daily/?from=2026-01-01&to=2026-01-02&mode=live', 'mode'],
      ['/gateway/balance_transactions/?kind=payment', 'kind'],
      ['/gateway/balance_transactions/?type=payout', 'type'],
      ['/gateway/balance_transactions/?created[gte]=2026-03-02T00:00:00Z&created[lte]=2026-03-01T00:00:00Z', 'created[gte]'],
      ['/gateway/balance_transactions/?created[gte]=monday', 'created[gte]'],
      [`/gateway/balance_transactions/?session_id=${stranger.id}`, 'session_id'],
      [`/gateway/balance_transactions/?starting_after=${newId('txn')}`, 'starting_after'],
    ];
    for (const [path, field] of problems) {
      const res = await api.get<Problem>(path);
      assert.equal(res.status, 422, `${path}: ${res.text}`);
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.match(res.body.type, /validation-error$/);
      assert.deepEqual(res.body.errors?.map((e) => e.field), [field], `${path}: ${res.text}`);
    }
    // A whole year (366 days) is allowed.
    assert.equal((await api.get<{ data: Day[] }>('/gateway/reports/daily/?from=2024-01-01&to=2024-12-31')).body.data.length, 366);
  });

  it('when another merchant or the live mode reads, then it sees none of this account\'s money', async () => {
    const { api, merchant } = await shop();
    const session = await paid(api, '9.000');
    await entries(api, 1);
    const other = await shop();
    assert.deepEqual(await list(other.api), []);
    assert.deepEqual((await other.api.get<{ available: string; pending: string }>('/gateway/balance/')).body, { available: '0.000', pending: '0.000', currency: 'TND', livemode: false });
    const live = system.api(await system.approveLive(merchant.merchantId));
    assert.deepEqual(await list(live), []);
    const today = new Date().toISOString().slice(0, 10);
    const days = (await live.get<{ data: Day[] }>(`/gateway/reports/daily/?from=${today}&to=${today}`)).body.data;
    assert.ok(days.every((d) => d.payments_count === 0), JSON.stringify(days));
    assert.equal((await other.api.get<Problem>(`/gateway/balance_transactions/?session_id=${session.id}`)).status, 422);
  });
});
