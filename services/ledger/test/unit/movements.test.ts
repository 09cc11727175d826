/**
 * What the ledger writes for each money event (D21, D22), and the days it
 * counts them on, without servers.
 */
import assert from 'node:assert/strict';
import { addDays, daysBetween, isCalendarDate, tunisDate } from '@gateway/contracts';
import { entryOf } from '../../src/domain/record-movements.js';
import { paymentMovement, refundMovements } from '../../src/domain/movements.js';
import { refundData, succeededData } from '../support/money-events.js';

const AT = new Date('2026-11-26T10:00:00Z');
const succeeded = succeededData;
const refundEvent = (status: 'succeeded' | 'pending' | 'failed') => refundData('15.5', status);
/** A Flouci payment as the session's events name it (D26): the wallet for brand, no last four. */
const FLOUCI = { method: 'flouci', card_brand: 'flouci', card_last_four: '', card_country: '', fee_amount: '0.300', net_amount: '99.700' };

describe('What a money event writes to the ledger (D21)', () => {
  it('when a session succeeds, then its payment is the amount with the fee the event carries, net the difference, dated when it was paid', () => {
    const movement = paymentMovement(succeeded({}), AT);
    assert.deepEqual(
      { type: movement.type, source: movement.source, amount: movement.amount, fee: movement.fee, net: movement.net, at: movement.createdAt.toISOString(), method: movement.paymentMethod },
      { type: 'payment', source: 'ps_AAAAAAAAAAAAAAAAAAAAAAAA', amount: '100.000', fee: '2.750', net: '97.250', at: '2026-11-25T22:59:59.000Z', method: 'card' },
    );
  });

  it('when a held payment was captured in part, then the payment is the captured amount and its fee, not the amount held (D22)', () => {
    const movement = paymentMovement(
      succeeded({ amount_authorized: '100.000', amount_captured: '60.000', payment: { method: 'card', card_brand: 'VISA', card_last_four: '4242', card_country: 'TN', fee_amount: '1.650', net_amount: '58.350' } }),
      AT,
    );
    assert.deepEqual([movement.amount, movement.fee, movement.net], ['60.000', '1.650', '58.350']);
  });

  it('when a refund is created, then it is one negative entry without fee, whatever its status', () => {
    for (const status of ['succeeded', 'pending'] as const) {
      const [refund, ...rest] = refundMovements('refund.created', refundEvent(status), AT);
      assert.deepEqual([refund?.type, refund?.source, refund?.amount, refund?.fee, refund?.net, rest.length], ['refund', 're_AAAAAAAAAAAAAAAAAAAAAAAA', '-15.500', '0.000', '-15.500', 0]);
    }
  });

  it('when an operator resolves a refund as failed, then it is given back (with the refund itself, should its creation not be written yet); as succeeded, nothing more moves', () => {
    const moved = refundMovements('refund.updated', refundEvent('failed'), AT);
    assert.deepEqual(
      moved.map((m) => [m.type, m.amount, m.net]),
      [
        ['refund', '-15.500', '-15.500'],
        ['refund_reversal', '15.500', '15.500'],
      ],
    );
    assert.deepEqual(refundMovements('refund.updated', refundEvent('succeeded'), AT), []);
  });

  it('when a session was paid with Flouci, then its payment, its refund and the refund given back each say flouci (D26)', () => {
    const payment = paymentMovement(succeeded({ payment: FLOUCI }), AT);
    assert.deepEqual([payment.type, payment.paymentMethod, payment.amount, payment.fee], ['payment', 'flouci', '100.000', '0.300']);
    const refund = refundData('15.5', 'failed', { payment: FLOUCI });
    const moved = [...refundMovements('refund.created', refund, AT), ...refundMovements('refund.updated', refund, AT)];
    assert.deepEqual(
      moved.map((m) => [m.type, m.paymentMethod]),
      [
        ['refund', 'flouci'],
        ['refund', 'flouci'],
        ['refund_reversal', 'flouci'],
      ],
    );
  });

  it('when an event names no method (written before wallets were taken), then its money is a card payment, and a card payment says card', () => {
    const older = succeeded();
    delete older.session.payment;
    assert.equal(paymentMovement(older, AT).paymentMethod, 'card');
    assert.equal(paymentMovement(succeeded(), AT).paymentMethod, 'card');
    assert.deepEqual(
      refundMovements('refund.created', refundData('1.000', 'succeeded'), AT).map((m) => m.paymentMethod),
      ['card'],
    );
  });
});

describe('The days the ledger counts on (Africa/Tunis)', () => {
  it('when a payment is made a second before and a second after midnight in Tunis, then they fall on two days', () => {
    assert.equal(tunisDate(new Date('2026-11-25T22:59:59Z')), '2026-11-25');
    assert.equal(tunisDate(new Date('2026-11-25T23:00:01Z')), '2026-11-26');
    // Tunisia keeps UTC+1 all year: no summer time in July either.
    assert.equal(tunisDate(new Date('2026-07-01T23:30:00Z')), '2026-07-02');
  });

  it('when an entry is written, then it is available SETTLEMENT_DELAY_DAYS after its Tunis day, across months and years', () => {
    const entry = entryOf(paymentMovement(succeeded({ paid_at: '2026-12-30T23:30:00Z' }), AT), 2);
    assert.deepEqual([entry.day, entry.availableOn], ['2026-12-31', '2027-01-02']);
    assert.match(entry.id, /^txn_[0-9A-Za-z]{20,}$/);
    assert.equal(addDays('2028-02-28', 1), '2028-02-29');
  });

  it('when a date is checked, then only real calendar dates written YYYY-MM-DD pass, and a range counts both ends', () => {
    assert.deepEqual(['2026-02-28', '2026-02-30', '2026-13-01', '26-1-1', '2026-1-01', 'yesterday', '2028-02-29'].map(isCalendarDate), [true, false, false, false, false, false, true]);
    assert.equal(daysBetween('2026-01-01', '2026-01-01'), 1);
    assert.equal(daysBetween('2025-01-01', '2025-12-31'), 365);
  });
});
