/** Pre-authorized Flouci payments (confirm_payment, cancel_payment) and refunds (refund_payment) at the sandbox (WALLET.md, D22, D26). */
import assert from 'node:assert/strict';
import { answerPage, FlouciClient, payWith, SUCCESS_LINK, type FlouciReply } from './flouci-client.js';
import { startHarness, type Harness } from './sandbox-harness.js';
import { startWebhookReceiver } from './webhook-receiver.js';

const NOT_HELD = 'Payment is not a pre-authorized payment awaiting confirmation';

function refusedWith(reply: FlouciReply, message: string): void {
  assert.equal(reply.status, 200);
  assert.deepEqual(reply.body, { success: false, message, code: 1 });
}

describe('epg-sandbox: Flouci pre-authorization and refunds', () => {
  const clock = { now: Date.parse('2030-05-01T12:00:00Z') };
  let sandbox: Harness;
  let flouci: FlouciClient;

  before(async () => {
    sandbox = await startHarness({}, { now: () => new Date(clock.now) });
    flouci = new FlouciClient(sandbox.baseUrl);
  });
  after(async () => {
    await sandbox?.stop();
  });

  /** A pre-authorized payment the buyer paid: its hold awaits confirm or cancel. */
  async function held(fields: Record<string, unknown> = {}): Promise<string> {
    const { page, paymentId } = await flouci.newPayment({ pre_auth: true, amount: 80000, ...fields });
    const res = await payWith(page, '98765411');
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `${SUCCESS_LINK}&payment_id=${paymentId}`);
    return paymentId;
  }

  /** A paid payment, one-phase. */
  async function paid(): Promise<string> {
    const { page, paymentId } = await flouci.newPayment({ amount: 42000 });
    await payWith(page, '98765499');
    return paymentId;
  }

  it('When the buyer pays a pre-authorized payment, then it reads PENDING holding the amount, the webhook hears PENDING, and it does not expire', async () => {
    const hooks = await startWebhookReceiver();
    try {
      const paymentId = await held({ webhook: hooks.url, session_timeout_secs: 60 });
      assert.deepEqual((await hooks.next())[0]?.body, { payment_id: paymentId, status: 'PENDING' });
      clock.now += 3_600_000;
      const verify = await flouci.verify(paymentId);
      assert.deepEqual(verify.body.result, { type: 'wallet', amount: 80000, status: 'PENDING', details: { phone_number: '******11', pre_auth: true, hold: 'held' }, developer_tracking_id: 'attempt-1' });
    } finally {
      await hooks.close();
    }
  });

  it('When a hold is confirmed, then {result: {status: SUCCESS}}, the payment reads SUCCESS, and a second confirm or a cancel answers success false', async () => {
    const paymentId = await held();
    const confirm = await flouci.confirm(paymentId);
    assert.equal(confirm.status, 200);
    assert.deepEqual(confirm.body, { success: true, result: { status: 'SUCCESS' }, code: 0 });
    const verify = await flouci.verify(paymentId);
    assert.equal(verify.body.result?.['status'], 'SUCCESS');
    assert.equal(verify.body.result?.details?.['hold'], 'confirmed');
    refusedWith(await flouci.confirm(paymentId), NOT_HELD);
    refusedWith(await flouci.cancel(paymentId), NOT_HELD);
    assert.equal(await flouci.statusOf(paymentId), 'SUCCESS');
  });

  it('When a hold is canceled, then {result: {status: SUCCESS}}, the payment reads FAILURE, and a second cancel, a confirm or a refund answers success false', async () => {
    const paymentId = await held();
    const cancel = await flouci.cancel(paymentId);
    assert.deepEqual(cancel.body, { success: true, result: { status: 'SUCCESS' }, code: 0 });
    const verify = await flouci.verify(paymentId);
    assert.equal(verify.body.result?.['status'], 'FAILURE');
    assert.deepEqual(verify.body.result?.details, { phone_number: '******11', reason: 'canceled_by_merchant', pre_auth: true, hold: 'canceled' });
    refusedWith(await flouci.cancel(paymentId), NOT_HELD);
    refusedWith(await flouci.confirm(paymentId), NOT_HELD);
    refusedWith(await flouci.refund(paymentId), 'Payment is not refundable: only a successful payment is');
  });

  it('When confirm or cancel names a payment that is not held (awaiting the buyer, one-phase paid, declined, never approved), then success false and nothing changes', async () => {
    const awaiting = await flouci.newPayment({ pre_auth: true });
    const declined = await flouci.newPayment({ pre_auth: true });
    await payWith(declined.page, '20000002');
    const pending = await flouci.newPayment({ pre_auth: true });
    await payWith(pending.page, '20000003');
    const onePhase = await paid();
    for (const [paymentId, status] of [
      [awaiting.paymentId, 'PENDING'],
      [declined.paymentId, 'FAILURE'],
      [pending.paymentId, 'PENDING'],
      [onePhase, 'SUCCESS'],
    ] as const) {
      refusedWith(await flouci.confirm(paymentId), NOT_HELD);
      refusedWith(await flouci.cancel(paymentId), NOT_HELD);
      assert.equal(await flouci.statusOf(paymentId), status);
    }
  });

  it('When a confirm names an amount other than the hold, then it is refused (the sandbox takes holds whole) and the hold stays', async () => {
    const paymentId = await held();
    refusedWith(await flouci.confirm(paymentId, { amount: '50000' }), 'Only the whole amount can be confirmed');
    refusedWith(await flouci.confirm(paymentId, { amount: 'all' }), 'amount must be a positive integer of millimes');
    assert.equal((await flouci.verify(paymentId)).body.result?.details?.['hold'], 'held');
    assert.equal((await flouci.confirm(paymentId, { amount: 80000 })).body.success, true);
  });

  it('When a successful payment is refunded, then the answer is {refund_id, payment_id, amount, status: "success", refunded_at}, once; a second refund answers success false', async () => {
    const paymentId = await paid();
    const refund = await flouci.refund(paymentId);
    assert.equal(refund.status, 200);
    assert.equal(refund.body.success, true);
    const result = refund.body.result ?? {};
    assert.deepEqual(Object.keys(result), ['refund_id', 'payment_id', 'amount', 'status', 'refunded_at']);
    assert.match(String(result['refund_id']), /^ref_[A-Za-z0-9_-]+$/);
    assert.deepEqual([result['payment_id'], result['amount'], result['status'], result['refunded_at']], [paymentId, '42000', 'success', new Date(clock.now).toISOString()]);
    refusedWith(await flouci.refund(paymentId), 'Payment was already refunded');
    const verify = await flouci.verify(paymentId);
    assert.equal(verify.body.result?.['status'], 'SUCCESS');
    assert.equal(verify.body.result?.details?.['refund_id'], result['refund_id']);
  });

  it('When a confirmed hold is refunded, then it is refunded whole, once', async () => {
    const paymentId = await held();
    await flouci.confirm(paymentId);
    const refund = await flouci.refund(paymentId);
    assert.equal(refund.body.result?.['amount'], '80000');
    refusedWith(await flouci.refund(paymentId), 'Payment was already refunded');
  });

  it('When a payment that did not succeed (awaiting, held, declined, canceled, expired) is refunded, or a part of one that did, then success false and nothing changes', async () => {
    const awaiting = await flouci.newPayment();
    const hold = await held();
    const declined = await flouci.newPayment();
    await payWith(declined.page, '20000002');
    const canceled = await flouci.newPayment();
    await answerPage(canceled.page, { action: 'cancel' });
    const expired = await flouci.newPayment({ session_timeout_secs: 1 });
    clock.now += 1_000;
    for (const paymentId of [awaiting.paymentId, hold, declined.paymentId, canceled.paymentId, expired.paymentId]) {
      refusedWith(await flouci.refund(paymentId), 'Payment is not refundable: only a successful payment is');
    }
    const whole = await paid();
    refusedWith(await flouci.refund(whole, { amount: 1000 }), 'Only the whole amount can be refunded');
    assert.equal((await flouci.refund(whole, { amount: '42000' })).body.success, true);
  });
});
