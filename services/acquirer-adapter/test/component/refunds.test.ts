/**
 * The adapter's refund command against the sandbox acquirer: reverse.do for
 * a whole refund on the day of the payment, refund.do otherwise, the
 * acquirer's refusals and unconfirmable answers, and one acquirer operation
 * per refund id however often (or however concurrently) it is sent.
 */
import assert from 'node:assert/strict';
import { newId, type CommandReply, type CommandRequest, type StartedAttempt } from '@gateway/contracts';
import { LIVE_TERMINAL, TestSystem } from '@gateway/testkit';
import { newAttempt, sealCard } from './support.js';

type RefundReply = CommandReply<'payment.refund'>;

interface SandboxOrder {
  orderStatus: number;
  paymentAmountInfo: { depositedAmount: number; refundedAmount: number };
}

interface OperationRow {
  refund_id: string;
  operation: string;
  status: string;
  amount: string;
  message: string;
}

describe('Acquirer adapter, payment.refund', function () {
  this.timeout(60_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start({ services: ['acquirer-adapter', 'epg-sandbox'] });
  });

  after(async () => {
    await system?.shutdown();
  });

  /** A payment with `pan`, authorized as the session does it; its acquirer order number. */
  async function pay(pan: string, attempt: StartedAttempt = newAttempt()): Promise<{ attempt: StartedAttempt; orderNumber: string; outcome: string }> {
    const step = await system.send<CommandReply<'payment.authorize'>>('payment.authorize', {
      attempt,
      card: sealCard(system, attempt.attempt_id, pan),
      term_url: 'http://127.0.0.1/3ds',
    } satisfies CommandRequest<'payment.authorize'>);
    const [order] = await system.db.query<{ order_number: string }>('SELECT order_number FROM acquirer.orders WHERE attempt_id = $1', [attempt.attempt_id]);
    return { attempt, orderNumber: order?.order_number ?? '', outcome: step.outcome };
  }

  async function paid(pan = '4242424242424242'): Promise<{ attempt: StartedAttempt; orderNumber: string }> {
    const payment = await pay(pan);
    assert.equal(payment.outcome, 'approved');
    return payment;
  }

  function refundOf(attempt: StartedAttempt, amount: string, whole = false): CommandRequest<'payment.refund'> {
    return { refund_id: newId('re'), attempt_id: attempt.attempt_id, merchant_id: attempt.merchant_id, livemode: attempt.livemode, amount, whole };
  }

  async function refund(request: CommandRequest<'payment.refund'>): Promise<RefundReply> {
    return system.send<RefundReply>('payment.refund', request);
  }

  /** The order as the acquirer holds it, by the number it was registered under. */
  async function atSandbox(orderNumber: string, terminal = system.sandboxTerminal): Promise<SandboxOrder> {
    return (await system.sandboxOrder(orderNumber, terminal)) as SandboxOrder;
  }

  async function operationsOf(attemptId: string): Promise<OperationRow[]> {
    return system.db.query<OperationRow>(
      'SELECT refund_id, operation, status, amount::text, message FROM acquirer.refund_operations WHERE attempt_id = $1 ORDER BY created_at',
      [attemptId],
    );
  }

  it('when the whole payment is refunded on the day it was paid, then it is reversed at the acquirer and refunded', async () => {
    const { attempt, orderNumber } = await paid();
    const request = refundOf(attempt, '12.500', true);
    assert.deepEqual(await refund(request), { outcome: 'refunded', operation: 'reverse', message: '' });
    assert.equal((await atSandbox(orderNumber)).orderStatus, 3);
    assert.deepEqual(await operationsOf(attempt.attempt_id), [{ refund_id: request.refund_id, operation: 'reverse', status: 'REFUNDED', amount: '12.500', message: '' }]);
  });

  it('when a payment is refunded in two parts, then each is a refund.do and the acquirer has refunded their sum', async () => {
    const { attempt, orderNumber } = await paid();
    assert.deepEqual(await refund(refundOf(attempt, '4.000')), { outcome: 'refunded', operation: 'refund', message: '' });
    assert.deepEqual(await refund(refundOf(attempt, '3.250')), { outcome: 'refunded', operation: 'refund', message: '' });
    const order = await atSandbox(orderNumber);
    assert.equal(order.orderStatus, 4);
    assert.equal(order.paymentAmountInfo.refundedAmount, 7250);
    assert.deepEqual(
      (await operationsOf(attempt.attempt_id)).map((o) => [o.operation, o.status, o.amount]),
      [
        ['refund', 'REFUNDED', '4.000'],
        ['refund', 'REFUNDED', '3.250'],
      ],
    );
  });

  it('when a part is more than the acquirer has left to refund, then it is refused with the acquirer\'s words and nothing more is refunded', async () => {
    const { attempt, orderNumber } = await paid();
    assert.equal((await refund(refundOf(attempt, '10.000'))).outcome, 'refunded');
    const tooMuch = refundOf(attempt, '5.000');
    assert.deepEqual(await refund(tooMuch), { outcome: 'refused', operation: 'refund', message: 'Invalid amount' });
    assert.equal((await atSandbox(orderNumber)).paymentAmountInfo.refundedAmount, 10000);
    const [, refused] = await operationsOf(attempt.attempt_id);
    assert.deepEqual(refused, { refund_id: tooMuch.refund_id, operation: 'refund', status: 'REFUSED', amount: '5.000', message: 'Invalid amount' });
  });

  it('when the payment was made with card 5126, then every refund and reversal is unconfirmed with the acquirer\'s message (ErrorCode 7)', async () => {
    const { attempt, orderNumber } = await paid('4000000000005126');
    // The reversal answers ErrorCode 7; the order still deposited, refund.do goes instead and answers the same.
    assert.deepEqual(await refund(refundOf(attempt, '12.500', true)), { outcome: 'unconfirmed', operation: 'refund', message: 'System error' });
    assert.deepEqual(await refund(refundOf(attempt, '2.000')), { outcome: 'unconfirmed', operation: 'refund', message: 'System error' });
    const order = await atSandbox(orderNumber);
    assert.equal(order.orderStatus, 2, 'the acquirer changed nothing');
    assert.deepEqual(
      (await operationsOf(attempt.attempt_id)).map((o) => [o.operation, o.status, o.message]),
      [
        ['refund', 'UNCONFIRMED', 'System error'],
        ['refund', 'UNCONFIRMED', 'System error'],
      ],
    );
  });

  it('when the payment was made with card 6983 (no reversal permission), then a whole refund on its day goes through refund.do, once, and is refunded', async () => {
    const { attempt, orderNumber } = await paid('4000000000006983');
    const whole = refundOf(attempt, '12.500', true);
    assert.deepEqual(await refund(whole), { outcome: 'refunded', operation: 'refund', message: '' });
    assert.deepEqual(await refund(whole), { outcome: 'refunded', operation: 'refund', message: '' });
    const order = await atSandbox(orderNumber);
    assert.deepEqual([order.orderStatus, order.paymentAmountInfo.refundedAmount], [4, 12500]);
    assert.deepEqual(await operationsOf(attempt.attempt_id), [{ refund_id: whole.refund_id, operation: 'refund', status: 'REFUNDED', amount: '12.500', message: '' }]);
  });

  it('when the same refund is sent twice, then the acquirer refunds it once and both answers are the same', async () => {
    const { attempt, orderNumber } = await paid();
    const request = refundOf(attempt, '2.000');
    const first = await refund(request);
    const second = await refund(request);
    assert.deepEqual(first, { outcome: 'refunded', operation: 'refund', message: '' });
    assert.deepEqual(second, first);
    assert.equal((await atSandbox(orderNumber)).paymentAmountInfo.refundedAmount, 2000);
    assert.equal((await operationsOf(attempt.attempt_id)).length, 1);

    // A refusal is answered again as it was, without asking the acquirer again.
    const tooMuch = refundOf(attempt, '11.000');
    assert.equal((await refund(tooMuch)).outcome, 'refused');
    assert.equal((await refund(tooMuch)).outcome, 'refused');
    assert.equal((await operationsOf(attempt.attempt_id)).length, 2);
  });

  it('when the same refund is sent twice at once, then the acquirer refunds it once and both get its outcome', async () => {
    const { attempt, orderNumber } = await paid();
    const request = refundOf(attempt, '3.000');
    const answers = await Promise.all([refund(request), refund(request), refund(request)]);
    for (const answer of answers) assert.deepEqual(answer, { outcome: 'refunded', operation: 'refund', message: '' });
    assert.equal((await atSandbox(orderNumber)).paymentAmountInfo.refundedAmount, 3000);
    assert.equal((await operationsOf(attempt.attempt_id)).length, 1);

    const whole = refundOf((await paid()).attempt, '12.500', true);
    const reversals = await Promise.all([refund(whole), refund(whole)]);
    for (const answer of reversals) assert.deepEqual(answer, { outcome: 'refunded', operation: 'reverse', message: '' });
  });

  it('when the same refund id comes back for another amount, then it is answered with a conflict and nothing is sent', async () => {
    const { attempt, orderNumber } = await paid();
    const request = refundOf(attempt, '1.000');
    assert.equal((await refund(request)).outcome, 'refunded');
    await assert.rejects(refund({ ...request, amount: '2.000' }), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'conflict');
      return true;
    });
    assert.equal((await atSandbox(orderNumber)).paymentAmountInfo.refundedAmount, 1000);
  });

  it('when the attempt was not approved, or is another merchant\'s, then the refund is refused and the acquirer is not asked', async () => {
    const declined = await pay('4000000000000002');
    assert.equal(declined.outcome, 'declined');
    const answer = await refund(refundOf(declined.attempt, '12.500', true));
    assert.equal(answer.outcome, 'refused');
    assert.match(answer.message, /was not approved \(DECLINED\)/);
    assert.deepEqual((await operationsOf(declined.attempt.attempt_id)).map((o) => o.status), ['REFUSED']);

    const { attempt, orderNumber } = await paid();
    const otherMerchant = await refund({ ...refundOf(attempt, '1.000'), merchant_id: newId('mer') });
    assert.equal(otherMerchant.outcome, 'refused');
    const otherMode = await refund({ ...refundOf(attempt, '1.000'), livemode: true });
    assert.equal(otherMode.outcome, 'refused');
    const unknown = await refund({ ...refundOf(attempt, '1.000'), attempt_id: newId('pa') });
    assert.equal(unknown.outcome, 'refused');
    const tooMuch = await refund(refundOf(attempt, '12.501'));
    assert.equal(tooMuch.outcome, 'refused');
    assert.match(tooMuch.message, /more than the payment's 12\.500 TND/);
    assert.equal((await atSandbox(orderNumber)).paymentAmountInfo.refundedAmount, 0);
  });

  it('when the whole payment was approved yesterday, then it is refunded with refund.do, not reversed', async () => {
    const { attempt, orderNumber } = await paid();
    await system.db.query("UPDATE acquirer.orders SET created_at = created_at - interval '1 day', updated_at = updated_at - interval '1 day' WHERE attempt_id = $1", [
      attempt.attempt_id,
    ]);
    assert.deepEqual(await refund(refundOf(attempt, '12.500', true)), { outcome: 'refunded', operation: 'refund', message: '' });
    const order = await atSandbox(orderNumber);
    assert.equal(order.orderStatus, 4);
    assert.equal(order.paymentAmountInfo.refundedAmount, 12500);
  });

  it('when a live payment is refunded, then it goes to the merchant\'s terminal; once that terminal is inactive, the refund is unconfirmed and nothing is sent', async () => {
    const attempt = { ...newAttempt(), livemode: true };
    const terminal = { merchant_id: attempt.merchant_id, mode: 'live' as const, user: LIVE_TERMINAL.user, password: LIVE_TERMINAL.password };
    await system.send('terminal.set', { ...terminal, active: true });
    const payment = await pay('4111111111111111', attempt);
    assert.equal(payment.outcome, 'approved');
    assert.deepEqual(await refund(refundOf(attempt, '5.000')), { outcome: 'refunded', operation: 'refund', message: '' });
    assert.equal((await atSandbox(payment.orderNumber, LIVE_TERMINAL)).paymentAmountInfo.refundedAmount, 5000);

    await system.send('terminal.set', { ...terminal, active: false });
    const held = await refund(refundOf(attempt, '1.000'));
    assert.equal(held.outcome, 'unconfirmed');
    assert.match(held.message, /terminal is inactive/);
    assert.equal((await atSandbox(payment.orderNumber, LIVE_TERMINAL)).paymentAmountInfo.refundedAmount, 5000);
  });
});
