/**
 * Reconciliation of orders the adapter could not settle: an acquirer that
 * answers too late (D8's card 0036), an adapter killed mid-payment, an order
 * the acquirer never saw, a buyer who never finishes 3-D Secure, an acquirer
 * that cannot be reached, and two replicas sweeping the same orders. Short
 * settings: a sweep every second, acquirer calls cut off after 1 s (the
 * sandbox answers card 0036 after 2 s), orders given up on after 4 s,
 * challenges after 8 s.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newId, type CommandReply, type CommandRequest, type Envelope } from '@gateway/contracts';
import { metricValue, TestSystem } from '@gateway/testkit';
import type { EventCapture } from '@gateway/testkit';
import { newAttempt, sealCard } from './support.js';

const RECONCILE_AFTER_SECONDS = 4;
const CHALLENGE_TIMEOUT_SECONDS = 8;
const TERM_URL = 'http://127.0.0.1/3ds';

type Attempt = CommandRequest<'payment.authorize'>['attempt'];
type PaymentEvent = Envelope<{ attempt_id: string; failure_code?: string; failure_message?: string; fee_amount?: string; net_amount?: string }>;

interface OrderState {
  status: string;
  order_number: string;
  acquirer_order_id: string | null;
  amount: string;
  fee_amount: string | null;
  net_amount: string | null;
  failure_code: string;
  failure_message: string;
  checks: number;
  /** Seconds from the order's creation to its last change. */
  settled_after: number;
}

