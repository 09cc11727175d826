/**
 * Hostile review of the money reports (D21) against the whole running
 * system, as an accountant, a competitor merchant and a careless operator
 * would attack them: money counted twice or lost (redelivered events, one
 * event published again with a new id, refund.updated before refund.created,
 * many events of one merchant and day at once, a refund failed twice),
 * totals that differ from the entries, Tunis days at midnight and on Feb 29,
 * odd and hostile filters, another account's or mode's data, CSV formula and
 * row injection, exports whose client goes away, forged and poison events.
 * Each was a defect found or a defence that held when the review was made;
 * all stay as regression tests.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Big from 'big.js';
import { parse } from 'csv-parse/sync';
import { eventPublishers, newId, tunisDate, type BrokerPrincipal, type Envelope, type EventData, type EventType, type SessionEventData } from '@gateway/contracts';
import { openExport as openCsvExport } from '@gateway/exports';
import { eventEnvelope, namesFor } from '@gateway/messaging';
import { Gateway, ValidationError } from '@gateway/sdk';
import { commandsHandled, payOnPage, pollUntil, sessionRequest, TestSystem, type ApiClient, type EventCapture, type Merchant } from '@gateway/testkit';

type Txn = { id: string; type: string; session_id: string; source: string; amount: string; fee: string; net: string; currency: string; created_at: string; available_on: string; livemode: boolean };
type TxnList = { data: Txn[]; has_more: boolean };
type Day = { date: string; payments_count: number; gross: string; fees: string; refunds: string; net: string };
type Problem = { type: string; status: number; detail?: string; errors?: { field: string; code: string; message: string }[] };
type Detail = { id: string; status: string; checkout_url: string; attempts: { fee_amount: string }[] };
type Payload = SessionEventData['session'];

const MANUAL_REFUND_CARD = '4000000000005126';
/** Small, so that a few hundred rows span many pages. */
const PAGE_SIZE = 50;
const MONEY = /^-?(0|[1-9][0-9]*)\.[0-9]{3}$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Ledger attacks (D21)', function () {
  this.timeout(180_000);
  let system: TestSystem;
  let events: EventCapture;
  /** The session.succeeded payload of one real payment: the shape every forged or synthetic event copies. */
  let template: Payload;

  before(async () => {
    system = await TestSystem.start({ serviceEnv: { 'api-gateway': { EXPORT_PAGE_SIZE: String(PAGE_SIZE) } } });
    events = await system.captureEvents(['session.succeeded', 'refund.created', 'refund.updated']);
    const { api } = await shop();
    const real = await paid(api, '10.000');
    template = ((await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === real.id, 1, 15_000))[0] as Envelope<SessionEventData>).data.session;
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
    const read = await api.get<Detail>(`/gateway/sessions/${created.body.id}/`);
    assert.equal(read.body.status, 'SUCCEEDED', read.text);
    return read.body;
  }

  /** Every balance transaction of the account matching `query`, across pages. */
  async function listAll(api: ApiClient, query = ''): Promise<Txn[]> {
    const all: Txn[] = [];
    let after: string | undefined;
    for (;;) {
      const separator = query ? '&' : '?';
      const res = await api.get<TxnList>(`/gateway/balance_transactions/${query}${separator}limit=100${after ? `&starting_after=${after}` : ''}`);
      assert.equal(res.status, 200, res.text);
      all.push(...res.body.data);
      if (!res.body.has_more) return all;
      after = res.body.data.at(-1)?.id;
    }
  }

  /** Waits until the account holds at least `count` entries matching `query`, then a little more so that late duplicates would show. */
  async function settled(api: ApiClient, count: number, query = '', extraMs = 700): Promise<Txn[]> {
    await pollUntil(async () => (await listAll(api, query)).length >= count, 20_000, `${count} balance transactions`);
    await sleep(extraMs);
    return listAll(api, query);
  }

  /** A session.succeeded of a synthetic session of `merchantId`, as the session service would publish it. */
  function paymentEvent(merchantId: string, options: { id?: string; amount: string; fee: string; paidAt?: string; livemode?: boolean }): Envelope<EventData<'session.succeeded'>> {
    const session: Payload = {
      ...template,
      id: options.id ?? newId('ps'),
      amount: options.amount,
      livemode: options.livemode ?? false,
      paid_at: options.paidAt ?? new Date().toISOString(),
      payment: { ...template.payment!, fee_amount: options.fee, net_amount: options.amount },
    };
    return eventEnvelope('session.succeeded', { merchant_id: merchantId, webhook_url: '', session }, 'ledger-attacks');
  }

  /** A refund.created or refund.updated of `sessionId`, as the refund service would publish it, happening at `at`. */
  function refundEvent(
    type: 'refund.created' | 'refund.updated',
    merchantId: string,
    sessionId: string,
    refund: { id: string; amount: string; status: 'succeeded' | 'pending' | 'failed'; createdAt?: Date },
    at: Date = new Date(),
  ): Envelope<EventData<'refund.created'>> {
    const session: Payload = {
      ...template,
      id: sessionId,
      refund: {
        refund_id: refund.id,
        amount: refund.amount,
        automated_refund: refund.status === 'succeeded',
        reason: 'attack',
        metadata: {},
        status: refund.status,
        // As the refund service writes it: the refund's own time, in both of its events.
        ...(refund.createdAt && { created_at: refund.createdAt.toISOString() }),
      },
    };
    return eventEnvelope(type, { merchant_id: merchantId, webhook_url: '', session }, 'ledger-attacks', at);
  }

  /**
   * Puts synthetic events on the ledger's own queue as their rightful publisher
   * (what the events exchange would route there): the session service, which
   * also takes refund events, never sees refunds of sessions it does not have.
   */
  async function toLedger(batch: readonly Envelope[]): Promise<void> {
    const queue = namesFor(system.prefix).eventQueue('ledger');
    const byPublisher = new Map<BrokerPrincipal, Envelope[]>();
    for (const event of batch) {
      const publisher = eventPublishers[event.type as EventType][0];
      byPublisher.set(publisher, [...(byPublisher.get(publisher) ?? []), event]);
    }
    for (const [publisher, own] of byPublisher) {
      await system.publishConfirmedAs(publisher, async (channel, userId) => {
        for (const event of own) channel.publish('', queue, Buffer.from(JSON.stringify(event)), { persistent: true, messageId: event.id, contentType: 'application/json', userId });
      });
    }
  }

  /** The same event, as an outbox relay that lost its confirm would publish it again: a new message id. */
  const again = <T>(event: Envelope<T>): Envelope<T> => ({ ...event, id: newId('evt') });

  /** Each stored day total of the merchant against the sums of its stored entries of that day (superuser read). */
  async function totalsAgainstEntries(merchantId: string): Promise<{ day: string; totals: string; entries: string }[]> {
    const rows = await system.db.query<{ day: string; totals: string; entries: string }>(
      `WITH e AS (
         SELECT day, count(*) FILTER (WHERE type = 'payment') AS payments_count,
                COALESCE(sum(amount) FILTER (WHERE type = 'payment'), 0) AS gross, sum(fee) AS fees,
                COALESCE(sum(amount) FILTER (WHERE type <> 'payment'), 0) AS refunds, sum(net) AS net
           FROM ledger.balance_transactions WHERE merchant_id = $1 GROUP BY livemode, day)
       SELECT to_char(COALESCE(t.day, e.day), 'YYYY-MM-DD') AS day,
              concat_ws('/', t.payments_count, t.gross::numeric(18,3), t.fees::numeric(18,3), t.refunds::numeric(18,3), t.net::numeric(18,3)) AS totals,
              concat_ws('/', e.payments_count, e.gross::numeric(18,3), e.fees::numeric(18,3), e.refunds::numeric(18,3), e.net::numeric(18,3)) AS entries
         FROM (SELECT * FROM ledger.daily_totals WHERE merchant_id = $1) t FULL JOIN e ON e.day = t.day
        ORDER BY 1`,
      [merchantId],
    );
    return rows;
  }

  async function assertTotalsEqualEntries(merchantId: string): Promise<void> {
    const rows = await totalsAgainstEntries(merchantId);
    assert.ok(rows.length > 0, 'the merchant has entries');
    for (const row of rows) assert.equal(row.totals, row.entries, `day ${row.day}: totals ${row.totals}, entries ${row.entries}`);
    const available = await system.db.query<{ totals: string; entries: string }>(
      `SELECT (SELECT COALESCE(sum(net), 0)::numeric(18,3)::text FROM ledger.available_totals WHERE merchant_id = $1) AS totals,
              (SELECT COALESCE(sum(net), 0)::numeric(18,3)::text FROM ledger.balance_transactions WHERE merchant_id = $1) AS entries`,
      [merchantId],
    );
    assert.equal(available[0]?.totals, available[0]?.entries, 'available totals equal the entries');
  }

  const sum = (rows: readonly Txn[], field: 'amount' | 'fee' | 'net') => rows.reduce((total, row) => total.plus(row[field]), new Big(0)).toFixed(3);

  describe('money counted twice or lost', () => {
    it('when one session.succeeded is redelivered, published again with new ids, and all at once, then exactly one payment is written and the day counts it once', async () => {
      const { merchant, api } = await shop();
      const event = paymentEvent(merchant.merchantId, { amount: '40.000', fee: '1.100' });
      // The same message twice, and five copies with new ids, in one burst.
      await system.publishEvents([event, event, again(event), again(event), again(event), again(event), again(event)]);
      const rows = await settled(api, 1, '', 1_500);
      assert.deepEqual(
        rows.map((t) => [t.type, t.source, t.amount, t.fee, t.net]),
        [['payment', event.data.session.id, '40.000', '1.100', '38.900']],
      );
      const day = tunisDate(new Date());
      const report = await api.get<{ data: Day[] }>(`/gateway/reports/daily/?from=${day}&to=${day}`);
      assert.deepEqual(report.body.data, [{ date: day, payments_count: 1, gross: '40.000', fees: '1.100', refunds: '0.000', net: '38.900' }]);
      await assertTotalsEqualEntries(merchant.merchantId);
    });

    it('when refund.updated (failed) comes before refund.created, and both come again with new ids, then the refund and its reversal are each written once and cancel out', async () => {
      const { merchant, api } = await shop();
      const payment = paymentEvent(merchant.merchantId, { amount: '50.000', fee: '1.000' });
      await toLedger([payment]);
      await settled(api, 1, '', 0);
      const refund = { id: newId('re'), amount: '20.000', status: 'pending' as const };
      const created = refundEvent('refund.created', merchant.merchantId, payment.data.session.id, refund);
      const failed = refundEvent('refund.updated', merchant.merchantId, payment.data.session.id, { ...refund, status: 'failed' });
      await toLedger([failed]);
      await settled(api, 3, '', 300);
      await toLedger([created, again(created), again(failed), failed]);
      const rows = await settled(api, 3, '', 1_500);
      assert.deepEqual(rows.map((t) => `${t.type}:${t.source}:${t.net}`).sort(), [`payment:${payment.data.session.id}:49.000`, `refund:${refund.id}:-20.000`, `refund_reversal:${refund.id}:20.000`].sort());
      assert.equal(sum(rows, 'net'), '49.000');
      const balance = await api.get<{ available: string; pending: string }>('/gateway/balance/');
      assert.deepEqual([balance.body.available, balance.body.pending], ['0.000', '49.000']);
      await assertTotalsEqualEntries(merchant.merchantId);
    });

    it('when refund.updated (failed) overtakes refund.created, then the refund is still counted on the day it was created, as when the two come in order (the report must not depend on delivery order)', async () => {
      const { merchant, api } = await shop();
      const payment = paymentEvent(merchant.merchantId, { amount: '90.000', fee: '0.900', paidAt: '2026-04-01T09:00:00.000Z' });
      await toLedger([payment]);
      await settled(api, 1, '', 0);
      const createdAt = new Date('2026-04-02T10:00:00.000Z');
      const resolvedAt = new Date('2026-04-06T10:00:00.000Z');
      const inOrder = { id: newId('re'), amount: '10.000', status: 'pending' as const, createdAt };
      const overtaken = { id: newId('re'), amount: '10.000', status: 'pending' as const, createdAt };
      const sessionId = payment.data.session.id;
      // The first refund's events come in order; the second's resolution overtakes its creation (a requeued delivery, a relay retry).
      await toLedger([refundEvent('refund.created', merchant.merchantId, sessionId, inOrder, createdAt)]);
      await settled(api, 2, '', 300);
      await toLedger([refundEvent('refund.updated', merchant.merchantId, sessionId, { ...inOrder, status: 'failed' }, resolvedAt)]);
      await toLedger([refundEvent('refund.updated', merchant.merchantId, sessionId, { ...overtaken, status: 'failed' }, resolvedAt)]);
      await settled(api, 5, '', 300);
      await toLedger([refundEvent('refund.created', merchant.merchantId, sessionId, overtaken, createdAt)]);
      const rows = await settled(api, 5, '', 1_000);
      const dayOf = (type: string, source: string) => rows.filter((t) => t.type === type && t.source === source).map((t) => tunisDate(new Date(t.created_at)));
      assert.deepEqual(dayOf('refund', inOrder.id), ['2026-04-02']);
      assert.deepEqual(dayOf('refund', overtaken.id), ['2026-04-02'], 'the overtaken refund is dated by its resolution instead of its creation');
    });

    it('when a refund waiting for an operator is resolved as failed, then resolved again, and its refund.updated is redelivered with a new id, then one reversal gives it back', async () => {
      const { merchant, api } = await shop();
      const session = await paid(api, '60.000', MANUAL_REFUND_CARD);
      const refund = await api.post<{ refund_id: string; automated_refund: boolean }>(`/gateway/sessions/${session.id}/refund/`, { refund_type: 'PARTIAL', amount: '25.000', reason: 'Broken' });
      assert.equal(refund.status, 200, refund.text);
      assert.equal(refund.body.automated_refund, false);
      await system.admin(['refund', 'resolve', refund.body.refund_id, '--as', 'failed']);
      await assert.rejects(system.admin(['refund', 'resolve', refund.body.refund_id, '--as', 'failed']), 'a second resolution is refused');
      await assert.rejects(system.admin(['refund', 'resolve', refund.body.refund_id, '--as', 'succeeded']), 'and so is a change of mind');
      const updated = (await events.waitFor<SessionEventData>('refund.updated', (e) => e.data.session.refund?.refund_id === refund.body.refund_id, 1, 10_000))[0] as Envelope<SessionEventData>;
      await system.publishEvents([again(updated), updated]);
      const rows = await settled(api, 3, `?session_id=${session.id}`, 1_500);
      assert.deepEqual(rows.map((t) => `${t.type}:${t.net}`).sort(), [`payment:${new Big(60).minus(session.attempts[0]?.fee_amount ?? '0').toFixed(3)}`, 'refund:-25.000', 'refund_reversal:25.000'].sort());
      // The amount is refundable again, and a new refund is a new movement.
      const second = await api.post<{ refund_id: string }>(`/gateway/sessions/${session.id}/refund/`, { refund_type: 'FULL', reason: 'Again' });
      assert.equal(second.status, 200, second.text);
      const after = await settled(api, 4, `?session_id=${session.id}`, 500);
      assert.deepEqual(after.filter((t) => t.source === second.body.refund_id).map((t) => [t.type, t.amount]), [['refund', '-60.000']]);
      await assertTotalsEqualEntries(merchant.merchantId);
    });

    it('when 80 payments and 40 refunds of one merchant and one day arrive at once, then no total is lost to a race: the report, the balance and the stored totals equal the entries', async () => {
      const { merchant, api } = await shop();
      const payments = Array.from({ length: 80 }, (_, i) => paymentEvent(merchant.merchantId, { amount: `${i + 1}.${String(i).padStart(3, '0')}`, fee: `0.${String(i * 7).padStart(3, '0').slice(-3)}` }));
      const refunds = payments.slice(0, 40).map((p, i) => refundEvent('refund.created', merchant.merchantId, p.data.session.id, { id: newId('re'), amount: `0.${String(i + 1).padStart(3, '0')}`, status: 'succeeded' }));
      // Interleaved and duplicated, so that many replicas' worth of writers race on the same totals rows.
      const burst = payments.flatMap((p, i) => [p, ...(refunds[i] ? [refunds[i], again(refunds[i])] : []), ...(i % 3 === 0 ? [again(p)] : [])]);
      await toLedger(burst);
      const rows = await settled(api, 120, '', 2_000);
      assert.equal(rows.length, 120);
      const day = tunisDate(new Date());
      const report = await api.get<{ data: Day[] }>(`/gateway/reports/daily/?from=${day}&to=${day}`);
      const payRows = rows.filter((t) => t.type === 'payment');
      const refundRows = rows.filter((t) => t.type === 'refund');
      assert.deepEqual(report.body.data, [{ date: day, payments_count: 80, gross: sum(payRows, 'amount'), fees: sum(rows, 'fee'), refunds: sum(refundRows, 'amount'), net: sum(rows, 'net') }]);
      const expectedGross = payments.reduce((total, p) => total.plus(p.data.session.amount), new Big(0)).toFixed(3);
      assert.equal(sum(payRows, 'amount'), expectedGross);
      const balance = await api.get<{ available: string; pending: string }>('/gateway/balance/');
      assert.deepEqual([balance.body.available, balance.body.pending], ['0.000', sum(rows, 'net')]);
      await assertTotalsEqualEntries(merchant.merchantId);
    });
  });

  describe('money counted twice or lost, racing', () => {
    it('when the creation and the failure of 30 refunds, with copies under new ids, all race at once, then each refund has exactly one refund and one reversal and the totals equal the entries', async () => {
      const { merchant, api } = await shop();
      const payment = paymentEvent(merchant.merchantId, { amount: '500.000', fee: '5.000' });
      await toLedger([payment]);
      await settled(api, 1, '', 0);
      const sessionId = payment.data.session.id;
      const refunds = Array.from({ length: 30 }, (_, i) => ({ id: newId('re'), amount: `${i + 1}.250`, status: 'pending' as const }));
      const burst = refunds.flatMap((refund, i) => {
        const created = refundEvent('refund.created', merchant.merchantId, sessionId, refund);
        const failed = refundEvent('refund.updated', merchant.merchantId, sessionId, { ...refund, status: 'failed' });
        // Half in order, half the failure first; each with a copy under a new id.
        return i % 2 === 0 ? [created, failed, again(failed), again(created)] : [failed, created, again(created), again(failed)];
      });
      await toLedger(burst);
      const rows = await settled(api, 61, '', 2_000);
      assert.equal(rows.length, 61);
      for (const refund of refunds) {
        assert.deepEqual(
          rows.filter((t) => t.source === refund.id).map((t) => `${t.type}:${t.amount}`).sort(),
          [`refund:-${refund.amount}`, `refund_reversal:${refund.amount}`],
          refund.id,
        );
      }
      assert.equal(sum(rows, 'net'), '495.000');
      await assertTotalsEqualEntries(merchant.merchantId);
    });
  });

  describe('poison and forged events', () => {
    it('when a session.succeeded carries an amount of 10.0005 TND (more than TND holds), then no balance transaction of a rounded 10.001 is written', async () => {
      const { merchant, api } = await shop();
      const bad = paymentEvent(merchant.merchantId, { amount: '10.0005', fee: '0.0005' });
      const marker = paymentEvent(merchant.merchantId, { amount: '1.000', fee: '0.010' });
      await toLedger([bad]);
      await sleep(500);
      await toLedger([marker]);
      const rows = await settled(api, 1, '', 3_500);
      assert.deepEqual(
        rows.filter((t) => t.source === bad.data.session.id).map((t) => [t.amount, t.fee]),
        [],
        'the ledger invented an amount nobody paid',
      );
    });

    it('when events carry a negative payment, a zero or positive-signed refund, or an amount past numeric(12,3), then nothing is written, the totals are untouched and later events still go through', async () => {
      const { merchant, api } = await shop();
      const sessionId = newId('ps');
      const poison = [
        paymentEvent(merchant.merchantId, { amount: '-10.000', fee: '0.000' }),
        paymentEvent(merchant.merchantId, { amount: '1000000000.000', fee: '0.000' }),
        paymentEvent(merchant.merchantId, { amount: '5.000', fee: '1000000000.000' }),
        refundEvent('refund.created', merchant.merchantId, sessionId, { id: newId('re'), amount: '0.000', status: 'succeeded' }),
        refundEvent('refund.created', merchant.merchantId, sessionId, { id: newId('re'), amount: '-3.000', status: 'succeeded' }),
        refundEvent('refund.updated', merchant.merchantId, sessionId, { id: newId('re'), amount: '1000000000.000', status: 'failed' }),
      ];
      const good = paymentEvent(merchant.merchantId, { amount: '2.000', fee: '0.020' });
      await toLedger(poison);
      await toLedger([good]);
      // Each poison event is tried DELIVERY_LIMIT (5) times, 500 ms apart, then dead-lettered.
      const rows = await settled(api, 1, '', 4_000);
      assert.deepEqual(
        rows.map((t) => [t.source, t.amount]),
        [[good.data.session.id, '2.000']],
      );
      await assertTotalsEqualEntries(merchant.merchantId);
      const later = paymentEvent(merchant.merchantId, { amount: '3.000', fee: '0.030' });
      await toLedger([later]);
      assert.equal((await settled(api, 2, '', 0)).length, 2);
    });

    it('when a broker user that does not publish money events forges them (on the ledger queue through the default exchange, or on the events exchange), then the ledger writes nothing', async () => {
      const { merchant, api } = await shop();
      const queue = namesFor(system.prefix).eventQueue('ledger');
      const forgedPayment = paymentEvent(merchant.merchantId, { amount: '999.000', fee: '0.000' });
      const forgedRefund = refundEvent('refund.updated', merchant.merchantId, newId('ps'), { id: newId('re'), amount: '500.000', status: 'failed' });
      const raw = (event: Envelope) => Buffer.from(JSON.stringify(event));
      // Straight onto the ledger's queue, as another service, with its own (broker-checked) user id.
      for (const principal of ['webhook-dispatcher', 'acquirer-adapter', 'api-gateway'] as const) {
        await system.publishConfirmedAs(principal, async (channel, userId) => {
          channel.publish('', queue, raw(again(forgedPayment)), { persistent: true, contentType: 'application/json', userId });
          channel.publish('', queue, raw(again(forgedRefund)), { persistent: true, contentType: 'application/json', userId });
        });
      }
      // Without any user id at all.
      await system.publishConfirmedAs('webhook-dispatcher', async (channel) => {
        channel.publish('', queue, raw(again(forgedPayment)), { persistent: true, contentType: 'application/json' });
      });
      // On the events exchange as the wrong publisher: the session publishing a refund, the refund a payment (topic permissions may refuse the publish itself).
      for (const [principal, event] of [
        ['session', forgedRefund],
        ['refund', forgedPayment],
      ] as const) {
        try {
          await system.publishConfirmedAs(principal, async (channel, userId) => {
            channel.publish(namesFor(system.prefix).events, event.type, raw(again(event as Envelope)), { persistent: true, contentType: 'application/json', userId });
          });
        } catch {
          // Refused by the broker: as good.
        }
      }
      const marker = paymentEvent(merchant.merchantId, { amount: '1.000', fee: '0.010' });
      await toLedger([marker]);
      const rows = await settled(api, 1, '', 1_500);
      assert.deepEqual(
        rows.map((t) => t.source),
        [marker.data.session.id],
      );
    });
  });

  describe('days, ranges and the balance', () => {
    it('when payments are made around Feb 29 in Tunis, then the report counts them on the right days, a 366-day range ending on it is answered in full, and 367 days are refused', async () => {
      const { api, merchant } = await shop();
      const at = (paidAt: string, amount: string) => paymentEvent(merchant.merchantId, { amount, fee: '0.100', paidAt });
      await toLedger([
        at('2028-02-28T22:59:59.999Z', '1.000'),
        at('2028-02-28T23:00:00.000Z', '2.000'),
        at('2028-02-29T22:59:59.999Z', '4.000'),
        at('2028-02-29T23:00:00.000Z', '8.000'),
      ]);
      const rows = await settled(api, 4, '', 300);
      assert.deepEqual(rows.map((t) => [t.amount, t.available_on]), [
        ['8.000', '2028-03-03'],
        ['4.000', '2028-03-02'],
        ['2.000', '2028-03-02'],
        ['1.000', '2028-03-01'],
      ]);
      const year = await api.get<{ data: Day[] }>('/gateway/reports/daily/?from=2027-03-01&to=2028-02-29');
      assert.equal(year.status, 200, year.text);
      assert.equal(year.body.data.length, 366);
      assert.deepEqual(year.body.data.at(-1), { date: '2028-02-29', payments_count: 2, gross: '6.000', fees: '0.200', refunds: '0.000', net: '5.800' });
      assert.deepEqual(year.body.data.at(-2), { date: '2028-02-28', payments_count: 1, gross: '1.000', fees: '0.100', refunds: '0.000', net: '0.900' });
      const tooLong = await api.get<Problem>('/gateway/reports/daily/?from=2027-02-28&to=2028-02-29');
      assert.equal(tooLong.status, 422, tooLong.text);
      assert.deepEqual(tooLong.body.errors?.map((e) => e.field), ['to']);
      // The list's own bounds of that Tunis day give the same sums.
      const feb29 = await listAll(api, `?created[gte]=2028-02-28T23:00:00.000Z&created[lte]=2028-02-29T22:59:59.999Z`);
      assert.deepEqual([feb29.length, sum(feb29, 'net')], [2, '5.800']);
      const march = await api.get<{ data: Day[] }>('/gateway/reports/daily/?from=2028-03-01&to=2028-03-01');
      assert.deepEqual(march.body.data, [{ date: '2028-03-01', payments_count: 1, gross: '8.000', fees: '0.100', refunds: '0.000', net: '7.900' }]);
    });

    it('when a payment was made on the last millisecond of the Tunis day two days ago, then it is available today, and one made a millisecond later is still pending', async () => {
      const { api, merchant } = await shop();
      const today = tunisDate(new Date());
      const twoDaysAgo = new Date(Date.parse(`${today}T00:00:00.000+01:00`) - 24 * 3600_000 - 1).toISOString();
      const yesterdayStart = new Date(Date.parse(`${today}T00:00:00.000+01:00`) - 24 * 3600_000).toISOString();
      await toLedger([
        paymentEvent(merchant.merchantId, { amount: '11.000', fee: '1.000', paidAt: twoDaysAgo }),
        paymentEvent(merchant.merchantId, { amount: '22.000', fee: '2.000', paidAt: yesterdayStart }),
      ]);
      const rows = await settled(api, 2, '', 300);
      assert.deepEqual(
        rows.map((t) => t.available_on),
        [addDay(today, 1), today],
      );
      const balance = await api.get<{ available: string; pending: string; currency: string }>('/gateway/balance/');
      assert.deepEqual([balance.body.available, balance.body.pending, balance.body.currency], ['10.000', '20.000', 'TND']);
    });

    it('when every money figure is read (list, balance, report), then it is a decimal string with exactly 3 decimals, never a JSON number', async () => {
      const { api, merchant } = await shop();
      await toLedger([paymentEvent(merchant.merchantId, { amount: '0.001', fee: '0.001' }), paymentEvent(merchant.merchantId, { amount: '999999.999', fee: '0.000' })]);
      const rows = await settled(api, 2, '', 200);
      for (const row of rows) for (const field of ['amount', 'fee', 'net'] as const) assert.match(row[field], MONEY, `${field} ${JSON.stringify(row[field])}`);
      const raw = await api.get('/gateway/balance/');
      assert.doesNotMatch(raw.text, /"(available|pending)":\s*-?\d/);
      const day = tunisDate(new Date());
      const report = await api.get<{ data: Day[] }>(`/gateway/reports/daily/?from=${day}&to=${day}`);
      assert.deepEqual(report.body.data[0], { date: day, payments_count: 2, gross: '1000000.000', fees: '0.001', refunds: '0.000', net: '999999.999' });
    });
  });

  describe('hostile queries', () => {
    it('when created[gte] / created[lte] or a report date is one PostgreSQL cannot read (year 0000, an offset past 15:59), then the answer is a 422 naming the field, not a 500', async () => {
      const { api } = await shop();
      const cases: [string, string][] = [
        ['/gateway/balance_transactions/?created[gte]=0000-01-01T00:00:00Z', 'created[gte]'],
        ['/gateway/balance_transactions/?created[lte]=2026-01-01T00:00:00%2B16:00', 'created[lte]'],
        ['/gateway/refunds/?created[gte]=0000-12-31T23:59:59Z', 'created[gte]'],
        ['/gateway/refunds/?created[lte]=2026-01-01T00:00:00-23:59', 'created[lte]'],
        ['/gateway/reports/daily/?from=0000-01-01&to=0000-01-31', 'from'],
        ['/gateway/exports/balance_transactions.csv?created[gte]=0000-01-01T00:00:00Z', 'created[gte]'],
        ['/gateway/exports/refunds.csv?created[gte]=2026-01-01T00:00:00%2B20:00', 'created[gte]'],
        ['/gateway/exports/sessions.csv?created[gte]=0000-01-01T00:00:00Z', 'created[gte]'],
      ];
      const wrong: string[] = [];
      for (const [path, field] of cases) {
        const res = await api.get<Problem>(path);
        const fields = res.body?.errors?.map((e) => e.field) ?? [];
        if (res.status !== 422 || !fields.includes(field)) wrong.push(`${path} -> ${res.status} ${res.body?.type ?? res.text.slice(0, 80)}`);
      }
      assert.deepEqual(wrong, []);
    });

    it('when a query fails inside (even a 500), or carries SQL, quotes and odd characters, then the problem document leaks no SQL, table, stack or driver message', async () => {
      const { api } = await shop();
      const paths = [
        '/gateway/balance_transactions/?created[gte]=0000-01-01T00:00:00Z',
        '/gateway/reports/daily/?from=0000-01-01&to=0000-01-31',
        `/gateway/balance_transactions/?session_id=${encodeURIComponent("ps_x' OR '1'='1")}`,
        `/gateway/balance_transactions/?session_id=${encodeURIComponent('ps_x"; DROP TABLE balance_transactions; --')}`,
        `/gateway/balance_transactions/?type=${encodeURIComponent("payment' OR 1=1 --")}`,
        `/gateway/balance_transactions/?created[gte]=${encodeURIComponent("2026-01-01T00:00:00Z' OR 1=1 --")}`,
        `/gateway/balance_transactions/?starting_after=${encodeURIComponent("txn_' OR 1=1 --")}`,
        `/gateway/refunds/?status=${encodeURIComponent("failed' OR 1=1 --")}`,
        `/gateway/refunds/?session_id=${encodeURIComponent('%_\\')}`,
        '/gateway/balance_transactions/?type=payment&type=refund',
        '/gateway/balance_transactions/?created%5Bgte%5D=2026-01-01T00:00:00Z&created%5Bgte%5D=2026-01-02T00:00:00Z',
        `/gateway/balance_transactions/?session_id=${encodeURIComponent('ps_\u202e\ud83d\ude00\u0000')}`,
        `/gateway/reports/daily/?from=${encodeURIComponent('2026-01-01; SELECT 1')}&to=2026-01-02`,
      ];
      for (const path of paths) {
        const res = await api.get<Problem>(path);
        assert.ok(res.status === 422 || res.status === 500 || res.status === 400, `${path}: ${res.status} ${res.text}`);
        assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/, path);
        assert.doesNotMatch(res.text, /SELECT|INSERT|balance_transactions|daily_totals|relation|syntax|out of range|displacement|at [\w.]+ \(|node_modules|\.ts:|\.js:\d/i, `${path}: ${res.text}`);
      }
      // And nothing moved: the injected filters matched no row of anyone.
      assert.deepEqual(await listAll(api), []);
    });

    it('when a cursor or a session_id names another merchant\'s or the other mode\'s money, then the list, the export and the filters refuse it, and a live key sees no test money at all', async () => {
      const victim = await shop();
      const attacker = await shop();
      const event = paymentEvent(victim.merchant.merchantId, { amount: '77.000', fee: '1.000' });
      await toLedger([event]);
      const [txn] = await settled(victim.api, 1, '', 0);
      assert.ok(txn);
      const sessionId = event.data.session.id;
      for (const path of [
        `/gateway/balance_transactions/?starting_after=${txn.id}`,
        `/gateway/balance_transactions/?ending_before=${txn.id}`,
        `/gateway/balance_transactions/?session_id=${sessionId}`,
        `/gateway/refunds/?session_id=${sessionId}`,
        `/gateway/exports/balance_transactions.csv?session_id=${sessionId}`,
      ]) {
        const res = await attacker.api.get<Problem>(path);
        assert.equal(res.status, 422, `${path}: ${res.text}`);
        assert.doesNotMatch(res.text, /77\.000/);
      }
      // The victim's own live key: no test money through any door.
      const live = system.api(await system.approveLive(victim.merchant.merchantId));
      assert.equal((await live.get<Problem>(`/gateway/balance_transactions/?starting_after=${txn.id}`)).status, 422);
      assert.equal((await live.get<Problem>(`/gateway/balance_transactions/?session_id=${sessionId}`)).status, 422);
      assert.deepEqual((await live.get<TxnList>('/gateway/balance_transactions/')).body.data, []);
      assert.deepEqual((await live.get<{ available: string; pending: string }>('/gateway/balance/')).body, { available: '0.000', pending: '0.000', currency: 'TND', livemode: true });
      const day = tunisDate(new Date());
      assert.deepEqual((await live.get<{ data: Day[] }>(`/gateway/reports/daily/?from=${day}&to=${day}`)).body.data[0]?.payments_count, 0);
      const csv = await live.get(`/gateway/exports/balance_transactions.csv`);
      assert.equal(csv.status, 200);
      assert.doesNotMatch(csv.text, new RegExp(txn.id));
      // A live payment event does not leak into the test mode either.
      const livePayment = paymentEvent(victim.merchant.merchantId, { amount: '5.000', fee: '0.050', livemode: true });
      await toLedger([livePayment]);
      await pollUntil(async () => (await live.get<TxnList>('/gateway/balance_transactions/')).body.data.length === 1, 10_000, 'the live payment');
      assert.deepEqual(
        (await listAll(victim.api)).map((t) => t.source),
        [sessionId],
      );
    });
  });

  describe('CSV exports', () => {
    it('when any text column starts with =, +, -, @, a tab, a CR or their full-width forms, or holds CR/LF and quotes, then each cell is neutralised, quoted, and every row parses back whole', async () => {
      const { api } = await shop();
      const hostile = ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\t=1', '\r=1', '\uFF1DHYPERLINK("x")', '\uFF0B1', '\uFF0D1', '\uFF20x', 'line\r\n=evil,"x"', 'a"b""c', '\n=lf'];
      const made: { id: string; reference: string; name: string }[] = [];
      for (const [i, text] of hostile.entries()) {
        const res = await api.post<Detail>('/gateway/sessions/', sessionRequest({ amount: '3.000', merchant_reference: `${text}#${i}`.slice(0, 200), first_name: text, last_name: `${text}`, email: i === 0 ? '=cmd@example.tn' : `x${i}@example.tn` }));
        assert.equal(res.status, 201, `${JSON.stringify(text)}: ${res.text}`);
        made.push({ id: res.body.id, reference: `${text}#${i}`, name: text });
      }
      const sessions = await api.get('/gateway/exports/sessions.csv');
      assert.equal(sessions.status, 200, sessions.text);
      const rows = parse(sessions.text, { columns: true }) as Record<string, string>[];
      assert.equal(rows.length, hostile.length, 'one parsed row per session: no row broken by CR/LF');
      const byId = new Map(rows.map((row) => [row['id'], row]));
      // D29: also after leading spaces of any kind (a line feed among them) and format characters.
      const dangerous = /^(?:[\t\r]|[\s\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;
      for (const session of made) {
        const row = byId.get(session.id);
        assert.ok(row, session.id);
        for (const [column, value] of [
          ['merchant_reference', session.reference],
          ['buyer_first_name', session.name],
          ['buyer_last_name', session.name],
        ] as const) {
          const expected = dangerous.test(value) ? `'${value}` : value;
          assert.equal(row[column], expected, `${column} of ${JSON.stringify(value)}`);
        }
      }
      assert.equal(byId.get(made[0]?.id ?? '')?.['buyer_email'], "'=cmd@example.tn");

      // A refund's reason and metadata, through the refunds export.
      const session = await paid(api, '30.000');
      const reasons = ['=HYPERLINK("http://evil")', '\r\n@x', 'ok,"quoted"\r\nnext'];
      for (const reason of reasons) {
        const res = await api.post(`/gateway/sessions/${session.id}/refund/`, { refund_type: 'PARTIAL', amount: '1.000', reason, metadata: { '=k': '=v', note: '-1\r\n+2' } });
        assert.equal(res.status, 200, res.text);
      }
      const refunds = await api.get(`/gateway/exports/refunds.csv?session_id=${session.id}`);
      const refundRows = parse(refunds.text, { columns: true }) as Record<string, string>[];
      // A reason starting with CR is prefixed (D21 lists the carriage return); CR/LF inside a cell stay inside its quotes.
      assert.deepEqual(refundRows.map((row) => row['reason']).sort(), [`'=HYPERLINK("http://evil")`, 'ok,"quoted"\r\nnext', "'\r\n@x"].sort());
      for (const row of refundRows) assert.deepEqual(JSON.parse(row['metadata'] ?? ''), { '=k': '=v', note: '-1\r\n+2' });
    });

    it('when balance transactions share one created_at across many pages of an export, then every row comes exactly once, in the list\'s order, and the file sums to the balance', async () => {
      const { api, merchant } = await shop();
      const count = PAGE_SIZE * 4 + 7;
      await seedEntries(merchant.merchantId, count, { sameTime: true });
      const csv = await api.get('/gateway/exports/balance_transactions.csv');
      assert.equal(csv.status, 200, csv.text);
      const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
      const listed = await listAll(api);
      assert.equal(listed.length, count);
      assert.deepEqual(
        rows.map((row) => row['id']),
        listed.map((t) => t.id),
      );
      assert.equal(new Set(rows.map((row) => row['id'])).size, count, 'no row twice');
      const net = rows.reduce((total, row) => total.plus((row['net'] ?? '').replace(/^'/, '')), new Big(0)).toFixed(3);
      assert.equal(net, new Big('0.900').times(count).toFixed(3));
    });

    it('when the client of a long export goes away after its first bytes, then the gateway stops asking the ledger for pages', async () => {
      const { merchant } = await shop();
      const count = 30_000;
      await seedEntries(merchant.merchantId, count);
      const port = system.portOf('ledger');
      const before = await commandsHandled(port, 'ledger.list_transactions');
      const response = await openExport(merchant.testKey, 'balance_transactions');
      assert.equal(response.statusCode, 200);
      await new Promise<void>((resolve) => response.once('data', () => resolve()));
      response.destroy();
      await sleep(3_000);
      const pages = (await commandsHandled(port, 'ledger.list_transactions')) - before;
      await sleep(2_000);
      const later = (await commandsHandled(port, 'ledger.list_transactions')) - before;
      assert.ok(pages < count / PAGE_SIZE / 2, `${pages} of ${count / PAGE_SIZE} pages read after the client left`);
      assert.equal(later, pages, 'nothing more asked for once it stopped');
    });

    it('when the target of an export stops taking rows (a client that reads nothing), then no more than two pages and the buffers of the streams are read ahead, and none once the target is gone', async () => {
      // The kernel's loopback buffers here (tcp_rmem up to 32 MB) would swallow a whole test export over HTTP: the export is driven directly.
      let fetched = 0;
      const fetchPage = async (page: { page_size: number }) => {
        fetched += 1;
        const data = Array.from({ length: page.page_size }, (_, i) => ({
          id: `txn_${String(fetched).padStart(10, '0')}${String(i).padStart(10, '0')}`,
          type: 'payment',
          session_id: `ps_${String(fetched).padStart(20, '0')}`,
          source: 'x',
          amount: '1.000',
          fee: '0.000',
          net: '1.000',
          currency: 'TND',
          created_at: '2026-01-01T00:00:00.000Z',
          available_on: '2026-01-03',
          livemode: false,
        }));
        return { data, has_more: true };
      };
      const csv = await openCsvExport('balance_transactions', {}, fetchPage, { pageSize: PAGE_SIZE });
      const stalled = new Writable({ highWaterMark: 1024, write: () => undefined });
      const written = csv.writeTo(stalled).then(
        () => undefined,
        (err: unknown) => err,
      );
      await sleep(1_000);
      const first = fetched;
      await sleep(1_000);
      assert.equal(fetched, first, 'reading stopped while the target took nothing');
      // Two pages (the one written, the one read ahead) and what the streams' own buffers hold (64 rows, csv-stringify's 16 rows and 16 KiB).
      assert.ok(first * PAGE_SIZE <= 2 * PAGE_SIZE + 300, `${first} pages read ahead of a target that took nothing`);
      stalled.destroy();
      assert.ok((await written) instanceof Error, 'the export ends with an error once its target is gone');
      await sleep(300);
      assert.equal(fetched, first, 'nothing read once the target is gone');
    });

    it('when an export is asked with HEAD, then it answers the headers without reading the whole export from the ledger for a body nobody gets', async () => {
      const { merchant } = await shop();
      const count = 5_000;
      await seedEntries(merchant.merchantId, count);
      const port = system.portOf('ledger');
      const before = await commandsHandled(port, 'ledger.list_transactions');
      const res = await fetch(`${system.apiUrl}/gateway/exports/balance_transactions.csv`, { method: 'HEAD', headers: { authorization: `Bearer ${merchant.testKey}` } });
      await sleep(2_000);
      const pages = (await commandsHandled(port, 'ledger.list_transactions')) - before;
      assert.ok(res.status === 200 || res.status === 405, String(res.status));
      assert.ok(pages <= 1, `${pages} pages of ${count / PAGE_SIZE} read for a HEAD`);
    });

    it('when an export answers, then it carries X-Request-Id like every response (D1), echoed when given', async () => {
      const { api } = await shop();
      const res = await api.get('/gateway/exports/refunds.csv', { 'x-request-id': 'req-attack-export-1' });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-request-id'), 'req-attack-export-1');
    });
  });

  describe('the SDK', () => {
    it('when the SDK lists or exports with a date PostgreSQL cannot read, then it gets a ValidationError at once, not a 500 it retries three times and a generic error', async () => {
      const { merchant } = await shop();
      const calls: string[] = [];
      const counting: typeof fetch = (input, init) => {
        calls.push(new URL(String(input)).pathname);
        return fetch(input, init);
      };
      const gateway = new Gateway(merchant.testKey, { baseUrl: system.baseUrl, initialRetryDelayMs: 20, fetch: counting });
      const listed = await gateway.balanceTransactions
        .list({ 'created[gte]': '0000-01-01T00:00:00Z' })
        .page()
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      const dir = await mkdtemp(join(tmpdir(), 'ledger-attacks-'));
      try {
        const exported = await gateway.exports.download('refunds', { 'created[gte]': '0000-01-01T00:00:00Z' }, join(dir, 'refunds.csv')).then(
          () => undefined,
          (err: unknown) => err,
        );
        assert.deepEqual(await readdir(dir), [], 'no file, not even a partial one');
        assert.deepEqual(
          [listed instanceof ValidationError, exported instanceof ValidationError, calls.length],
          [true, true, 2],
          `${String(listed)} / ${String(exported)} after ${calls.length} calls`,
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('when the SDK pages through many balance transactions and downloads them, then it sees each once, as strings, and an aborted download leaves no file behind', async () => {
      const { merchant } = await shop();
      const count = PAGE_SIZE * 3 + 11;
      await seedEntries(merchant.merchantId, count, { sameTime: true });
      const gateway = new Gateway(merchant.testKey, { baseUrl: system.baseUrl, initialRetryDelayMs: 20 });
      const seen: string[] = [];
      for await (const txn of gateway.balanceTransactions.list({ type: 'payment' })) {
        assert.equal(typeof txn.amount, 'string');
        seen.push(txn.id);
      }
      assert.equal(new Set(seen).size, count);
      const dir = await mkdtemp(join(tmpdir(), 'ledger-attacks-'));
      try {
        const done = await gateway.exports.download('balance_transactions', { type: 'payment' }, join(dir, 'all.csv'));
        const rows = parse(await readFile(done.path, 'utf8'), { columns: true }) as Record<string, string>[];
        assert.deepEqual(
          rows.map((row) => row['id']),
          seen,
        );
        const controller = new AbortController();
        controller.abort(new Error('the user gave up'));
        await assert.rejects(gateway.exports.download('balance_transactions', {}, join(dir, 'aborted.csv'), { signal: controller.signal }));
        assert.deepEqual(await readdir(dir), ['all.csv']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  /** `count` payments of 1.000 (fee 0.100) written straight into the ledger's table, newest first by a millisecond each (or all at one instant). */
  async function seedEntries(merchantId: string, count: number, options: { sameTime?: boolean } = {}): Promise<void> {
    const tag = merchantId.slice(-8);
    await system.db.query(
      `INSERT INTO ledger.balance_transactions (id, merchant_id, livemode, type, session_id, source, amount, fee, net, created_at, day, available_on)
       SELECT 'txn_seed' || $3 || lpad(i::text, 12, '0'), $1, false, 'payment', 'ps_seed' || $3 || lpad(i::text, 12, '0'), 'ps_seed' || $3 || lpad(i::text, 12, '0'), 1.000, 0.100, 0.900,
              now() - CASE WHEN $4 THEN interval '0' ELSE i * interval '1 millisecond' END, current_date, current_date + 2
         FROM generate_series(1, $2::int) AS i`,
      [merchantId, count, tag, options.sameTime === true],
    );
  }

  /** A raw GET of an export, its body left to the caller to read (or not). */
  function openExport(key: string, kind: string): Promise<IncomingMessage> {
    const url = new URL(`${system.apiUrl}/gateway/exports/${kind}.csv`);
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { method: 'GET', headers: { authorization: `Bearer ${key}` } }, resolve);
      req.once('error', reject);
      req.end();
    });
  }
});

function addDay(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}
