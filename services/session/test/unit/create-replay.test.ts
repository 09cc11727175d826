/**
 * A repeated merchant_reference (D3) without servers: which replays conflict,
 * and when a replay mints a fresh link instead of answering the stored one.
 */
import assert from 'node:assert/strict';
import { needsFreshCheckoutLink, sameAmount } from '../../src/domain/create-session.js';
import { checkCreateRequest } from '../../src/domain/validate-create-request.js';

const buyer = { merchant_reference: 'order-1', first_name: 'Amira', last_name: 'Ben Salah', email: 'amira@example.tn' };
const stored = { original_amount: '10.00', original_currency: 'EUR' };

/** The request as create checks it. */
function request(fields: Record<string, unknown>) {
  const checked = checkCreateRequest({ ...buyer, ...fields }, false);
  assert.ok(checked.ok, JSON.stringify(fields));
  return checked.request;
}

describe('Replaying a create (D3)', () => {
  it('when the replay asks the same amount in the same currency, whatever its case, then it is the same request', () => {
    assert.equal(sameAmount(stored, request({ amount: '10.00', currency: 'EUR' })), true);
    assert.equal(sameAmount(stored, request({ amount: '10.00', currency: 'eur' })), true);
  });

  it('when other fields differ, then it is still the same request: the stored snapshot answers', () => {
    assert.equal(sameAmount(stored, request({ amount: '10.00', currency: 'EUR', description: 'Something else', first_name: 'Other' })), true);
  });

  it('when the amount or the currency differs, then it is a conflict', () => {
    assert.equal(sameAmount(stored, request({ amount: '10.01', currency: 'EUR' })), false);
    assert.equal(sameAmount(stored, request({ amount: '10.00', currency: 'USD' })), false);
    assert.equal(sameAmount({ original_amount: '10.000', original_currency: 'TND' }, request({ amount: '10.000' })), true, 'currency defaults to TND');
  });

  const now = new Date('2026-11-22T10:00:00.000Z');
  const lapsed = new Date('2026-11-22T09:59:59.999Z');
  const live = new Date('2026-11-22T10:00:00.001Z');
  const tomorrow = new Date('2026-11-23T10:00:00.000Z');

  it('when the session is open and its newest link has lapsed, then the replay mints a fresh one', () => {
    assert.equal(needsFreshCheckoutLink({ status: 'CREATED', expires_at: tomorrow, checkout_expires_at: lapsed }, now), true);
    assert.equal(needsFreshCheckoutLink({ status: 'PENDING', expires_at: tomorrow, checkout_expires_at: now }, now), true, 'a link lapses at its expiry');
  });

  it('when the newest link is still live, then the replay answers it', () => {
    assert.equal(needsFreshCheckoutLink({ status: 'CREATED', expires_at: tomorrow, checkout_expires_at: live }, now), false);
  });

  it('when the session is being paid, is terminal, or its lifetime has ended, then no link is minted', () => {
    for (const status of ['PROCESSING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'EXPIRED'] as const) {
      assert.equal(needsFreshCheckoutLink({ status, expires_at: tomorrow, checkout_expires_at: lapsed }, now), false, status);
    }
    assert.equal(needsFreshCheckoutLink({ status: 'CREATED', expires_at: now, checkout_expires_at: lapsed }, now), false, 'expired before the sweep');
  });
});