describe('Acquirer adapter, reconciliation of unresolved orders', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let events: EventCapture;

  before(async () => {
    // Child processes: one test kills the adapter (SIGKILL).
    system = await TestSystem.start({
      launch: 'child-process',
      services: ['acquirer-adapter', 'epg-sandbox'],
      serviceEnv: {
        'acquirer-adapter': {
          SWEEP_INTERVAL_SECONDS: '1',
          ACQUIRER_TIMEOUT_MS: '1000',
          RECONCILE_AFTER_SECONDS: String(RECONCILE_AFTER_SECONDS),
          CHALLENGE_TIMEOUT_SECONDS: String(CHALLENGE_TIMEOUT_SECONDS),
          RECONCILE_MAX_DELAY_SECONDS: '2',
        },
        'epg-sandbox': { SANDBOX_SLOW_DELAY_MS: '2000' },
      },
    });
    events = await system.captureEvents(['payment.*']);
  });

  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });



  async function authorize(paid: Attempt, pan: string): Promise<CommandReply<'payment.authorize'>> {
    return system.send<CommandReply<'payment.authorize'>>('payment.authorize', { attempt: paid, card: sealCard(system, paid.attempt_id, pan), term_url: TERM_URL });
  }

  /** A call to the sandbox on test mode's terminal, as the adapter makes it. */
  const sandbox = (call: string, fields: Record<string, string>) => system.sandboxCall(call, fields);

  async function acquirerStatus(orderNumber: string): Promise<{ errorCode: number; orderStatus?: number; paymentAmountInfo?: { depositedAmount: number } }> {
    return (await sandbox('getOrderStatusExtended.do', { orderNumber })) as never;
  }

  async function order(attemptId: string): Promise<OrderState | undefined> {
    const [row] = await system.db.query<OrderState>(
      `SELECT status, order_number, acquirer_order_id, amount::text, fee_amount::text, net_amount::text, failure_code, failure_message, checks,
         extract(epoch FROM updated_at - created_at)::float8 AS settled_after
       FROM acquirer.orders WHERE attempt_id = $1`,
      [attemptId],
    );
    return row;
  }

  /** An order row as a replica that died after recording it would have left it. */
  async function insertOrder(row: { attempt: Attempt; orderNumber: string; status: string; ageSeconds: number; acquirerOrderId?: string }): Promise<void> {
    await system.db.query(
      `INSERT INTO acquirer.orders (attempt_id, session_id, merchant_id, livemode, order_number, acquirer_order_id, amount, status, card_brand, card_last_four,
         created_at, updated_at)
       VALUES ($1, $2, $3, false, $4, $5, $6, $7, 'visa', '4242', now() - make_interval(secs => $8), now() - make_interval(secs => $8))`,
      [row.attempt.attempt_id, row.attempt.session_id, row.attempt.merchant_id, row.orderNumber, row.acquirerOrderId ?? null, row.attempt.amount, row.status, row.ageSeconds],
    );
  }

  /** A fresh order number in the adapter's test-mode form (merchant tail, order number, attempt number). */
  function orderNumberOf(paid: Attempt): string {
    return `${paid.merchant_id.slice(-8)}-${paid.order_number}-${paid.attempt_number}`;
  }

  function eventsOf(attemptId: string): PaymentEvent[] {
    return events.events.filter((e) => (e as PaymentEvent).data.attempt_id === attemptId) as PaymentEvent[];
  }

  async function waitForEvent(type: 'payment.approved' | 'payment.declined', attemptId: string, timeoutMs = 20_000): Promise<PaymentEvent> {
    const [event] = await events.waitFor<PaymentEvent['data']>(type, (e) => e.data.attempt_id === attemptId, 1, timeoutMs);
    return event as PaymentEvent;
  }

  /** Polls `probe` every 20 ms until it answers something truthy. */
  async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await pause(20);
    }
  }

  /** Long enough for two more sweeps: any duplicate would have been published by then. */
  const twoMoreSweeps = () => pause(2_500);

  /** Waits for the attempt's one payment.declined (processing_error, its message matching `why`); the order as it ends. */
  async function declinedOnce(attemptId: string, why: RegExp): Promise<OrderState | undefined> {
    const declined = await waitForEvent('payment.declined', attemptId);
    assert.equal(declined.data.failure_code, 'processing_error');
    assert.match(declined.data.failure_message ?? '', why);
    await twoMoreSweeps();
    assert.equal(eventsOf(attemptId).length, 1);
    const row = await order(attemptId);
    assert.deepEqual([row?.status, row?.failure_code], ['DECLINED', 'processing_error']);
    return row;
  }

  function millimes(amount: string | null): number {
    assert.match(amount ?? '', /^[0-9]+\.[0-9]{3}$/);
    return Number((amount ?? '').replace('.', ''));
  }

  it('when card 4000 0000 0000 0036 gets no answer in time, then authorize answers pending and the sweep alone finds it paid: approved once, fee + net = amount, charged once', async () => {
    const paid = newAttempt();
    const step = await authorize(paid, '4000000000000036');
    assert.deepEqual(step, { outcome: 'pending' });

    const approved = await waitForEvent('payment.approved', paid.attempt_id);
    await twoMoreSweeps();
    assert.deepEqual(
      eventsOf(paid.attempt_id).map((e) => e.type),
      ['payment.approved'],
    );
    assert.equal(approved.correlation_id, `reconcile-${paid.attempt_id}`);
    const row = await order(paid.attempt_id);
    assert.equal(row?.status, 'APPROVED');
    assert.ok((row?.checks ?? 0) >= 1, 'settled by a reconciliation check');
    assert.equal(row?.fee_amount, approved.data.fee_amount);
    assert.equal(row?.net_amount, approved.data.net_amount);
    assert.equal(millimes(row?.fee_amount ?? null) + millimes(row?.net_amount ?? null), millimes(paid.amount));
    // The order number stored is the one registered: the sandbox knows it, deposited once for the amount.
    assert.equal(row?.order_number, orderNumberOf(paid));
    const acquirer = await acquirerStatus(row?.order_number ?? '');
    assert.equal(acquirer.orderStatus, 2);
    assert.equal(acquirer.paymentAmountInfo?.depositedAmount, 12_500);
  });

  it('when the adapter is killed while the acquirer charges card 0036 and started again, then the order ends APPROVED and payment.approved is published once', async () => {
    const paid = newAttempt();
    // Its answer dies with the adapter; the redelivered command only reports where the order stands.
    void authorize(paid, '4000000000000036').catch(() => undefined);
    const orderNumber = await until('the order to be recorded', async () => (await order(paid.attempt_id))?.order_number);
    await until('the sandbox to charge the card', async () => (await acquirerStatus(orderNumber)).orderStatus === 2);
    await system.stopService('acquirer-adapter', 'SIGKILL');
    assert.equal((await order(paid.attempt_id))?.status, 'STARTED', 'killed after the charge, before the adapter recorded anything');

    await system.startService('acquirer-adapter');
    await waitForEvent('payment.approved', paid.attempt_id);
    await twoMoreSweeps();
    assert.deepEqual(
      eventsOf(paid.attempt_id).map((e) => e.type),
      ['payment.approved'],
    );
    const row = await order(paid.attempt_id);
    assert.equal(row?.status, 'APPROVED');
    assert.ok(row?.acquirer_order_id, 'the acquirer order id, recorded before the card was sent, so that refunds can be automated');
    assert.ok((row?.settled_after ?? 0) >= RECONCILE_AFTER_SECONDS, `a STARTED order is left alone for ${RECONCILE_AFTER_SECONDS} s`);
    assert.equal((await acquirerStatus(orderNumber)).paymentAmountInfo?.depositedAmount, 12_500);
  });

  it('when an order was recorded but the acquirer never saw it, then it is asked about but declined processing_error only after RECONCILE_AFTER_SECONDS, with one payment.declined', async () => {
    const lost = newAttempt();
    // As a replica dying between recording the order and registering it leaves it
    // (due at once, as the column's default makes it: the age rule alone protects it).
    await insertOrder({ attempt: lost, orderNumber: orderNumberOf(lost), status: 'STARTED', ageSeconds: 0 });
    await until('a first check', async () => ((await order(lost.attempt_id))?.checks ?? 0) >= 1);
    assert.equal((await order(lost.attempt_id))?.status, 'STARTED');
    assert.deepEqual(eventsOf(lost.attempt_id), []);

    const row = await declinedOnce(lost.attempt_id, /never received/);
    assert.ok((row?.settled_after ?? 0) >= RECONCILE_AFTER_SECONDS, `declined after ${row?.settled_after} s`);
    assert.equal((await acquirerStatus(orderNumberOf(lost))).errorCode, 6);
  });

  it('when the buyer never comes back from 3-D Secure, then the attempt is declined authentication_failed after CHALLENGE_TIMEOUT_SECONDS, and finishing it late charges nothing', async () => {
    const paid = newAttempt();
    const step = await authorize(paid, '4000000000003063');
    const challengedAt = Date.now();
    assert.equal(step.outcome, 'challenge');
    const acsUrl = step.challenge?.url ?? '';
    const paReq = step.challenge?.fields['PaReq'] ?? '';
    // The buyer authenticates at the issuer but never returns (yet).
    const paRes = await authenticate(acsUrl, paReq, paid.attempt_id);

    const declined = await waitForEvent('payment.declined', paid.attempt_id);
    assert.ok(Date.now() - challengedAt >= CHALLENGE_TIMEOUT_SECONDS * 1000, 'not given up before the challenge timeout');
    assert.equal(declined.data.failure_code, 'authentication_failed');
    assert.equal(declined.data.failure_message, '3-D Secure was not completed.');

    const late = await system.send<CommandReply<'payment.finish_3ds'>>('payment.finish_3ds', { session_id: paid.session_id, attempt_id: paid.attempt_id, returned: { kind: 'pa_res', pa_res: paRes } });
    assert.equal(late.outcome, 'declined');
    assert.equal(late.failure_code, 'authentication_failed');
    // Still in 3-D Secure at the acquirer: the late finish was never sent, nothing was paid.
    assert.equal((await acquirerStatus(orderNumberOf(paid))).orderStatus, 5);
    assert.deepEqual(
      eventsOf(paid.attempt_id).map((e) => e.type),
      ['payment.declined'],
    );
    assert.equal((await order(paid.attempt_id))?.status, 'DECLINED');
  });

  it('when the buyer never comes back from the 3DS Method, then the attempt is declined authentication_failed after CHALLENGE_TIMEOUT_SECONDS, the kept card is wiped, and a late method return sends nothing', async () => {
    const paid = newAttempt();
    const step = await authorize(paid, '4000000000003238');
    const waitingSince = Date.now();
    assert.equal(step.outcome, 'method');
    const [kept] = await system.db.query<{ status: string; sealed_card: string | null }>('SELECT status, sealed_card FROM acquirer.orders WHERE attempt_id = $1', [paid.attempt_id]);
    assert.ok(kept?.status === 'METHOD' && kept.sealed_card);

    const declined = await waitForEvent('payment.declined', paid.attempt_id);
    assert.ok(Date.now() - waitingSince >= CHALLENGE_TIMEOUT_SECONDS * 1000, 'not given up before the challenge timeout');
    assert.deepEqual([declined.data.failure_code, declined.data.failure_message], ['authentication_failed', '3-D Secure was not completed.']);
    const [given] = await system.db.query<{ status: string; sealed_card: string | null; repeat_fields: unknown }>(
      'SELECT status, sealed_card, repeat_fields FROM acquirer.orders WHERE attempt_id = $1',
      [paid.attempt_id],
    );
    assert.deepEqual([given?.status, given?.sealed_card, given?.repeat_fields], ['DECLINED', null, null]);

    const cardsBefore = metricValue(await system.metricsOf('acquirer-adapter'), 'gateway_acquirer_call_duration_seconds_count', ['call="paymentorder.do"']) ?? 0;
    const late = await system.send<CommandReply<'payment.finish_3ds'>>('payment.finish_3ds', { session_id: paid.session_id, attempt_id: paid.attempt_id, returned: { kind: 'method', completed: true } });
    assert.deepEqual([late.outcome, late.failure_code], ['declined', 'authentication_failed']);
    assert.equal(metricValue(await system.metricsOf('acquirer-adapter'), 'gateway_acquirer_call_duration_seconds_count', ['call="paymentorder.do"']) ?? 0, cardsBefore);
    assert.equal((await acquirerStatus(orderNumberOf(paid))).orderStatus, 5, 'never paid at the acquirer');
  });

  /** The buyer's way through the issuer's page (3-D Secure 1): the paRes it would post back. */
  async function authenticate(acsUrl: string, paReq: string, md: string): Promise<string> {
    const post = async (url: string, fields: Record<string, string>) =>
      (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })).text();
    const page = await post(acsUrl, { PaReq: paReq, TermUrl: TERM_URL, MD: md });
    const decision = /name="decision" value="([^"]+)"/.exec(page)?.[1];
    assert.ok(decision && page.includes('Complete authentication'), 'the issuer page offers to complete authentication');
    const back = await post(new URL('/acs/answer', acsUrl).toString(), { decision, result: 'Y' });
    const paRes = /name="PaRes" value="([^"]+)"/.exec(back)?.[1];
    assert.ok(paRes, 'the issuer hands the paRes back');
    return paRes;
  }

  const finishCalls = async () =>
    metricValue(await system.metricsOf('acquirer-adapter'), 'gateway_acquirer_call_duration_seconds_count', ['call="finish3dsPayment.do"']) ?? 0;

  it('when the buyer\'s page posts the 3-D Secure answer twice at once, then one finish reaches the acquirer, neither answer is a decline, and the order is approved once', async () => {
    const paid = newAttempt();
    const step = await authorize(paid, '4000000000003063');
    assert.equal(step.outcome, 'challenge');
    const paRes = await authenticate(step.challenge?.url ?? '', step.challenge?.fields['PaReq'] ?? '', paid.attempt_id);
    const before = await finishCalls();
    const finish = () => system.send<CommandReply<'payment.finish_3ds'>>('payment.finish_3ds', { session_id: paid.session_id, attempt_id: paid.attempt_id, returned: { kind: 'pa_res', pa_res: paRes } });
    const answers = await Promise.all([finish(), finish()]);
    assert.equal((await finishCalls()) - before, 1);
    assert.ok(
      answers.some((a) => a.outcome === 'approved') && answers.every((a) => a.outcome !== 'declined'),
      answers.map((a) => a.outcome).join(),
    );
    await waitForEvent('payment.approved', paid.attempt_id);
    await twoMoreSweeps();
    assert.deepEqual(
      eventsOf(paid.attempt_id).map((e) => e.type),
      ['payment.approved'],
    );
    assert.equal((await order(paid.attempt_id))?.status, 'APPROVED');
  });

  it('when an UNKNOWN order stays unpaid at the acquirer, then it is asked about until CHALLENGE_TIMEOUT_SECONDS untouched, then declined processing_error once', async () => {
    const lost = newAttempt();
    const orderNumber = orderNumberOf(lost);
    const registered = (await sandbox('register.do', { orderNumber, amount: '12500', currency: '788', returnUrl: TERM_URL })) as { orderId?: string };
    assert.ok(registered.orderId);
    // As a card whose answer never came leaves it, though the acquirer never took the card.
    await insertOrder({ attempt: lost, orderNumber, status: 'UNKNOWN', ageSeconds: RECONCILE_AFTER_SECONDS + 1, acquirerOrderId: registered.orderId });
    await until('a first check', async () => ((await order(lost.attempt_id))?.checks ?? 0) >= 1);
    assert.equal((await order(lost.attempt_id))?.status, 'UNKNOWN', 'not given up at RECONCILE_AFTER_SECONDS: the card may have been sent');

    const row = await declinedOnce(lost.attempt_id, /never completed/);
    assert.ok((row?.settled_after ?? 0) >= CHALLENGE_TIMEOUT_SECONDS, `declined after ${row?.settled_after} s`);
    assert.equal((await acquirerStatus(orderNumber)).orderStatus, 0);
  });

  it('when two replicas sweep the same unresolved orders at once, then each order is settled once, with one event', async () => {
    // Orders as replicas that died mid-payment leave them: paid, declined, or never seen.
    await system.stopService('acquirer-adapter');
    const cards = { approved: '4242424242424242', declined: '4000000000000002', lost: '' };
    const orders: { attempt: Attempt; expect: keyof typeof cards }[] = [];
    for (const expect of ['approved', 'declined', 'lost'] as const) {
      for (let i = 0; i < 10; i += 1) {
        const one = newAttempt();
        let acquirerOrderId: string | undefined;
        if (expect !== 'lost') {
          const registered = await sandbox('register.do', { orderNumber: orderNumberOf(one), amount: '12500', currency: '788', returnUrl: TERM_URL });
          acquirerOrderId = String(registered.orderId);
          await sandbox('paymentorder.do', { MDORDER: acquirerOrderId, $PAN: cards[expect], $CVC: '123', YYYY: '2034', MM: '12', TEXT: 'Amina Ben Salah' });
        }
        await insertOrder({ attempt: one, orderNumber: orderNumberOf(one), status: 'STARTED', ageSeconds: RECONCILE_AFTER_SECONDS + 5, acquirerOrderId });
        orders.push({ attempt: one, expect });
      }
    }

    await Promise.all([system.startService('acquirer-adapter'), system.startService('acquirer-adapter', 'acquirer-adapter-2')]);
    try {
      await until(
        'every order to be settled',
        async () => orders.every(({ attempt: one }) => eventsOf(one.attempt_id).length > 0),
        20_000,
      );
      await twoMoreSweeps();
    } finally {
      await system.stopService('acquirer-adapter-2');
    }

    for (const { attempt: one, expect } of orders) {
      const published = eventsOf(one.attempt_id);
      assert.equal(published.length, 1, `one event for ${one.attempt_id}`);
      const row = await order(one.attempt_id);
      if (expect === 'approved') {
        assert.equal(published[0]?.type, 'payment.approved');
        assert.equal(row?.status, 'APPROVED');
        assert.equal(millimes(row?.fee_amount ?? null) + millimes(row?.net_amount ?? null), 12_500);
      } else {
        assert.equal(published[0]?.type, 'payment.declined');
        assert.equal(row?.status, 'DECLINED');
        assert.equal(row?.failure_code, expect === 'declined' ? 'card_declined' : 'processing_error');
      }
    }
    // Across both replicas' logs, each order was recorded as reconciled exactly once.
    const ids = orders.map((o) => o.attempt.attempt_id);
    assert.equal(reconciledIn('acquirer-adapter', ids) + reconciledIn('acquirer-adapter-2', ids), orders.length);
  });

  it('when the acquirer cannot be reached, then the order is left as it is and asked about again later', async () => {
    const unknown = newAttempt();
    await system.stopService('epg-sandbox');
    try {
      await insertOrder({ attempt: unknown, orderNumber: orderNumberOf(unknown), status: 'UNKNOWN', ageSeconds: RECONCILE_AFTER_SECONDS + 5, acquirerOrderId: newId('pa') });
      await until('three checks', async () => ((await order(unknown.attempt_id))?.checks ?? 0) >= 3);
      assert.equal((await order(unknown.attempt_id))?.status, 'UNKNOWN');
      assert.deepEqual(eventsOf(unknown.attempt_id), []);
    } finally {
      // The sandbox comes back empty: it forgot every order.
      await system.startService('epg-sandbox');
    }
    const declined = await waitForEvent('payment.declined', unknown.attempt_id);
    assert.equal(declined.data.failure_code, 'processing_error');
  });

  it('when orders wait for reconciliation, then /metrics shows them by status and how long the most overdue has waited past its check', async () => {
    const backlog = async () => {
      const text = await system.metricsOf('acquirer-adapter');
      return { unknown: metricValue(text, 'gateway_reconciliation_unresolved_orders', ['status="UNKNOWN"']), oldestDue: metricValue(text, 'gateway_reconciliation_oldest_due_seconds') };
    };
    // A replica that sweeps once an hour (at minute 0) stands in for sweeps that stopped.
    await system.stopService('acquirer-adapter');
    try {
      await system.startService('acquirer-adapter', 'acquirer-adapter', { SWEEP_INTERVAL_SECONDS: '3600' });
      await pause(1_100);
      const before = await backlog();
      assert.equal(typeof before.unknown, 'number', 'no gateway_reconciliation_unresolved_orders on /metrics');
      const overdue = newAttempt();
      await insertOrder({ attempt: overdue, orderNumber: orderNumberOf(overdue), status: 'UNKNOWN', ageSeconds: 120, acquirerOrderId: newId('pa') });
      await system.db.query(`UPDATE acquirer.orders SET next_check_at = now() - interval '90 seconds' WHERE attempt_id = $1`, [overdue.attempt_id]);
      // Scrapes within a second share one reading.
      await pause(1_100);
      const after = await backlog();
      assert.equal(after.unknown, (before.unknown ?? 0) + 1);
      assert.ok((after.oldestDue ?? 0) >= 90, `oldest due ${after.oldestDue} s`);
    } finally {
      await system.stopService('acquirer-adapter');
      await system.startService('acquirer-adapter');
    }
  });

  /** How many of `attemptIds` the replica `name` logged as reconciled by itself. */
  function reconciledIn(name: string, attemptIds: readonly string[]): number {
    const wanted = new Set(attemptIds);
    return readFileSync(join(system.logDir, `${name}.log`), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; attemptId?: string; recorded?: boolean })
      .filter((entry) => entry.msg === 'order reconciled' && entry.recorded === true && wanted.has(entry.attemptId ?? '')).length;
  }
});

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
