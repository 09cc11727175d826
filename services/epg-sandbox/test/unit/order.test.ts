import assert from 'node:assert/strict';
import { EpgError } from '../../src/domain/epg-error.js';
import { attachCard, decline, deposit, finishRedirect, refund, registeredOrder, reverse, startChallenge, type Order } from '../../src/domain/order.js';
import { withQueryParam } from '../../src/domain/urls.js';

const NOW = new Date('2026-05-15T12:00:00Z');

function order(failUrl?: string): Order {
  const o = registeredOrder({ orderId: 'o-1', terminal: 't', orderNumber: 'N1', amount: 10_000, returnUrl: 'https://m.example/r', failUrl, language: 'fr', registeredAt: NOW.getTime() });
  attachCard(o, { maskedPan: '424242**4242', expiration: '202812', cardholderName: '', behaviour: 'approve' });
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
  it('When an order is deposited, then it is status 2 with the whole amount approved and deposited', () => {
    const o = order();
    deposit(o, NOW);
    assert.equal(o.status, 2);
    assert.equal(o.action.code, 0);
    assert.equal(o.depositedAt, NOW.getTime());
    assert.deepEqual([o.approvedAmount, o.depositedAmount, o.refundedAmount], [10_000, 10_000, 0]);
  });

  it('When a challenge starts, then only its end (deposit or decline) may follow', () => {
    const o = order();
    startChallenge(o);
    assert.equal(o.status, 5);
    assert.equal(refusal(() => reverse(o)), '7 Wrong order state');
    assert.equal(refusal(() => startChallenge(o)), '7 Wrong order state');
    decline(o, 'authentication_failed');
    assert.deepEqual([o.status, o.action.code], [6, 2006]);
    assert.equal(refusal(() => deposit(o, NOW)), '7 Wrong order state');
  });

  it('When a deposited order is refunded, then it may be refunded again until nothing is left but never reversed', () => {
    const o = order();
    deposit(o, NOW);
    refund(o, 4_000);
    refund(o, 6_000);
    assert.deepEqual([o.status, o.refundedAmount], [4, 10_000]);
    assert.throws(() => refund(o, 1), RangeError);
    assert.equal(refusal(() => reverse(o)), '7 Wrong order state');
  });

  it('When a deposited order is reversed, then nothing is deposited any more and it cannot be reversed or refunded again', () => {
    const o = order();
    deposit(o, NOW);
    reverse(o);
    assert.deepEqual([o.status, o.depositedAmount, o.refundedAmount], [3, 0, 0]);
    assert.equal(refusal(() => reverse(o)), '7 Wrong order state');
    assert.equal(refusal(() => refund(o, 1)), '7 Wrong order state');
  });

  it('When an attempt is finished, then the redirect is returnUrl, or failUrl after a decline when there is one', () => {
    const approved = order('https://m.example/fail');
    deposit(approved, NOW);
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
