/**
 * Authorize now, capture later (D22) against the real services, the sandbox
 * acquirer, PostgreSQL and RabbitMQ: a manual session's payment is held
 * (AUTHORIZED, session.authorized), captured in full or in part once
 * (session.succeeded with the fee on the captured amount), voided by cancel
 * or by the lapse sweep; refunds stop at the captured amount; every bad
 * request, race and acquirer failure has D22's answer and nothing is captured
 * twice.
 */
import assert from 'node:assert/strict';
import { newId, type Envelope, type SessionEventData } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import { payOnPage, pollUntil, sessionRequest, TestSystem, type EventCapture, type Merchant } from '@gateway/testkit';

type Detail = {
  id: string;
  status: string;
  amount: string;
  order_number: string;
  checkout_url: string;
  capture_method: string;
  amount_authorized: string;
  amount_captured: string;
  amount_refunded: string;
  attempts: { id: string; status: string; fee_amount: string; net_amount: string }[];
};
type Problem = { type: string; status: number; detail: string; errors?: { field: string; code: string }[] };

const HELD = '4242424242424242';
const CAPTURE_REFUSED = '4000000000007007';
const CAPTURE_UNCONFIRMED = '4000000000007015';
const CAPTURE_ANSWERED_LATE = '4000000000007023';

