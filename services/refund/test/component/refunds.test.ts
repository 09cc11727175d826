/**
 * Refunds through the gateway in a whole running system (D10, INTERFACE 4.5):
 * sessions paid on the hosted page with the sandbox's cards, then refunded;
 * what the acquirer saw is read back from the sandbox and the adapter.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { newId, type RefundResult, type SessionEventData } from '@gateway/contracts';
import { createPool } from '@gateway/db';
import { AppError } from '@gateway/problem';
import { metricValue, payOnPage, sessionRequest, TestSystem, type ApiClient, type EventCapture } from '@gateway/testkit';
import { RefundRepository } from '../../src/db/refund.repository.js';

type Problem = { type: string; status: number; detail: string; errors?: { field: string; code: string }[] };
type Detail = { id: string; status: string; checkout_url?: string; amount_refunded: string; attempts: { id: string }[] };

describe('Refunds', function () {
  this.timeout(180_000);
  let system: TestSystem;
  let events: EventCapture;

  before(async () => {
    // Seven services starting at once on a shared two-core machine can take longer than the default 20 s.
    system = await TestSystem.start({ readyTimeoutMs: 90_000 });
    events = await system.captureEvents(['refund.*', 'session.succeeded']);
  });
  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  async function shop(): Promise<ApiClient> {
    const merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    return system.api(merchant.testKey);
  }

  /** A session of `amount` paid with `card` on the hosted page, once SUCCEEDED. */
  async function paidSession(api: ApiClient, amount = '100.000', card = '4242424242424242'): Promise<Detail> {
    const created = await api.post<Detail>('/gateway/sessions/', sessionRequest({ amount }));
    assert.equal(created.status, 201, created.text);
    await payOnPage(created.body.checkout_url ?? '', { card_number: card });
    return until(api, created.body.id, (d) => d.status === 'SUCCEEDED');
  }

  async function until(api: ApiClient, id: string, test: (d: Detail) => boolean, timeoutMs = 10_000): Promise<Detail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await api.get<Detail>(`/gateway/sessions/${id}/`);
      if (test(res.body)) return res.body;
      if (Date.now() > deadline) throw new Error(`session ${id} not as expected: ${res.text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const refund = (api: ApiClient, id: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    api.post<RefundResult & Problem>(`/gateway/sessions/${id}/refund/`, body, headers);

  /** What the sandbox says was refunded of the session's payment, in TND, and whether it was reversed. */
  async function atAcquirer(attemptId: string): Promise<{ refunded: string; reversed: boolean; operations: number }> {
    const [order] = await system.db.query<{ order_number: string; amount: string }>('SELECT order_number, amount::text FROM acquirer.orders WHERE attempt_id = $1', [
      attemptId,
    ]);
    const state = await system.sandboxOrder(order?.order_number ?? '');
    const [ops] = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM acquirer.refund_operations WHERE attempt_id = $1', [attemptId]);
    // A reversal voids the whole payment; refunds add up in refundedAmount.
    const reversed = state.orderStatus === 3;
    const refunded = reversed ? (order?.amount ?? '') : ((state.paymentAmountInfo?.refundedAmount ?? 0) / 1000).toFixed(3);
    return { refunded, reversed, operations: ops?.n ?? 0 };
  }

  it('when a paid session is refunded in full, then the whole amount is reversed once, refund.created is announced and amount_refunded shows it; nothing is left after', async () => {
    const api = await shop();
    const paid = await paidSession(api);
    const res = await refund(api, paid.id, { reason: 'Customer returned the order' });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.refund_id, /^re_[0-9A-Za-z]{20,}$/);
    assert.deepEqual([res.body.refunded_amount, res.body.automated_refund, res.body.epg_error_message], ['100.000', true, undefined]);
    const [created] = await events.waitFor<SessionEventData>('refund.created', (e) => e.data.session.id === paid.id);
    const [stored] = await system.db.query<{ created_at: Date }>('SELECT created_at FROM refund.refunds WHERE id = $1', [res.body.refund_id]);
    assert.deepEqual(created?.data.session.refund, {
      refund_id: res.body.refund_id,
      amount: '100.000',
      automated_refund: true,
      reason: 'Customer returned the order',
      metadata: {},
      status: 'succeeded',
      // When the refund was made, as the refund service stored it: the day its balance transaction counts on (D21).
      created_at: stored?.created_at.toISOString(),
    });
    assert.equal(created?.data.session.status, 'SUCCEEDED');
    assert.equal((await api.get<Detail>(`/gateway/sessions/${paid.id}/`)).body.amount_refunded, '100.000', 'read right after the answer (D16)');
    assert.deepEqual(await atAcquirer(paid.attempts[0]?.id ?? ''), { refunded: '100.000', reversed: true, operations: 1 });

    for (const body of [{ reason: 'again' }, { reason: 'again', refund_type: 'PARTIAL', amount: '1.000' }]) {
      const again = await refund(api, paid.id, body);
      assert.equal(again.status, 422, again.text);
      assert.match(again.body.type, /\/errors\/invalid-state$/);
    }
  });

  it('when a paid session is refunded, then refund.created carries the session as the session service builds it: the payment block of session.succeeded, card_country as the session stores it', async () => {
    const api = await shop();
    const paid = await paidSession(api);
    const [succeeded] = await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === paid.id);
    assert.ok(succeeded?.data.session.payment, 'session.succeeded carries the payment');

    const first = await refund(api, paid.id, { reason: 'first part', refund_type: 'PARTIAL', amount: '10.000' });
    assert.equal(first.status, 200, first.text);
    const [created] = await events.waitFor<SessionEventData>('refund.created', (e) => e.data.session.refund?.refund_id === first.body.refund_id);
    const asRefunded = { ...created?.data.session };
    delete asRefunded.refund;
    assert.deepEqual(asRefunded, succeeded?.data.session, 'the same session payload, payment and paid_at included');

    // The session knows the card's country (the adapter tells it with the approval): the refund's event carries what the session stores.
    await system.db.query("UPDATE session.attempts SET card_country = 'TN' WHERE id = $1", [paid.attempts[0]?.id]);
    const second = await refund(api, paid.id, { reason: 'second part', refund_type: 'PARTIAL', amount: '10.000' });
    assert.equal(second.status, 200, second.text);
    const [again] = await events.waitFor<SessionEventData>('refund.created', (e) => e.data.session.refund?.refund_id === second.body.refund_id);
    assert.deepEqual(again?.data.session.payment, { ...succeeded?.data.session.payment, card_country: 'TN' });
  });

  it('when two partial refunds are followed by one over what is left, then the third is 422 amount_too_large and a FULL refunds the rest', async () => {
    const api = await shop();
    const paid = await paidSession(api);
    for (const amount of ['30.000', '50.000']) {
      const res = await refund(api, paid.id, { reason: 'Partly returned', refund_type: 'PARTIAL', amount });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.refunded_amount, amount);
    }
    const over = await refund(api, paid.id, { reason: 'Too much', refund_type: 'PARTIAL', amount: '20.001' });
    assert.equal(over.status, 422);
    assert.deepEqual(over.body.errors?.map((e) => [e.field, e.code]), [['amount', 'amount_too_large']]);
    const rest = await refund(api, paid.id, { reason: 'The rest' });
    assert.deepEqual([rest.status, rest.body.refunded_amount], [200, '20.000']);
    await until(api, paid.id, (d) => d.amount_refunded === '100.000');
    assert.deepEqual(await atAcquirer(paid.attempts[0]?.id ?? ''), { refunded: '100.000', reversed: false, operations: 3 });
  });

  it('when the session is not SUCCEEDED, not the caller’s, or the request is bad, then the answers are D10’s and nothing is refunded', async () => {
    const api = await shop();
    const open = await api.post<Detail>('/gateway/sessions/', sessionRequest());
    const notPaid = await refund(api, open.body.id, { reason: 'x' });
    assert.equal(notPaid.status, 422);
    assert.match(notPaid.body.type, /\/errors\/invalid-state$/);
    const stranger = await shop();
    assert.equal((await refund(stranger, open.body.id, { reason: 'x' })).status, 404);
    assert.equal((await refund(api, 'ps_doesnotexist00000000000000', { reason: 'x' })).status, 404);

    const paid = await paidSession(api);
    for (const [body, expected] of [
      [{}, [['reason', 'required']]],
      [{ reason: '' }, [['reason', 'invalid']]],
      [{ reason: 'x', refund_type: 'PARTIAL' }, [['amount', 'required']]],
      [{ reason: 'x', refund_type: 'PARTIAL', amount: '10.5' }, [['amount', 'invalid_precision']]],
      [{ reason: 'x', refund_type: 'PARTIAL', amount: 10 }, [['amount', 'invalid_type']]],
      [{ reason: 'x', refund_type: 'HALF' }, [['refund_type', 'invalid']]],
      [{ reason: 'x', extra: 1 }, [['extra', 'invalid']]],
    ] as const) {
      const res = await refund(api, paid.id, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.deepEqual(res.body.errors?.map((e) => [e.field, e.code]), expected, JSON.stringify(body));
    }
    const [held] = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refund.refunds WHERE session_id = $1', [paid.id]);
    assert.equal(held?.n, 0);
  });

  it('when 20 partial refunds that together exceed the payment arrive at once, then what is accepted never exceeds it and the acquirer saw one operation per accepted refund', async () => {
    const api = await shop();
    const paid = await paidSession(api);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(api, paid.id, { reason: 'Split', refund_type: 'PARTIAL', amount: '12.000' })));
    const accepted = answers.filter((a) => a.status === 200);
    assert.ok(answers.every((a) => a.status === 200 || a.status === 422), answers.map((a) => a.status).join());
    assert.equal(accepted.length, 8, '8 × 12.000 fit in 100.000, a ninth does not');
    const acquirer = await atAcquirer(paid.attempts[0]?.id ?? '');
    assert.deepEqual(acquirer, { refunded: '96.000', reversed: false, operations: 8 });
  });

  it('when first refunds of one session record its captured payment at once, then one record stands and none of them fails', async () => {
    const pool = createPool({ url: system.db.urlFor('refund'), schema: 'refund', max: 8 });
    try {
      const refunds = new RefundRepository(pool);
      const payment = { attemptId: `pa_race${Date.now()}`, sessionId: `ps_race${Date.now()}`, merchantId: 'mer_race', livemode: false, captured: '100.000' };
      for (let round = 0; round < 5; round += 1) {
        const racing = { ...payment, attemptId: `${payment.attemptId}_${round}`, sessionId: `${payment.sessionId}_${round}` };
        await Promise.all(Array.from({ length: 8 }, () => refunds.recordPayment(racing)));
      }
      const rows = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refund.payments WHERE merchant_id = $1', ['mer_race']);
      assert.equal(rows[0]?.n, 5);
    } finally {
      await pool.end();
    }
  });

  it('when the refund command is delivered twice (its replica died before answering), then one refund is made and the acquirer sees one operation', async () => {
    const merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    const api = system.api(merchant.testKey);
    const paid = await paidSession(api);
    const command = {
      id: newId('cmd'),
      type: 'refund.create',
      version: 1,
      occurred_at: new Date().toISOString(),
      correlation_id: 'refund-delivered-twice',
      data: {
        context: { merchant_id: merchant.merchantId, livemode: false, order_prefix: 'T', merchant_name: 'Shop', request_id: 'refund-delivered-twice' },
        session_id: paid.id,
        body: { reason: 'Returned', refund_type: 'PARTIAL', amount: '10.000' },
      },
    };
    await system.deliverCommand('refund', command, 2);
    await until(api, paid.id, (d) => d.amount_refunded === '10.000');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal((await system.db.query('SELECT 1 FROM refund.refunds WHERE session_id = $1', [paid.id])).length, 1);
    assert.deepEqual(await atAcquirer(paid.attempts[0]?.id ?? ''), { refunded: '10.000', reversed: false, operations: 1 });
  });

  it('when an operator resolves a refund its replica left PENDING, then failed gives the amount back without touching amount_refunded, and succeeded announces it (refund.created, then refund.updated)', async () => {
    const api = await shop();
    const paid = await paidSession(api);
    const attemptId = paid.attempts[0]?.id ?? '';
    const [owner] = await system.db.query<{ merchant_id: string }>('SELECT merchant_id FROM session.sessions WHERE id = $1', [paid.id]);
    /** A refund reserved by a replica that died before the acquirer answered. */
    const leftPending = async (amount: string): Promise<string> => {
      const id = newId('re');
      await system.db.query(
        `INSERT INTO refund.payments (attempt_id, session_id, merchant_id, livemode, captured) VALUES ($1, $2, $3, false, 100) ON CONFLICT DO NOTHING`,
        [attemptId, paid.id, owner?.merchant_id],
      );
      await system.db.query(`UPDATE refund.payments SET held = held + $2::numeric WHERE attempt_id = $1`, [attemptId, amount]);
      await system.db.query(
        `INSERT INTO refund.refunds (id, session_id, attempt_id, merchant_id, livemode, amount, refund_type, reason, metadata, status, created_at)
         VALUES ($1, $2, $3, $4, false, $5::numeric, 'PARTIAL', 'Left pending', '{}', 'PENDING', now() - interval '1 hour')`,
        [id, paid.id, attemptId, owner?.merchant_id, amount],
      );
      return id;
    };

    const failed = await leftPending('30.000');
    assert.deepEqual(await system.admin(['refund', 'resolve', failed, '--as', 'failed']), { refund_id: failed, status: 'FAILED' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal((await until(api, paid.id, () => true)).amount_refunded, '0.000', 'the session never counted it');

    const succeeded = await leftPending('30.000');
    assert.deepEqual(await system.admin(['refund', 'resolve', succeeded, '--as', 'succeeded']), { refund_id: succeeded, status: 'SUCCEEDED' });
    const [announced] = await events.waitFor<SessionEventData>('refund.created', (e) => e.data.session.refund?.refund_id === succeeded);
    assert.deepEqual([announced?.data.session.refund?.amount, announced?.data.session.refund?.automated_refund], ['30.000', false]);
    const [updated] = await events.waitFor<SessionEventData>('refund.updated', (e) => e.data.session.refund?.refund_id === succeeded);
    assert.equal(updated?.data.session.refund?.status, 'succeeded');
    const [failedUpdate] = await events.waitFor<SessionEventData>('refund.updated', (e) => e.data.session.refund?.refund_id === failed);
    assert.equal(failedUpdate?.data.session.refund?.status, 'failed');
    assert.equal((await api.get<Detail>(`/gateway/sessions/${paid.id}/`)).body.amount_refunded, '30.000');
    const rest = await refund(api, paid.id, { reason: 'The rest' });
    assert.deepEqual([rest.status, rest.body.refunded_amount], [200, '70.000']);
  });

  it('when a merchant refunds faster than its refund budget, then the extra calls are 429 with Retry-After (test mode: 2 a second)', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000 } });
    const api = system.api(merchant.testKey);
    const answers = await Promise.all(Array.from({ length: 4 }, () => refund(api, 'ps_doesnotexist00000000000000', { reason: 'x' })));
    const limited = answers.filter((a) => a.status === 429);
    assert.ok(limited.length >= 2, answers.map((a) => a.status).join());
    assert.ok(limited.every((a) => Number(a.headers.get('retry-after')) >= 1));
    assert.ok(answers.filter((a) => a.status !== 429).every((a) => a.status === 404));
  });

  it('when one Idempotency-Key is sent twice, then one refund is made and the same answer comes back; with another body, 422', async () => {
    const api = await shop();
    const paid = await paidSession(api);
    const key = `refund-${paid.id}`;
    const body = { reason: 'Once only', refund_type: 'PARTIAL', amount: '10.000' };
    const first = await refund(api, paid.id, body, { 'Idempotency-Key': key });
    const second = await refund(api, paid.id, body, { 'Idempotency-Key': key });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual([second.status, second.text], [first.status, first.text]);
    const other = await refund(api, paid.id, { ...body, amount: '11.000' }, { 'Idempotency-Key': key });
    assert.equal(other.status, 422);
    assert.match(other.body.type, /\/errors\/idempotency-key-reused$/);
    const [made] = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refund.refunds WHERE session_id = $1', [paid.id]);
    assert.equal(made?.n, 1);
  });

  it('when a refund is asked again with its Idempotency-Key after the first answer was lost, then the refund service answers the same refund, not a second one', async () => {
    const merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    const api = system.api(merchant.testKey);
    const paid = await paidSession(api);
    const other = await paidSession(api);
    // As the gateway sends it; sent straight to the service, as a retry after a lost answer would reach it.
    const context = { merchant_id: merchant.merchantId, livemode: false, order_prefix: 'TS', merchant_name: 'Test Shop', request_id: 'retry-1', idempotency_key: 'refund-42' };
    const body = { reason: 'Once', refund_type: 'PARTIAL', amount: '10.000' };
    const first = await system.send<RefundResult>('refund.create', { context, session_id: paid.id, body });
    const again = await system.send<RefundResult>('refund.create', { context: { ...context, request_id: 'retry-2' }, session_id: paid.id, body });
    assert.deepEqual(again, first);
    await assert.rejects(
      system.send('refund.create', { context, session_id: other.id, body }),
      (err: unknown) => err instanceof AppError && err.code === 'idempotency-key-reused',
    );
    assert.deepEqual(await atAcquirer(paid.attempts[0]?.id ?? ''), { refunded: '10.000', reversed: false, operations: 1 });
  });

  it('when the acquirer cannot confirm a refund (card 5126), then it is accepted unautomated, queued for operators, and resolving it failed makes the amount refundable again', async () => {
    const api = await shop();
    const paid = await paidSession(api, '40.000', '4000000000005126');
    const res = await refund(api, paid.id, { reason: 'Damaged', refund_type: 'PARTIAL', amount: '15.000' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.automated_refund, false);
    assert.ok(res.body.epg_error_message && res.body.epg_error_message.length > 0);
    const [announced] = await events.waitFor<SessionEventData>('refund.created', (e) => e.data.session.id === paid.id);
    assert.equal(announced?.data.session.refund?.automated_refund, false);
    assert.equal((await api.get<Detail>(`/gateway/sessions/${paid.id}/`)).body.amount_refunded, '15.000', 'held as refunded, read right after the answer');

    const queue = (await system.admin(['refund', 'list-manual'])) as { data: { refund_id: string; amount: string; epg_error_message: string }[] };
    const listed = queue.data.find((r) => r.refund_id === res.body.refund_id);
    assert.deepEqual([listed?.amount, listed?.epg_error_message], ['15.000', res.body.epg_error_message]);
    // Held as refunded meanwhile: only 25.000 is left.
    assert.equal((await refund(api, paid.id, { reason: 'x', refund_type: 'PARTIAL', amount: '25.001' })).status, 422);

    assert.deepEqual(await system.admin(['refund', 'resolve', res.body.refund_id, '--as', 'failed']), { refund_id: res.body.refund_id, status: 'FAILED' });
    assert.equal((await api.get<Detail>(`/gateway/sessions/${paid.id}/`)).body.amount_refunded, '0.000', 'read right after the resolution');
    const queueAfter = (await system.admin(['refund', 'list-manual'])) as { data: { refund_id: string }[] };
    assert.ok(!queueAfter.data.some((r) => r.refund_id === res.body.refund_id));
    await assert.rejects(system.admin(['refund', 'resolve', res.body.refund_id, '--as', 'succeeded']), (err: unknown) => err instanceof AppError && err.code === 'conflict');
    const again = await refund(api, paid.id, { reason: 'Second try' });
    assert.deepEqual([again.status, again.body.refunded_amount, again.body.automated_refund], [200, '40.000', false]);
    assert.deepEqual(await system.admin(['refund', 'resolve', again.body.refund_id, '--as', 'succeeded']), { refund_id: again.body.refund_id, status: 'SUCCEEDED' });
  });

  it('when a refund waits for an operator, then gateway_refunds_awaiting_operator counts it and its age shows, until an operator resolves it', async () => {
    const waiting = async () => {
      const text = await system.metricsOf('refund');
      return { refunds: metricValue(text, 'gateway_refunds_awaiting_operator', []), oldest: metricValue(text, 'gateway_refunds_awaiting_operator_oldest_age_seconds', []) };
    };
    const before = await waiting();
    assert.equal(typeof before.refunds, 'number', 'no gateway_refunds_awaiting_operator on /metrics');
    const api = await shop();
    const paid = await paidSession(api, '40.000', '4000000000005126');
    const held = await refund(api, paid.id, { reason: 'Damaged', refund_type: 'PARTIAL', amount: '15.000' });
    assert.equal(held.body.automated_refund, false);
    // Scrapes within a second share one reading: the next one reads the queue again.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const during = await waiting();
    assert.equal(during.refunds, (before.refunds ?? 0) + 1);
    assert.ok((during.oldest ?? 0) > 0, `oldest age ${during.oldest}`);
    await system.admin(['refund', 'resolve', held.body.refund_id, '--as', 'succeeded']);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.equal((await waiting()).refunds, before.refunds);
  });

  it('when refunds are made, then the refund service counts them by mode and outcome, and the adapter times each acquirer call by call and outcome, naming no session or order', async () => {
    const scrape = async () => ({ refund: await system.metricsOf('refund'), adapter: await system.metricsOf('acquirer-adapter') });
    const before = await scrape();
    const api = await shop();
    const paid = await paidSession(api);
    assert.equal((await refund(api, paid.id, { reason: 'Returned' })).status, 200);
    const unconfirmable = await paidSession(api, '40.000', '4000000000005126');
    const held = await refund(api, unconfirmable.id, { reason: 'Damaged', refund_type: 'PARTIAL', amount: '15.000' });
    assert.equal(held.body.automated_refund, false);
    const after = await scrape();

    const grew = (which: 'refund' | 'adapter', family: string, labels: string[]) =>
      (metricValue(after[which], family, labels) ?? 0) - (metricValue(before[which], family, labels) ?? 0);
    assert.equal(grew('refund', 'gateway_refunds_total', ['mode="test"', 'outcome="automated"']), 1);
    assert.equal(grew('refund', 'gateway_refunds_total', ['mode="test"', 'outcome="manual"']), 1);
    assert.equal(grew('adapter', 'gateway_acquirer_call_duration_seconds_count', ['call="register.do"', 'outcome="ok"']), 2);
    assert.equal(grew('adapter', 'gateway_acquirer_call_duration_seconds_count', ['call="paymentorder.do"', 'outcome="ok"']), 2);
    assert.equal(grew('adapter', 'gateway_acquirer_call_duration_seconds_count', ['call="reverse.do"', 'outcome="ok"']), 1);
    assert.equal(grew('adapter', 'gateway_acquirer_call_duration_seconds_count', ['call="refund.do"']), 1, 'the unconfirmable refund, whatever its outcome');
    for (const text of [after.refund, after.adapter]) for (const id of [paid.id, unconfirmable.id, paid.attempts[0]?.id ?? '-']) assert.ok(!text.includes(id));
  });

  it('property: random sequences of full, partial and concurrent refunds never accept more than was captured, with one acquirer operation per accepted refund', async () => {
    const api = await shop();
    const step = fc.array(
      fc.oneof(fc.constant<string | undefined>(undefined), fc.integer({ min: 1, max: 60_000 }).map((millimes) => (millimes / 1000).toFixed(3))),
      { minLength: 1, maxLength: 4 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        const paid = await paidSession(api);
        let accepted = 0;
        let acceptedCount = 0;
        for (const batch of steps) {
          const answers = await Promise.all(
            batch.map((amount) => refund(api, paid.id, amount === undefined ? { reason: 'All' } : { reason: 'Some', refund_type: 'PARTIAL', amount })),
          );
          for (const answer of answers) {
            if (answer.status === 200) {
              accepted += Number(answer.body.refunded_amount) * 1000;
              acceptedCount += 1;
            } else if (answer.status !== 422) {
              return false;
            }
          }
        }
        const acquirer = await atAcquirer(paid.attempts[0]?.id ?? '');
        return Math.round(accepted) <= 100_000 && acquirer.operations === acceptedCount && Math.round(Number(acquirer.refunded) * 1000) === Math.round(accepted);
      }),
      { numRuns: 8 },
    );
  });
});
