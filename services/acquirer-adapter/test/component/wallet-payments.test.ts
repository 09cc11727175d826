/**
 * Wallet payments through the adapter (D26) against the sandbox's Flouci:
 * started once, verified once whoever asks first, declined and expired
 * payments, the verify of another session refused, holds captured and
 * voided through the neutral interface, and refunds: a whole one through
 * Flouci, a partial one left to an operator. Short settings: a sweep every
 * second, orders first checked after 4 s, and a buyer's time on Flouci's page
 * of 3 s.
 */
import assert from 'node:assert/strict';
import { newId, type CommandReply, type CommandRequest, type PaymentStep } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import { TestSystem, type EventCapture } from '@gateway/testkit';
import { payOnFlouciPage } from './flouci-buyer.js';
import { newAttempt } from './support.js';

const WALLET_TIMEOUT_SECONDS = 3;

describe('Acquirer adapter, wallet payments (D26)', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let events: EventCapture;

  before(async () => {
    system = await TestSystem.start({
      services: ['acquirer-adapter', 'epg-sandbox'],
      serviceEnv: { 'acquirer-adapter': { SWEEP_INTERVAL_SECONDS: '1', ACQUIRER_TIMEOUT_MS: '1000', RECONCILE_AFTER_SECONDS: '4', WALLET_TIMEOUT_SECONDS: String(WALLET_TIMEOUT_SECONDS), RECONCILE_MAX_DELAY_SECONDS: '1' } },
    });
    events = await system.captureEvents(['payment.*']);
  });

  after(async () => {
    await system?.shutdown();
  });

  function start(attempt: CommandRequest<'payment.start_wallet'>['attempt']): Promise<PaymentStep> {
    return system.send<PaymentStep>('payment.start_wallet', {
      attempt,
      wallet: 'flouci',
      return_url: `http://127.0.0.1/checkout/t/wallet/${attempt.attempt_id}`,
      webhook_url: `http://127.0.0.1/checkout/wallet-notices/flouci/${attempt.attempt_id}`,
      language: 'fr',
    });
  }

  function verify(attemptId: string, sessionId?: string): Promise<PaymentStep> {
    return system.send<PaymentStep>('payment.verify', { attempt_id: attemptId, ...(sessionId !== undefined && { session_id: sessionId }) });
  }

  async function order(attemptId: string) {
    const [row] = await system.db.query<{ status: string; payment_method_type: string; card_brand: string; card_last_four: string; acquirer_order_id: string | null; hold: string | null }>(
      'SELECT status, payment_method_type, card_brand, card_last_four, acquirer_order_id, hold FROM acquirer.orders WHERE attempt_id = $1',
      [attemptId],
    );
    return row;
  }

  it('when a wallet payment is started, then the buyer is sent to Flouci once, and only verify_payment records it paid, once', async () => {
    const attempt = newAttempt();
    const step = await start(attempt);
    assert.equal(step.outcome, 'redirect');
    const link = step.redirect?.url ?? '';
    assert.match(link, /\/flouci\/pay\//);
    assert.deepEqual(await order(attempt.attempt_id), { status: 'REDIRECTED', payment_method_type: 'flouci', card_brand: 'flouci', card_last_four: '', acquirer_order_id: link.split('/').pop(), hold: null });
    // A repeat starts nothing new: no second payment at Flouci.
    assert.equal((await start(attempt)).outcome, 'pending');
    // Not paid yet: the wallet says PENDING, and nothing is recorded.
    assert.equal((await verify(attempt.attempt_id)).outcome, 'pending');

    const back = await payOnFlouciPage(link, system.sandboxUrl);
    assert.equal(back.searchParams.get('payment_id'), link.split('/').pop());
    const [first, second] = await Promise.all([verify(attempt.attempt_id, attempt.session_id), verify(attempt.attempt_id)]);
    assert.deepEqual([first.outcome, second.outcome], ['approved', 'approved']);
    assert.deepEqual([first.approved?.card_brand, first.approved?.card_last_four, first.approved?.payment_method_type, first.approved?.amount], ['flouci', '', 'flouci', '12.500']);
    await events.waitFor<{ attempt_id: string }>('payment.approved', (e) => e.data.attempt_id === attempt.attempt_id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(events.of<{ attempt_id: string }>('payment.approved', (e) => e.data.attempt_id === attempt.attempt_id).length, 1);
    assert.equal((await order(attempt.attempt_id))?.status, 'APPROVED');
  });

  it('when the buyer is declined at Flouci, then the attempt is declined wallet_declined; a verify naming another session is not found', async () => {
    const attempt = newAttempt();
    const step = await start(attempt);
    await payOnFlouciPage(step.redirect?.url ?? '', system.sandboxUrl, '20000002');
    await assert.rejects(verify(attempt.attempt_id, newId('ps')), /not-found|No wallet payment/);
    assert.equal((await order(attempt.attempt_id))?.status, 'REDIRECTED');
    const declined = await verify(attempt.attempt_id, attempt.session_id);
    assert.deepEqual([declined.outcome, declined.failure_code], ['declined', 'wallet_declined']);
  });

  it('when the buyer never completes, then the sweep records wallet_expired once Flouci says the payment expired', async () => {
    const attempt = newAttempt();
    await start(attempt);
    const [expired] = await events.waitFor<{ attempt_id: string; failure_code: string }>('payment.declined', (e) => e.data.attempt_id === attempt.attempt_id, 1, 30_000);
    assert.equal(expired?.data.failure_code, 'wallet_expired');
    assert.equal((await order(attempt.attempt_id))?.status, 'DECLINED');
  });

  it('when the session asks about a wallet attempt the adapter never got, then it is declined for good, as a wallet attempt', async () => {
    const attempt = { ...newAttempt(), payment_method_type: 'flouci' as const };
    const step = await system.send<PaymentStep>('payment.check', { attempt });
    assert.deepEqual([step.outcome, step.declined?.payment_method_type, step.declined?.card_brand], ['declined', 'flouci', 'flouci']);
    assert.equal((await start(attempt)).outcome, 'declined', 'a late start finds it final and starts nothing');
  });

  it('when a card attempt is verified as a wallet one, then it is not found and nothing is asked', async () => {
    await assert.rejects(verify(newId('pa')), /not-found|No wallet payment/);
  });

  it('when a manual session is paid with Flouci, then the hold is captured through confirm_payment; another is voided through cancel_payment', async () => {
    const captured = { ...newAttempt(), capture_method: 'manual' as const };
    const capturedStep = await start(captured);
    await payOnFlouciPage(capturedStep.redirect?.url ?? '', system.sandboxUrl);
    const held = await verify(captured.attempt_id);
    assert.equal(held.authorized?.amount, '12.500');
    assert.equal((await order(captured.attempt_id))?.hold, 'HELD');
    const capture = await system.send<CommandReply<'payment.capture'>>('payment.capture', {
      capture_id: newId('cap'),
      attempt_id: captured.attempt_id,
      session_id: captured.session_id,
      merchant_id: captured.merchant_id,
      livemode: false,
      amount: '12.500',
    });
    assert.equal(capture.outcome, 'captured', capture.message);
    assert.equal((await order(captured.attempt_id))?.hold, 'CAPTURED');

    const voided = { ...newAttempt(), capture_method: 'manual' as const };
    await payOnFlouciPage((await start(voided)).redirect?.url ?? '', system.sandboxUrl);
    assert.ok((await verify(voided.attempt_id)).authorized);
    await system.publishEvents([eventEnvelope('session.hold_canceled', { session_id: voided.session_id, attempt_id: voided.attempt_id, merchant_id: voided.merchant_id, livemode: false, reason: 'canceled' }, 'test-void')]);
    await waitUntil(async () => (await order(voided.attempt_id))?.hold === 'VOIDED');
  });

  it('when a Flouci payment is refunded whole, then Flouci refunds it; a partial refund is left to an operator and Flouci is not asked', async () => {
    const paidAttempt = async () => {
      const attempt = newAttempt();
      await payOnFlouciPage((await start(attempt)).redirect?.url ?? '', system.sandboxUrl);
      assert.equal((await verify(attempt.attempt_id)).outcome, 'approved');
      return attempt;
    };
    const refund = (attempt: CommandRequest<'payment.start_wallet'>['attempt'], amount: string, whole: boolean) =>
      system.send<CommandReply<'payment.refund'>>('payment.refund', { refund_id: newId('re'), attempt_id: attempt.attempt_id, merchant_id: attempt.merchant_id, livemode: false, amount, whole });
    const [partly, wholly] = await Promise.all([paidAttempt(), paidAttempt()]);
    const partial = await refund(partly, '2.500', false);
    assert.deepEqual([partial.outcome, partial.operation], ['unconfirmed', 'refund']);
    assert.match(partial.message, /whole payments only/);
    const whole = await refund(wholly, '12.500', true);
    assert.deepEqual([whole.outcome, whole.operation], ['refunded', 'refund'], whole.message);
    // Flouci refunds a payment once: a second whole refund is an operator's, never a failure.
    assert.equal((await refund(wholly, '12.500', true)).outcome, 'unconfirmed');
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) assert.fail('not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