describe('Authorize now, capture later (D22)', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let events: EventCapture;
  let merchant: Merchant;

  before(async () => {
    system = await TestSystem.start({
      serviceEnv: {
        session: { SWEEP_INTERVAL_SECONDS: '1' },
        // A deposit answered after 3 s is no answer; reconciliation looks 5 s after a capture or release started.
        'acquirer-adapter': { ACQUIRER_TIMEOUT_MS: '1500', RECONCILE_AFTER_SECONDS: '5', RECONCILE_MAX_DELAY_SECONDS: '1', SWEEP_INTERVAL_SECONDS: '1' },
        'epg-sandbox': { SANDBOX_SLOW_DELAY_MS: '3000' },
      },
    });
    events = await system.captureEvents(['session.*']);
    merchant = await system.newMerchant({ limits: { refund: 50, account: 200, create: 200 } });
  });
  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  const api = () => system.api(merchant.testKey);
  const ofSession = (id: string) => (e: Envelope<SessionEventData>) => e.data.session.id === id;
  const capture = (id: string, body?: unknown, key?: string) =>
    api().post<Detail & Problem>(`/gateway/sessions/${id}/capture/`, body, key === undefined ? {} : { 'idempotency-key': key });
  const read = async (id: string) => (await api().get<Detail>(`/gateway/sessions/${id}/`)).body;
  const acquirerOrder = (session: Detail) => system.sandboxOrder(`${merchant.merchantId.slice(-8)}-${session.order_number}-1`);

  /** A manual session of `amount`, paid on the hosted page with `card`: AUTHORIZED. */
  async function held(card = HELD, amount = '125.500'): Promise<Detail> {
    const created = await api().post<Detail>('/gateway/sessions/', sessionRequest({ amount, capture_method: 'manual' }));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.capture_method, 'manual');
    const paid = await payOnPage(created.body.checkout_url, { card_number: card });
    assert.ok(paid.status < 400, `the buyer's payment page answered ${paid.status}`);
    await pollUntil(async () => (await read(created.body.id)).status === 'AUTHORIZED', 10_000, 'the session to be AUTHORIZED');
    return read(created.body.id);
  }

  it('when a manual session is paid, then it is AUTHORIZED with amount_authorized, announced as session.authorized without a fee, and the acquirer holds the amount', async () => {
    const session = await held();
    assert.deepEqual([session.status, session.amount_authorized, session.amount_captured], ['AUTHORIZED', '125.500', '']);
    assert.deepEqual(
      session.attempts.map((a) => [a.status, a.fee_amount, a.net_amount]),
      [['SUCCEEDED', '', '']],
    );
    const [authorized] = await events.waitFor<SessionEventData>('session.authorized', ofSession(session.id), 1, 10_000);
    const payload = authorized?.data.session;
    assert.equal(payload?.status, 'AUTHORIZED');
    assert.equal(payload?.amount_authorized, '125.500');
    assert.equal(payload?.capture_method, 'manual');
    assert.ok(payload?.authorized_at);
    assert.equal(payload?.paid_at, undefined);
    assert.deepEqual(Object.keys(payload?.payment ?? {}).sort(), ['card_brand', 'card_country', 'card_last_four', 'method']);
    assert.equal(events.of('session.succeeded', ofSession(session.id)).length, 0);
    const order = await acquirerOrder(session);
    assert.deepEqual([order.orderStatus, order.paymentAmountInfo?.approvedAmount, order.paymentAmountInfo?.depositedAmount], [1, 125500, 0]);
  });

  it('when the whole hold is captured with no body, then the session is SUCCEEDED with amount_captured, the fee is on the captured amount, and a second capture is 409 session-terminal', async () => {
    const session = await held();
    const captured = await capture(session.id);
    assert.equal(captured.status, 200, captured.text);
    assert.deepEqual([captured.body.status, captured.body.amount_authorized, captured.body.amount_captured], ['SUCCEEDED', '125.500', '125.500']);
    const [succeeded] = await events.waitFor<SessionEventData>('session.succeeded', ofSession(session.id));
    assert.equal(succeeded?.data.session.amount_captured, '125.500');
    assert.ok(succeeded?.data.session.payment?.fee_amount, 'the fee is announced once captured');
    assert.equal(captured.body.attempts[0]?.fee_amount, succeeded?.data.session.payment?.fee_amount);
    const again = await capture(session.id, { amount: '1.000' });
    assert.equal(again.status, 409, again.text);
    assert.match(again.body.type, /session-terminal$/);
    const order = await acquirerOrder(session);
    assert.deepEqual([order.orderStatus, order.paymentAmountInfo?.depositedAmount], [2, 125500]);
  });

  it('when part of the hold is captured, then only that is taken, the fee is on it, and refunds stop at the captured amount', async () => {
    const session = await held();
    const captured = await capture(session.id, { amount: '40.000' });
    assert.equal(captured.status, 200, captured.text);
    assert.deepEqual([captured.body.status, captured.body.amount_captured], ['SUCCEEDED', '40.000']);
    const [succeeded] = await events.waitFor<SessionEventData>('session.succeeded', ofSession(session.id));
    const payment = succeeded?.data.session.payment;
    // The fee and the net add up to what was captured, not to what was held.
    assert.equal((Number(payment?.fee_amount) * 1000 + Number(payment?.net_amount) * 1000).toFixed(0), '40000');
    const order = await acquirerOrder(session);
    assert.deepEqual([order.orderStatus, order.paymentAmountInfo?.depositedAmount], [2, 40000]);

    const tooMuch = await api().post<Problem>(`/gateway/sessions/${session.id}/refund/`, { reason: 'too much', refund_type: 'PARTIAL', amount: '40.001' });
    assert.equal(tooMuch.status, 422, tooMuch.text);
    assert.deepEqual(tooMuch.body.errors?.map((e) => [e.field, e.code]), [['amount', 'amount_too_large']]);
    const full = await api().post<{ refunded_amount: string; automated_refund: boolean }>(`/gateway/sessions/${session.id}/refund/`, { reason: 'returned' });
    assert.equal(full.status, 200, full.text);
    assert.deepEqual([full.body.refunded_amount, full.body.automated_refund], ['40.000', true]);
    assert.equal((await read(session.id)).amount_refunded, '40.000');
  });

  it('when a capture asks for more than the hold, the wrong precision, zero, a negative or a number, then 422 validation-error names it and nothing is captured', async () => {
    const session = await held();
    const cases: [unknown, string][] = [
      [{ amount: '125.501' }, 'amount_too_large'],
      [{ amount: '10.5' }, 'invalid_precision'],
      [{ amount: '0.000' }, 'invalid_value'],
      [{ amount: '-1.000' }, 'invalid_value'],
      [{ amount: '1,000.000' }, 'invalid_format'],
      [{ amount: 10 }, 'invalid_type'],
    ];
    for (const [body, code] of cases) {
      const refused = await capture(session.id, body);
      assert.equal(refused.status, 422, `${JSON.stringify(body)}: ${refused.text}`);
      assert.match(refused.body.type, /validation-error$/);
      assert.deepEqual(refused.body.errors?.map((e) => [e.field, e.code]), [['amount', code]], JSON.stringify(body));
    }
    const unknownField = await capture(session.id, { amount: '1.000', currency: 'EUR' });
    assert.equal(unknownField.status, 422, unknownField.text);
    assert.deepEqual(unknownField.body.errors?.map((e) => e.field), ['currency']);
    const after = await read(session.id);
    assert.deepEqual([after.status, after.amount_captured], ['AUTHORIZED', '']);
    assert.equal((await acquirerOrder(session)).orderStatus, 1);
  });

  it('when the session is CREATED, automatic and SUCCEEDED, canceled, or not the caller\'s, then capture answers 422 invalid-state, 409 session-terminal or 404 and changes nothing', async () => {
    const created = await api().post<Detail>('/gateway/sessions/', sessionRequest({ capture_method: 'manual' }));
    const early = await capture(created.body.id);
    assert.equal(early.status, 422, early.text);
    assert.match(early.body.type, /invalid-state$/);
    assert.equal((await read(created.body.id)).status, 'CREATED');

    const automatic = await api().post<Detail>('/gateway/sessions/', sessionRequest());
    assert.equal(automatic.body.capture_method, 'automatic');
    await payOnPage(automatic.body.checkout_url, { card_number: HELD });
    await pollUntil(async () => (await read(automatic.body.id)).status === 'SUCCEEDED', 10_000, 'the automatic session to succeed');
    const paid = await read(automatic.body.id);
    assert.deepEqual([paid.amount_authorized, paid.amount_captured], [paid.amount, paid.amount]);
    const late = await capture(automatic.body.id);
    assert.equal(late.status, 409, late.text);
    assert.match(late.body.type, /session-terminal$/);

    const canceled = await api().post<Detail>(`/gateway/sessions/${created.body.id}/cancel/`);
    assert.equal(canceled.body.status, 'CANCELED');
    assert.equal((await capture(created.body.id)).status, 409);

    const other = await system.newMerchant();
    const foreign = await system.api(other.testKey).post<Problem>(`/gateway/sessions/${paid.id}/capture/`);
    assert.equal(foreign.status, 404, foreign.text);
  });

  it('when two captures of one hold race, then exactly one captures and the other is 409; the acquirer deposited once', async () => {
    const session = await held();
    const answers = await Promise.all([capture(session.id, { amount: '100.000' }), capture(session.id, { amount: '50.000' })]);
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 409], answers.map((a) => a.text).join('\n'));
    const winner = answers.find((a) => a.status === 200);
    const after = await read(session.id);
    assert.deepEqual([after.status, after.amount_captured], ['SUCCEEDED', winner?.body.amount_captured]);
    const order = await acquirerOrder(session);
    assert.equal(order.paymentAmountInfo?.depositedAmount, Number(after.amount_captured.replace('.', '')));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(events.of('session.succeeded', ofSession(session.id)).length, 1);
  });

  it('when a capture is retried with its Idempotency-Key, then the first answer is replayed and nothing is captured again', async () => {
    const session = await held();
    const first = await capture(session.id, { amount: '20.000' }, 'capture-retry-1');
    assert.equal(first.status, 200, first.text);
    const retry = await capture(session.id, { amount: '20.000' }, 'capture-retry-1');
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(retry.body.amount_captured, '20.000');
  });

  it('when an AUTHORIZED session is canceled, then it is CANCELED, announced, and the acquirer releases the hold; a capture after it is 409', async () => {
    const session = await held();
    const canceled = await api().post<Detail>(`/gateway/sessions/${session.id}/cancel/`);
    assert.equal(canceled.status, 200, canceled.text);
    assert.equal(canceled.body.status, 'CANCELED');
    const [announced] = await events.waitFor<SessionEventData>('session.canceled', ofSession(session.id));
    // Nothing was taken: no paid_at, and the card without a fee or a net.
    assert.equal(announced?.data.session.paid_at, undefined);
    assert.deepEqual(Object.keys(announced?.data.session.payment ?? {}).sort(), ['card_brand', 'card_country', 'card_last_four', 'method']);
    assert.equal(announced?.data.session.amount_authorized, '125.500');
    await pollUntil(async () => (await acquirerOrder(session)).orderStatus === 3, 10_000, 'the hold to be released (orderStatus 3)');
    const late = await capture(session.id);
    assert.equal(late.status, 409, late.text);
    assert.match(late.body.type, /session-terminal$/);
  });

  it('when a cancel races a capture, then exactly one of them happens, and the acquirer either deposited or released, never both', async () => {
    for (let round = 0; round < 3; round += 1) {
      const session = await held();
      const [captured, canceled] = await Promise.all([capture(session.id), api().post<Detail>(`/gateway/sessions/${session.id}/cancel/`)]);
      assert.deepEqual([captured.status, canceled.status].sort(), [200, 409], `${captured.text}\n${canceled.text}`);
      const final = (await read(session.id)).status;
      assert.equal(final, captured.status === 200 ? 'SUCCEEDED' : 'CANCELED');
      const expected = final === 'SUCCEEDED' ? 2 : 3;
      await pollUntil(async () => (await acquirerOrder(session)).orderStatus === expected, 10_000, `acquirer order status ${expected}`);
    }
  });

  it('when a hold outlives AUTHORIZATION_TTL_SECONDS, then the sweep makes it EXPIRED with session.expired and releases it, unless a capture is under way', async () => {
    const lapsing = await held();
    const capturing = await held();
    const hold = (await system.db.query<{ authorized_at: Date; hold_expires_at: Date }>(`SELECT authorized_at, hold_expires_at FROM session.sessions WHERE id = $1`, [lapsing.id]))[0];
    assert.equal((hold?.hold_expires_at.getTime() ?? 0) - (hold?.authorized_at.getTime() ?? 0), 604_800_000, 'a hold lapses AUTHORIZATION_TTL_SECONDS (default 7 days) after it was held');
    // Held eight days ago: past the seven-day default.
    await system.db.query(`UPDATE session.sessions SET authorized_at = now() - interval '8 days', hold_expires_at = now() - interval '1 day' WHERE id = ANY($1::text[])`, [
      [lapsing.id, capturing.id],
    ]);
    await system.db.query(`UPDATE session.sessions SET capturing_amount = 1.000, capture_id = $2 WHERE id = $1`, [capturing.id, newId('cap')]);
    const [expired] = await events.waitFor<SessionEventData>('session.expired', ofSession(lapsing.id), 1, 10_000);
    assert.equal(expired?.data.session.status, 'EXPIRED');
    assert.equal(expired?.data.session.paid_at, undefined, 'a lapsed hold took nothing');
    assert.equal(expired?.data.session.payment?.fee_amount, undefined);
    await pollUntil(async () => (await acquirerOrder(lapsing)).orderStatus === 3, 10_000, 'the lapsed hold to be released');
    assert.equal((await read(capturing.id)).status, 'AUTHORIZED', 'a hold being captured is not swept');
  });

  it('when the acquirer refuses the capture, then 422 capture-failed, the session stays AUTHORIZED and can still be voided', async () => {
    const session = await held(CAPTURE_REFUSED);
    const refused = await capture(session.id);
    assert.equal(refused.status, 422, refused.text);
    assert.match(refused.body.type, /capture-failed$/);
    assert.equal((await read(session.id)).status, 'AUTHORIZED');
    const canceled = await api().post<Detail>(`/gateway/sessions/${session.id}/cancel/`);
    assert.equal(canceled.status, 200, canceled.text);
    await pollUntil(async () => (await acquirerOrder(session)).orderStatus === 3, 10_000, 'the hold to be released');
  });

  it('when the acquirer answers the capture with errorCode 7, then 502 processor-unavailable, and reconciliation finds nothing deposited and frees the hold again', async () => {
    const session = await held(CAPTURE_UNCONFIRMED);
    const unknown = await capture(session.id);
    assert.equal(unknown.status, 502, unknown.text);
    assert.match(unknown.body.type, /processor-unavailable$/);
    const meanwhile = await api().post<Problem>(`/gateway/sessions/${session.id}/cancel/`);
    assert.equal(meanwhile.status, 409, 'a cancel waits while the capture is unknown');
    const backlog = /gateway_reconciliation_unresolved_orders\{[^}]*status="CAPTURING"[^}]*\} ([0-9]+)/.exec(await system.metricsOf('acquirer-adapter'));
    assert.ok(Number(backlog?.[1]) >= 1, 'the unknown capture is in the reconciliation backlog on /metrics');
    await pollUntil(async () => (await system.db.query(`SELECT 1 FROM session.sessions WHERE id = $1 AND capturing_amount IS NULL`, [session.id])).length === 1, 20_000, 'the capture to be found not done');
    const after = await read(session.id);
    assert.deepEqual([after.status, after.amount_captured], ['AUTHORIZED', '']);
    assert.equal((await acquirerOrder(session)).orderStatus, 1);
    assert.equal(events.of('session.succeeded', ofSession(session.id)).length, 0);
    const canceled = await api().post<Detail>(`/gateway/sessions/${session.id}/cancel/`);
    assert.equal(canceled.status, 200, canceled.text);
  });

  it('when the capture\'s answer never comes, then 502, the session stays AUTHORIZED, and reconciliation settles it SUCCEEDED once', async () => {
    const session = await held(CAPTURE_ANSWERED_LATE);
    const lost = await capture(session.id, { amount: '60.000' }, 'lost-answer-1');
    assert.equal(lost.status, 502, lost.text);
    assert.equal((await read(session.id)).status, 'AUTHORIZED');
    const [succeeded] = await events.waitFor<SessionEventData>('session.succeeded', ofSession(session.id), 1, 20_000);
    assert.equal(succeeded?.data.session.amount_captured, '60.000');
    const after = await read(session.id);
    assert.deepEqual([after.status, after.amount_captured], ['SUCCEEDED', '60.000']);
    // The merchant's retry with the same key gets the session the capture ended in.
    const retry = await capture(session.id, { amount: '60.000' }, 'lost-answer-1');
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.amount_captured, '60.000');
    // The same key with another amount is another request (D10), not that capture's answer.
    const reused = await capture(session.id, { amount: '10.000' }, 'lost-answer-1');
    assert.equal(reused.status, 422, reused.text);
    assert.match(reused.body.type, /idempotency-key-reused$/);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(events.of('session.succeeded', ofSession(session.id)).length, 1);
    assert.equal((await acquirerOrder(session)).paymentAmountInfo?.depositedAmount, 60000);
  });

  it('when the replica that claimed a capture died before asking the adapter, then the stuck-capture check sends it and the session is SUCCEEDED once', async () => {
    const session = await held();
    // As the claim leaves it (capture_session's first step), with its first check already due.
    await system.db.query(`UPDATE session.sessions SET capturing_amount = 30.000, capture_id = $2, capture_next_check_at = now() WHERE id = $1`, [session.id, newId('cap')]);
    const [succeeded] = await events.waitFor<SessionEventData>('session.succeeded', ofSession(session.id), 1, 10_000);
    assert.equal(succeeded?.data.session.amount_captured, '30.000');
    const after = await read(session.id);
    assert.deepEqual([after.status, after.amount_captured], ['SUCCEEDED', '30.000']);
    assert.equal((await acquirerOrder(session)).paymentAmountInfo?.depositedAmount, 30000);
    // Recorded once, by the check's answer or by the adapter's payment.captured, whichever came first.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(events.of('session.succeeded', ofSession(session.id)).length, 1);
  });

  it('when a capture has ended without capturing, then its id never deposits again, and its late capture_failed does not release a later claim', async () => {
    const session = await held(CAPTURE_REFUSED);
    const refused = await capture(session.id);
    assert.equal(refused.status, 422, refused.text);
    const ended = (await system.db.query<{ capture_id: string }>(`SELECT capture_id FROM acquirer.orders WHERE session_id = $1`, [session.id]))[0]?.capture_id;
    assert.match(ended ?? '', /^cap_/);
    const attemptId = session.attempts[0]?.id ?? '';
    // The same capture sent again (a late or repeated command): refused at the adapter without a deposit.
    const command = (captureId: string) => ({ capture_id: captureId, attempt_id: attemptId, session_id: session.id, merchant_id: merchant.merchantId, livemode: false, amount: '1.000' });
    const repeated = await system.send<{ outcome: string; message: string }>('payment.capture', command(ended ?? ''));
    assert.equal(repeated.outcome, 'refused');
    assert.equal(repeated.message, 'This capture ended without capturing; the hold stands.', 'answered by the adapter, not by the acquirer again');
    assert.equal((await acquirerOrder(session)).orderStatus, 1);
    // Another capture ends after it: every ended id is remembered, not only the last.
    const second = await system.send<{ outcome: string }>('payment.capture', { ...command(newId('cap')), amount: '1.000' });
    assert.equal(second.outcome, 'refused');
    const again = await system.send<{ outcome: string; message: string }>('payment.capture', command(ended ?? ''));
    assert.equal(again.message, 'This capture ended without capturing; the hold stands.');
    // A later claim (as a capture under way holds it) is not released by the earlier capture's end arriving late.
    const later = newId('cap');
    await system.db.query(`UPDATE session.sessions SET capturing_amount = 5.000, capture_id = $2 WHERE id = $1`, [session.id, later]);
    await system.publishEvents([
      eventEnvelope(
        'payment.capture_failed',
        { capture_id: ended ?? '', attempt_id: attemptId, session_id: session.id, merchant_id: merchant.merchantId, livemode: false, message: 'late' },
        'late-capture-failed',
      ),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const claim = await system.db.query<{ capture_id: string }>(`SELECT capture_id FROM session.sessions WHERE id = $1 AND capturing_amount IS NOT NULL`, [session.id]);
    assert.deepEqual(claim, [{ capture_id: later }]);
  });

  it('when payment.capture itself asks for nothing (0.000, deposit.do\'s "the whole hold"), more than the hold or the wrong precision, then the adapter refuses it and nothing is deposited', async () => {
    const session = await held();
    const attemptId = session.attempts[0]?.id ?? '';
    for (const amount of ['0.000', '125.501', '1.0005', '1.00']) {
      const answer = await system.send<{ outcome: string }>('payment.capture', {
        capture_id: newId('cap'),
        attempt_id: attemptId,
        session_id: session.id,
        merchant_id: merchant.merchantId,
        livemode: false,
        amount,
      });
      assert.equal(answer.outcome, 'refused', amount);
    }
    const order = await acquirerOrder(session);
    assert.deepEqual([order.orderStatus, order.paymentAmountInfo?.depositedAmount], [1, 0]);
    assert.deepEqual((await system.db.query(`SELECT hold FROM acquirer.orders WHERE session_id = $1`, [session.id])).map((r) => (r as { hold: string }).hold), ['HELD']);
    assert.equal((await read(session.id)).status, 'AUTHORIZED');
  });
});
