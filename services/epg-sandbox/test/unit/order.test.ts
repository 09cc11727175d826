import assert from 'node:assert/strict';
import { EpgError } from '../../src/domain/epg-error.js';
import { approve, attachCard, decline, deposit, finishRedirect, refund, refundable, registeredOrder, reverse, startChallenge, type Order } from '../../src/domain/order.js';
import { withQueryParam } from '../../src/domain/urls.js';

const NOW = new Date('2026-05-15T12:00:00Z');

const LATER = new Date('2026-05-16T09:30:00Z');

function order(failUrl?: string, twoPhase = false): Order {
  const o = registeredOrder({ orderId: 'o-1', terminal: 't', orderNumber: 'N1', amount: 10_000, returnUrl: 'https://m.example/r', failUrl, language: 'fr', registeredAt: NOW.getTime(), twoPhase });
  attachCard(o, { maskedPan: '424242**4242', expiration: '202812', cardholderName: '', behaviour: 'approve', fingerprint: 'f' });
  return o;
}

function refusal(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    assert.ok(err instanceof EpgError);
    return `${err.errorCode} ${err.message}`;
  }
}

describe('order state machine', () => {
  it('When a one-phase order is approved, then it is deposited at once: status 2 with the whole amount approved and deposited', () => {
    const o = order();
    approve(o, NOW);
    assert.equal(o.status, 2);
    assert.equal(o.action.code, 0);
    assert.equal(o.depositedAt, NOW.getTime());
    assert.deepEqual([o.approvedAmount, o.depositedAmount, o.refundedAmount], [10_000, 10_000, 0]);
  });

  it('When a challenge starts, then only its end (approval or decline) may follow', () => {
    const o = order();
    startChallenge(o);
    assert.equal(o.status, 5);
    assert.equal(refusal(() => reverse(o)), '7 Wrong order state');
    assert.equal(refusal(() => startChallenge(o)), '7 Wrong order state');
    decline(o, 'authentication_failed');
    assert.deepEqual([o.status, o.action.code], [6, 2006]);
    assert.equal(refusal(() => approve(o, NOW)), '7 Wrong order state');
  });

  it('When a deposited order is refunded, then it may be refunded again until nothing is left but never reversed', () => {
    const o = order();
    approve(o, NOW);
    refund(o, 4_000);
    refund(o, 6_000);
    assert.deepEqual([o.status, o.refundedAmount], [4, 10_000]);
    assert.throws(() => refund(o, 1), RangeError);
    assert.equal(refusal(() => reverse(o)), '7 Wrong order state');
  });

  it('When a deposited order is reversed, then nothing is deposited any more and it cannot be reversed or refunded again', () => {
    const o = order();
    approve(o, NOW);
    reverse(o);
    assert.deepEqual([o.status, o.depositedAmount, o.refundedAmount], [3, 0, 0]);
    assert.equal(refusal(() => reverse(o)), '7 Wrong order state');
    assert.equal(refusal(() => refund(o, 1)), '7 Wrong order state');
  });

  it('When a two-phase order is approved, then the whole amount is held: status 1, approved, nothing deposited, no deposit date', () => {
    const o = order(undefined, true);
    approve(o, NOW);
    assert.equal(o.status, 1);
    assert.equal(o.action.code, 0);
    assert.match(String(o.approvalCode), /^[0-9]{6}$/);
    assert.equal(o.depositedAt, undefined);
    assert.deepEqual([o.approvedAmount, o.depositedAmount, o.refundedAmount], [10_000, 0, 0]);
    assert.equal(refundable(o), 0);
    assert.equal(refusal(() => refund(o, 1)), '7 Wrong order state');
    assert.equal(refusal(() => approve(o, NOW)), '7 Wrong order state');
  });

  it('When a two-phase challenge ends with Y, then the order is held with its eci', () => {
    const o = order(undefined, true);
    startChallenge(o);
    approve(o, NOW, '05');
    assert.deepEqual([o.status, o.eci, o.approvedAmount, o.depositedAmount], [1, '05', 10_000, 0]);
  });

  it('When a hold is deposited with 0, then the whole hold is deposited, dated, once', () => {
    const o = order(undefined, true);
    approve(o, NOW);
    deposit(o, 0, LATER);
    assert.equal(o.status, 2);
    assert.equal(o.depositedAt, LATER.getTime());
    assert.deepEqual([o.approvedAmount, o.depositedAmount], [10_000, 10_000]);
    assert.equal(refusal(() => deposit(o, 0, LATER)), '7 Wrong order state');
  });

  it('When part of a hold is deposited, then only that part is deposited and refundable, the approval unchanged', () => {
    const o = order(undefined, true);
    approve(o, NOW);
    deposit(o, 4_000, LATER);
    assert.deepEqual([o.status, o.approvedAmount, o.depositedAmount, refundable(o)], [2, 10_000, 4_000, 4_000]);
    assert.throws(() => refund(o, 4_001), RangeError);
    refund(o, 4_000);
    assert.deepEqual([o.status, o.refundedAmount, refundable(o)], [4, 4_000, 0]);
  });

  it('When a hold is deposited above its amount, then it is refused and the order stays held', () => {
    const o = order(undefined, true);
    approve(o, NOW);
    assert.throws(() => deposit(o, 10_001, LATER), RangeError);
    assert.deepEqual([o.status, o.depositedAmount, o.depositedAt], [1, 0, undefined]);
    deposit(o, 10_000, LATER);
    assert.equal(o.depositedAmount, 10_000);
  });

  it('When an order is not held (registered, one-phase deposited, declined, authenticating), then a deposit is "7"', () => {
    const registered = order(undefined, true);
    assert.equal(refusal(() => deposit(registered, 0, LATER)), '7 Wrong order state');
    const onePhase = order();
    approve(onePhase, NOW);
    assert.equal(refusal(() => deposit(onePhase, 0, LATER)), '7 Wrong order state');
    const declined = order(undefined, true);
    decline(declined, 'card_declined');
    assert.equal(refusal(() => deposit(declined, 0, LATER)), '7 Wrong order state');
    const authenticating = order(undefined, true);
    startChallenge(authenticating);
    assert.equal(refusal(() => deposit(authenticating, 0, LATER)), '7 Wrong order state');
    assert.equal(authenticating.status, 5);
  });

  it('When a hold is reversed, then it is released (status 3, nothing approved or deposited) once, and can no longer be deposited', () => {
    const o = order(undefined, true);
    approve(o, NOW);
    reverse(o);
    assert.deepEqual([o.status, o.approvedAmount, o.depositedAmount, o.depositedAt], [3, 0, 0, undefined]);
    assert.equal(refusal(() => reverse(o)), '7 Wrong order state');
    assert.equal(refusal(() => deposit(o, 0, LATER)), '7 Wrong order state');
  });

  it('When a deposited two-phase order is reversed, then it is reversed as a one-phase one is', () => {
    const o = order(undefined, true);
    approve(o, NOW);
    deposit(o, 0, LATER);
    reverse(o);
    assert.deepEqual([o.status, o.approvedAmount, o.depositedAmount], [3, 0, 0]);
  });

  it('When an attempt is finished, then the redirect is returnUrl, or failUrl after a decline when there is one', () => {
    const approved = order('https://m.example/fail');
    approve(approved, NOW);
    assert.equal(finishRedirect(approved), 'https://m.example/r?orderId=o-1');
    const declined = order('https://m.example/fail');
    decline(declined, 'card_declined');
    assert.equal(finishRedirect(declined), 'https://m.example/fail?orderId=o-1');
    const declinedNoFail = order();
    decline(declinedNoFail, 'card_declined');
    assert.equal(finishRedirect(declinedNoFail), 'https://m.example/r?orderId=o-1');
  });

  it('When orderId is added to a URL, then the existing query and fragment stay as written', () => {
    assert.equal(withQueryParam('https://m.example/r', 'orderId', 'x'), 'https://m.example/r?orderId=x');
    assert.equal(withQueryParam('https://m.example/r?a=1%202', 'orderId', 'x'), 'https://m.example/r?a=1%202&orderId=x');
    assert.equal(withQueryParam('https://m.example/r?', 'orderId', 'x'), 'https://m.example/r?orderId=x');
    assert.equal(withQueryParam('https://m.example/r?a=1#top', 'orderId', 'x'), 'https://m.example/r?a=1&orderId=x#top');
  });
});
