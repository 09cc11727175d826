import assert from 'node:assert/strict';
import { FlouciError } from '../../src/domain/flouci/flouci-error.js';
import { cancelByBuyer, cancelHold, confirmHold, detailsOf, generatedPayment, payWithPhone, refundWhole, statusAt, type WalletPayment } from '../../src/domain/flouci/wallet-payment.js';

const T0 = Date.parse('2030-01-01T00:00:00Z');
const at = (ms: number) => new Date(T0 + ms);

function payment(preAuth = false): WalletPayment {
  return generatedPayment({ app: 'app', amount: 5000, developerTrackingId: 'att', successLink: 'https://m.example/ok', failLink: 'https://m.example/ko', webhook: undefined, preAuth, generatedAt: T0, expiresAt: T0 + 60_000 });
}

/** The message of the FlouciError `act` throws. */
function refusal(act: () => unknown): string {
  try {
    act();
  } catch (err) {
    assert.ok(err instanceof FlouciError, String(err));
    return err.message;
  }
  assert.fail('expected a refusal');
}

describe('Flouci payment', () => {
  it('When payments are generated, then each has a fresh 22-character URL-safe id and awaits its buyer (PENDING)', () => {
    const a = payment();
    assert.match(a.paymentId, /^[A-Za-z0-9_-]{22}$/);
    assert.notEqual(a.paymentId, payment().paymentId);
    assert.equal(statusAt(a, at(0)), 'PENDING');
  });

  it('When the phone is 20000002, 20000003 or any other, then declined (FAILURE), awaiting approval (PENDING) or paid (SUCCESS)', () => {
    const cases: [string, string][] = [
      ['20000002', 'FAILURE'],
      ['20000003', 'PENDING'],
      ['20000001', 'SUCCESS'],
      ['99999999', 'SUCCESS'],
    ];
    for (const [phone, status] of cases) {
      const p = payment();
      payWithPhone(p, phone, at(1));
      assert.equal(statusAt(p, at(2)), status, phone);
    }
  });

  it('When a payment still awaits its buyer or their approval at its timeout, then it is EXPIRED from that instant on, even if the clock goes back', () => {
    const waiting = payment();
    assert.equal(statusAt(waiting, at(59_999)), 'PENDING');
    assert.equal(statusAt(waiting, at(60_000)), 'EXPIRED');
    assert.equal(statusAt(waiting, at(0)), 'EXPIRED');
    const approving = payment();
    payWithPhone(approving, '20000003', at(10));
    assert.equal(statusAt(approving, at(60_000)), 'EXPIRED');
    assert.equal(detailsOf(approving)['reason'], 'session_expired');
  });

  it('When the buyer answers after the timeout, then it is refused and the payment stays EXPIRED', () => {
    const p = payment();
    assert.equal(refusal(() => payWithPhone(p, '98765432', at(60_000))), 'Payment no longer awaits the buyer');
    assert.equal(refusal(() => cancelByBuyer(p, at(60_000))), 'Payment no longer awaits the buyer');
    assert.equal(statusAt(p, at(60_001)), 'EXPIRED');
  });

  it('When a payment was answered, then a second answer is refused', () => {
    const p = payment();
    cancelByBuyer(p, at(1));
    assert.equal(refusal(() => payWithPhone(p, '98765432', at(2))), 'Payment no longer awaits the buyer');
    assert.equal(statusAt(p, at(3)), 'FAILURE');
  });

  it('When a pre-authorized payment is paid, then it is held (PENDING) past its timeout, until confirmed (SUCCESS) or canceled (FAILURE), each once', () => {
    const confirmed = payment(true);
    payWithPhone(confirmed, '98765432', at(1));
    assert.equal(statusAt(confirmed, at(3_600_000)), 'PENDING');
    assert.equal(detailsOf(confirmed)['hold'], 'held');
    confirmHold(confirmed);
    assert.equal(statusAt(confirmed, at(3_600_001)), 'SUCCESS');
    assert.match(refusal(() => confirmHold(confirmed)), /not a pre-authorized payment awaiting confirmation/);
    assert.match(refusal(() => cancelHold(confirmed)), /not a pre-authorized payment awaiting confirmation/);

    const canceled = payment(true);
    payWithPhone(canceled, '98765432', at(1));
    cancelHold(canceled);
    assert.equal(statusAt(canceled, at(2)), 'FAILURE');
    assert.deepEqual(detailsOf(canceled), { phone_number: '******32', reason: 'canceled_by_merchant', pre_auth: true, hold: 'canceled' });
    assert.match(refusal(() => cancelHold(canceled)), /not a pre-authorized/);
  });

  it('When a one-phase payment or one awaiting its buyer is confirmed or canceled, then it is refused', () => {
    const paid = payment();
    payWithPhone(paid, '98765432', at(1));
    const waiting = payment(true);
    for (const p of [paid, waiting]) {
      assert.match(refusal(() => confirmHold(p)), /not a pre-authorized/);
      assert.match(refusal(() => cancelHold(p)), /not a pre-authorized/);
    }
  });

  it('When a paid payment is refunded, then once, whole; anything not paid is not refundable', () => {
    const paid = payment();
    payWithPhone(paid, '98765432', at(1));
    const refund = refundWhole(paid, at(5));
    assert.match(refund.refundId, /^ref_/);
    assert.deepEqual(refund.refundedAt, at(5));
    assert.equal(refusal(() => refundWhole(paid, at(6))), 'Payment was already refunded');
    assert.equal(statusAt(paid, at(7)), 'SUCCESS');
    assert.equal(detailsOf(paid)['refund_id'], refund.refundId);

    const held = payment(true);
    payWithPhone(held, '98765432', at(1));
    const declined = payment();
    payWithPhone(declined, '20000002', at(1));
    for (const p of [payment(), held, declined]) assert.match(refusal(() => refundWhole(p, at(2))), /not refundable/);
  });

  it('When details are read, then the phone shows as its last two digits only', () => {
    const p = payment();
    payWithPhone(p, '71234598', at(1));
    const details = JSON.stringify(detailsOf(p));
    assert.ok(!details.includes('71234598'));
    assert.ok(!details.includes('712345'));
    assert.deepEqual(detailsOf(p), { phone_number: '******98', pre_auth: false });
  });
});
