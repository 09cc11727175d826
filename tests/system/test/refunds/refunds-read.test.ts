/**
 * Refunds read back (D16) in a whole running system: a read right after a
 * refund's answer shows it, refunds are a resource merchants read by id and by
 * session, and an operator's resolution reaches the merchant as refund.updated.
 */
import assert from 'node:assert/strict';
import Big from 'big.js';
import { newId, type Envelope, type RefundResult, type SessionEventData } from '@gateway/contracts';
import { payOnPage, sessionRequest, TestSystem, WebhookReceiver, type ApiClient, type EventCapture } from '@gateway/testkit';

type Problem = { type: string; status: number; errors?: { field: string; code: string }[] };
type Detail = { id: string; status: string; checkout_url?: string; amount_refunded: string; attempts: { id: string }[] };
type Refund = {
  refund_id: string;
  session_id: string;
  amount: string;
  currency: string;
  reason: string;
  metadata: Record<string, string>;
  automated_refund: boolean;
  status: string;
  epg_error_message?: string;
  created_at: string;
  resolved_at: string | null;
};

describe('Refunds read back (D16)', function () {
  this.timeout(240_000);
  let system: TestSystem;
  let events: EventCapture;
  let receiver: WebhookReceiver;

  before(async () => {
    system = await TestSystem.start();
    events = await system.captureEvents(['refund.*']);
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await receiver?.close();
    await events?.stop();
    await system?.shutdown();
  });

  async function shop(options: { webhookUrl?: string } = {}): Promise<{ api: ApiClient; merchantId: string }> {
    const merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 }, ...options });
    return { api: system.api(merchant.testKey), merchantId: merchant.merchantId };
  }

  async function paidSession(api: ApiClient, amount = '100.000', card = '4242424242424242'): Promise<Detail> {
    const created = await api.post<Detail>('/gateway/sessions/', sessionRequest({ amount }));
    assert.equal(created.status, 201, created.text);
    await payOnPage(created.body.checkout_url ?? '', { card_number: card });
    const paid = await api.get<Detail>(`/gateway/sessions/${created.body.id}/`);
    assert.equal(paid.body.status, 'SUCCEEDED', paid.text);
    return paid.body;
  }

  const refund = (api: ApiClient, id: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    api.post<RefundResult & Problem>(`/gateway/sessions/${id}/refund/`, body, headers);
  const refunded = async (api: ApiClient, id: string) => (await api.get<Detail>(`/gateway/sessions/${id}/`)).body.amount_refunded;

  it('when a merchant refunds and reads back at once, 200 times, 20 of them concurrent partial refunds on one session, then every read shows exactly what was refunded', async () => {
    const { api } = await shop();
    const chains = await Promise.all(Array.from({ length: 6 }, () => paidSession(api)));
    const contested = await paidSession(api);
    const misread: string[] = [];
    let checks = 0;

    // 180 refunds, one after another on each of six sessions (the sessions side by side), each read at once.
    const amounts = ['0.500', '1.250', '2.000'];
    await Promise.all(
      chains.map(async (session) => {
        let total = new Big(0);
        for (let i = 0; i < 30; i += 1) {
          const amount = amounts[i % amounts.length] ?? '0.500';
          const res = await refund(api, session.id, { reason: 'Partly returned', refund_type: 'PARTIAL', amount });
          assert.equal(res.status, 200, res.text);
          total = total.plus(amount);
          const read = await refunded(api, session.id);
          checks += 1;
          if (read !== total.toFixed(3)) misread.push(`${session.id} after refund ${i + 1}: read ${read}, refunded ${total.toFixed(3)}`);
        }
      }),
    );

    // 20 at once on one session of 100.000: 16 of 6.000 fit. Each read, sent once its refund has answered,
    // shows at least every refund answered before it was sent and never more than was reserved.
    let answered = new Big(0);
    const results = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await refund(api, contested.id, { reason: 'Returned in parts', refund_type: 'PARTIAL', amount: '6.000' });
        if (res.status !== 200) return res.status;
        answered = answered.plus(res.body.refunded_amount);
        const floor = answered;
        const read = new Big(await refunded(api, contested.id));
        checks += 1;
        if (read.lt(floor) || read.gt('96.000')) misread.push(`${contested.id}: read ${read.toFixed(3)} with ${floor.toFixed(3)} answered`);
        return res.status;
      }),
    );
    assert.deepEqual([results.filter((s) => s === 200).length, results.filter((s) => s === 422).length], [16, 4]);
    assert.equal(await refunded(api, contested.id), '96.000');
    assert.equal(checks, 196);
    assert.deepEqual(misread, []);

    // The refund events come after: they count nothing twice.
    await events.waitFor<SessionEventData>('refund.created', (e) => e.data.session.id === contested.id, 16, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(await refunded(api, contested.id), '96.000');
    assert.deepEqual(await Promise.all(chains.map((s) => refunded(api, s.id))), chains.map(() => '37.500'));
    const listed = await api.get<{ data: Refund[] }>(`/gateway/sessions/${contested.id}/refunds/`);
    assert.equal(listed.body.data.reduce((sum, r) => sum.plus(r.amount), new Big(0)).toFixed(3), '96.000');
  });

  it('when refunds are read back, then each carries its fields and metadata, the session lists them oldest first, and another merchant, mode or id gets 404', async () => {
    const { api, merchantId } = await shop();
    const paid = await paidSession(api);
    const metadata = { order: 'A-1', note: '<b>returned</b>' };
    const first = await refund(api, paid.id, { reason: 'Damaged box', refund_type: 'PARTIAL', amount: '10.000', metadata });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.metadata, metadata);
    const [announced] = await events.waitFor<SessionEventData>('refund.created', (e) => e.data.session.refund?.refund_id === first.body.refund_id);
    assert.deepEqual(announced?.data.session.refund?.metadata, metadata);

    const one = await api.get<Refund>(`/gateway/refunds/${first.body.refund_id}/`);
    assert.equal(one.status, 200, one.text);
    const { created_at, resolved_at, ...rest } = one.body;
    assert.deepEqual(rest, {
      refund_id: first.body.refund_id,
      session_id: paid.id,
      amount: '10.000',
      currency: 'TND',
      reason: 'Damaged box',
      metadata,
      automated_refund: true,
      status: 'succeeded',
    });
    assert.ok(!Number.isNaN(Date.parse(created_at)) && resolved_at !== null && Date.parse(resolved_at) >= Date.parse(created_at));

    const second = await refund(api, paid.id, { reason: 'The rest' });
    assert.equal(second.status, 200, second.text);
    const listed = await api.get<{ data: Refund[] }>(`/gateway/sessions/${paid.id}/refunds/`);
    assert.deepEqual(
      listed.body.data.map((r) => [r.refund_id, r.amount, r.metadata]),
      [
        [first.body.refund_id, '10.000', metadata],
        [second.body.refund_id, '90.000', {}],
      ],
    );

    const unpaid = await api.post<Detail>('/gateway/sessions/', sessionRequest());
    assert.deepEqual((await api.get(`/gateway/sessions/${unpaid.body.id}/refunds/`)).body, { data: [] });

    const stranger = (await shop()).api;
    const live = system.api(await system.approveLive(merchantId));
    for (const [who, path] of [
      [stranger, `/gateway/refunds/${first.body.refund_id}/`],
      [stranger, `/gateway/sessions/${paid.id}/refunds/`],
      [live, `/gateway/refunds/${first.body.refund_id}/`],
      [live, `/gateway/sessions/${paid.id}/refunds/`],
      [api, `/gateway/refunds/${newId('re')}/`],
      [api, `/gateway/sessions/${newId('ps')}/refunds/`],
    ] as const) {
      const res = await who.get<Problem>(path);
      assert.equal(res.status, 404, `${path}: ${res.text}`);
      assert.match(res.body.type, /\/errors\/not-found$/);
    }
  });

  it('when a merchant lists every refund of the account, then they come newest first across sessions, page by page, narrowed by status, session and date, and a bad filter is a problem', async () => {
    const { api } = await shop();
    const [one, two] = await Promise.all([paidSession(api), paidSession(api)]);
    const made: string[] = [];
    for (const [session, amount] of [
      [one, '1.000'],
      [two, '2.000'],
      [one, '3.000'],
    ] as const) {
      const res = await refund(api, session.id, { reason: 'Returned', refund_type: 'PARTIAL', amount });
      assert.equal(res.status, 200, res.text);
      made.push(res.body.refund_id);
    }
    type Page = { data: Refund[]; has_more: boolean };
    const all = await api.get<Page>('/gateway/refunds/');
    assert.deepEqual(all.body.data.map((r) => r.refund_id), [...made].reverse());
    assert.deepEqual(all.body.data.map((r) => [r.amount, r.status]), [['3.000', 'succeeded'], ['2.000', 'succeeded'], ['1.000', 'succeeded']]);

    const paged: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await api.get<Page>(`/gateway/refunds/?limit=1${cursor && `&starting_after=${cursor}`}`);
      paged.push(...page.body.data.map((r) => r.refund_id));
      if (!page.body.has_more) break;
      cursor = page.body.data[0]?.refund_id ?? '';
    }
    assert.deepEqual(paged, [...made].reverse());
    assert.deepEqual((await api.get<Page>(`/gateway/refunds/?session_id=${one.id}`)).body.data.map((r) => r.refund_id), [made[2], made[0]]);
    assert.deepEqual((await api.get<Page>('/gateway/refunds/?status=failed')).body.data, []);
    const since = all.body.data[1]?.created_at ?? '';
    assert.deepEqual((await api.get<Page>(`/gateway/refunds/?created[gte]=${since}`)).body.data.map((r) => r.refund_id), [made[2], made[1]]);

    const stranger = await paidSession((await shop()).api);
    for (const [query, field] of [
      [`session_id=${stranger.id}`, 'session_id'],
      ['status=done', 'status'],
      ['refund_type=FULL', 'refund_type'],
      ['created[gte]=2026-03-02T00:00:00Z&created[lte]=2026-03-01T00:00:00Z', 'created[gte]'],
      [`starting_after=${newId('re')}`, 'starting_after'],
    ] as const) {
      const res = await api.get<Problem>(`/gateway/refunds/?${query}`);
      assert.equal(res.status, 422, `${query}: ${res.text}`);
      assert.deepEqual(res.body.errors?.map((e) => e.field), [field], `${query}: ${res.text}`);
    }
  });

  it('when an operator resolves a held refund, then the merchant gets refund.updated with its final status, in the delivery history too, and reads it resolved at once', async () => {
    const { api } = await shop({ webhookUrl: receiver.url() });
    const paid = await paidSession(api, '40.000', '4000000000005126');
    const held = await refund(api, paid.id, { reason: 'Damaged', refund_type: 'PARTIAL', amount: '15.000', metadata: { ticket: 'T-7' } });
    assert.deepEqual([held.status, held.body.automated_refund], [200, false]);
    const pending = (await api.get<Refund>(`/gateway/refunds/${held.body.refund_id}/`)).body;
    assert.deepEqual([pending.status, pending.epg_error_message, pending.resolved_at], ['pending', held.body.epg_error_message, null]);

    assert.deepEqual(await system.admin(['refund', 'resolve', held.body.refund_id, '--as', 'succeeded']), { refund_id: held.body.refund_id, status: 'SUCCEEDED' });
    const confirmed = (await api.get<Refund>(`/gateway/refunds/${held.body.refund_id}/`)).body;
    assert.deepEqual([confirmed.status, confirmed.automated_refund, confirmed.epg_error_message], ['succeeded', false, undefined]);
    assert.ok(confirmed.resolved_at !== null);
    assert.equal(await refunded(api, paid.id), '15.000');

    const other = await refund(api, paid.id, { reason: 'Second box', refund_type: 'PARTIAL', amount: '10.000' });
    assert.deepEqual([other.status, other.body.automated_refund], [200, false]);
    assert.equal(await refunded(api, paid.id), '25.000');
    assert.deepEqual(await system.admin(['refund', 'resolve', other.body.refund_id, '--as', 'failed']), { refund_id: other.body.refund_id, status: 'FAILED' });
    assert.equal(await refunded(api, paid.id), '15.000', 'read right after the resolution');
    assert.equal((await api.get<Refund>(`/gateway/refunds/${other.body.refund_id}/`)).body.status, 'failed');

    const updateOf = (id: string) => (r: WebhookReceiver['received'][number]) =>
      r.body.event === 'refund.updated' && (r.body.data['refund'] as { refund_id?: string } | undefined)?.refund_id === id;
    await receiver.waitFor((received) => received.some(updateOf(held.body.refund_id)) && received.some(updateOf(other.body.refund_id)));
    const delivered = (id: string) => receiver.received.find(updateOf(id))?.body.data['refund'] as { status: string; metadata: Record<string, string>; amount: string };
    assert.deepEqual([delivered(held.body.refund_id).status, delivered(held.body.refund_id).metadata], ['succeeded', { ticket: 'T-7' }]);
    assert.deepEqual([delivered(other.body.refund_id).status, delivered(other.body.refund_id).amount], ['failed', '10.000']);

    const history = await api.get<{ data: { event: string }[] }>(`/gateway/sessions/${paid.id}/webhooks/`);
    assert.equal(history.body.data.filter((d) => d.event === 'refund.updated').length, 2, history.text);
  });

  it('when a refund was settled but its answer was lost before the session recorded it, then the retry with its Idempotency-Key records it and the read shows it', async () => {
    const { api, merchantId } = await shop();
    const paid = await paidSession(api);
    const attemptId = paid.attempts[0]?.id ?? '';
    const refundId = newId('re');
    // What a replica leaves when it dies between settling a refund and telling the session.
    await system.db.query(`INSERT INTO refund.payments (attempt_id, session_id, merchant_id, livemode, captured, held) VALUES ($1, $2, $3, false, 100, 20)`, [
      attemptId,
      paid.id,
      merchantId,
    ]);
    await system.db.query(
      `INSERT INTO refund.refunds (id, session_id, attempt_id, merchant_id, livemode, amount, refund_type, reason, metadata, status, automated, operation, idempotency_key, resolved_at)
       VALUES ($1, $2, $3, $4, false, 20, 'PARTIAL', 'Returned', '{}', 'SUCCEEDED', true, 'refund', 'lost-answer-1', now())`,
      [refundId, paid.id, attemptId, merchantId],
    );
    assert.equal(await refunded(api, paid.id), '0.000');
    const retry = await refund(api, paid.id, { reason: 'Returned', refund_type: 'PARTIAL', amount: '20.000' }, { 'Idempotency-Key': 'lost-answer-1' });
    assert.deepEqual([retry.status, retry.body.refund_id, retry.body.refunded_amount], [200, refundId, '20.000']);
    assert.equal(await refunded(api, paid.id), '20.000');
  });

  it('when refund events arrive twice or out of order, then the session counts each refund once and never counts a failed one again', async () => {
    const { api } = await shop();
    const paid = await paidSession(api);
    const made = await refund(api, paid.id, { reason: 'Returned', refund_type: 'PARTIAL', amount: '5.000' });
    assert.equal(made.status, 200, made.text);
    const [template] = await events.waitFor<SessionEventData>('refund.created', (e) => e.data.session.refund?.refund_id === made.body.refund_id);
    assert.ok(template);
    const eventOf = (type: 'refund.created' | 'refund.updated', refundId: string, status: string): Envelope => ({
      ...template,
      id: newId('evt'),
      type,
      data: { ...template.data, session: { ...template.data.session, refund: { ...template.data.session.refund, refund_id: refundId, amount: '7.000', status } } },
    });
    const settle = async () => {
      await system.waitForQueueDrained(`${system.prefix}.session.events`);
      return refunded(api, paid.id);
    };

    await system.publishEvents([eventOf('refund.created', made.body.refund_id, 'succeeded')]);
    assert.equal(await settle(), '5.000', 'the refund recorded before its answer is not counted again');

    const late = newId('re');
    await system.publishEvents([eventOf('refund.updated', late, 'failed'), eventOf('refund.created', late, 'pending')]);
    assert.equal(await settle(), '5.000', 'a refund first seen failed never counts');

    const held = newId('re');
    await system.publishEvents([eventOf('refund.created', held, 'pending'), eventOf('refund.created', held, 'pending')]);
    assert.equal(await settle(), '12.000');
    await system.publishEvents([eventOf('refund.updated', held, 'failed'), eventOf('refund.created', held, 'pending')]);
    assert.equal(await settle(), '5.000');
  });
});
