/**
 * Hostile review of the ledger's pure parts (D21): what an event with odd
 * money makes of a balance transaction, the Africa/Tunis days at midnight and
 * on Feb 29, and the report ranges and list filters the contracts let through
 * to PostgreSQL, each kept as a regression test.
 */
import assert from 'node:assert/strict';
import { addDays, BalanceTransactionListQuery, dayRangeErrors, listFilterErrors, RefundListQuery, tunisDate } from '@gateway/contracts';
import { entryOf } from '../../src/domain/record-movements.js';
import { paymentMovement, refundMovements } from '../../src/domain/movements.js';
import { refundData, succeededData } from '../support/money-events.js';

const AT = new Date('2026-11-26T10:00:00Z');
const succeeded = succeededData;

/** Whether PostgreSQL's timestamptz / date input would take `text` (the values below are checked against psql 15). */
const POSTGRES_REFUSES = {
  // Year 0 does not exist for PostgreSQL: "date/time field value out of range".
  yearZeroTime: '0000-01-01T00:00:00Z',
  yearZeroDate: '0000-01-01',
  // PostgreSQL takes UTC offsets up to 15:59: "time zone displacement out of range".
  offset16: '2026-01-01T00:00:00+16:00',
  offset23: '2026-01-01T00:00:00-23:59',
};

describe('Ledger attacks: money in events (D5, D21)', () => {
  it('when a session.succeeded carries an amount with more than 3 decimals (100.0005), then the ledger refuses it instead of rounding it to 100.001', () => {
    // formatTnd rounds half-up: a payload TND can never hold becomes an amount nobody paid, silently.
    assert.throws(() => paymentMovement(succeeded({ amount: '100.0005' }), AT));
  });

  it('when a session.succeeded carries a fee with more than 3 decimals (2.7505), then the ledger refuses it instead of rounding the fee (and the net) by a millime', () => {
    const data = succeeded({ payment: { method: 'card', card_brand: 'VISA', card_last_four: '4242', card_country: 'TN', fee_amount: '2.7505', net_amount: '97.2495' } });
    assert.throws(() => paymentMovement(data, AT));
  });

  it('when a refund.created carries an amount with more than 3 decimals (15.5005), then the ledger refuses it instead of writing -15.501', () => {
    assert.throws(() => refundMovements('refund.created', refundData('15.5005'), AT));
  });

  it('when an amount is not a decimal at all (1e3, " 1.000", "", "1,000.000"), then the event is unreadable (dead-lettered at once), never a number', () => {
    for (const amount of ['1e3', ' 1.000', '', '1,000.000', 'NaN', 'Infinity', '0x10']) {
      assert.throws(() => paymentMovement(succeeded({ amount, amount_captured: amount === '' ? 'x' : amount }), AT), `amount ${JSON.stringify(amount)}`);
      assert.throws(() => refundMovements('refund.created', refundData(amount), AT), `refund ${JSON.stringify(amount)}`);
    }
  });

  it('when the biggest amount D5 allows is paid with a fee bigger than it, then every figure stays an exact decimal string (no float on the way)', () => {
    const movement = paymentMovement(
      succeeded({ amount: '999999.999', payment: { method: 'card', card_brand: 'VISA', card_last_four: '4242', card_country: 'TN', fee_amount: '0.001', net_amount: '999999.998' } }),
      AT,
    );
    assert.deepEqual([movement.amount, movement.fee, movement.net], ['999999.999', '0.001', '999999.998']);
    const [refund] = refundMovements('refund.created', refundData('0.001'), AT);
    assert.deepEqual([refund?.amount, refund?.net], ['-0.001', '-0.001']);
    // 0.1 + 0.2 is the classic float trap: summed as decimals.
    const odd = paymentMovement(succeeded({ amount: '0.300', payment: { method: 'card', card_brand: 'V', card_last_four: '1', card_country: 'TN', fee_amount: '0.100', net_amount: '0.200' } }), AT);
    assert.equal(odd.net, '0.200');
  });

  it('when a refund is resolved as succeeded, or is still pending in refund.updated, then nothing moves; resolved failed, the refund and its reversal cancel out', () => {
    assert.deepEqual(refundMovements('refund.updated', refundData('10.000', 'succeeded'), AT), []);
    assert.deepEqual(refundMovements('refund.updated', refundData('10.000', 'pending'), AT), []);
    const moved = refundMovements('refund.updated', refundData('10.000', 'failed'), AT);
    assert.deepEqual(
      moved.map((m) => [m.type, m.source, m.amount]),
      [
        ['refund', 're_AAAAAAAAAAAAAAAAAAAAAAAA', '-10.000'],
        ['refund_reversal', 're_AAAAAAAAAAAAAAAAAAAAAAAA', '10.000'],
      ],
    );
  });
});

describe('Ledger attacks: Africa/Tunis days (D21)', () => {
  it('when a payment is made in the last and first millisecond of a Tunis day, at New Year and around Feb 29, then it falls on the right day and is available two days later', () => {
    const cases: [string, string, string][] = [
      ['2026-12-31T22:59:59.999Z', '2026-12-31', '2027-01-02'],
      ['2026-12-31T23:00:00.000Z', '2027-01-01', '2027-01-03'],
      ['2028-02-28T22:59:59.999Z', '2028-02-28', '2028-03-01'],
      ['2028-02-28T23:00:00.000Z', '2028-02-29', '2028-03-02'],
      ['2028-02-29T23:00:00.000Z', '2028-03-01', '2028-03-03'],
      ['2027-02-28T23:00:00.000Z', '2027-03-01', '2027-03-03'],
      // No summer time in Tunisia: late June at 23:30 UTC is already the next day, as in winter.
      ['2026-06-30T23:30:00.000Z', '2026-07-01', '2026-07-03'],
    ];
    for (const [paidAt, day, available] of cases) {
      const entry = entryOf(paymentMovement(succeeded({ paid_at: paidAt }), AT), 2);
      assert.deepEqual([entry.day, entry.availableOn], [day, available], paidAt);
    }
    assert.equal(addDays('2028-03-01', -1), '2028-02-29');
    assert.equal(tunisDate(new Date('2100-02-28T23:00:00Z')), '2100-03-01', '2100 is no leap year');
  });

  it('when a report range is 366 days across a leap day it is taken, and 367 is refused on `to`', () => {
    assert.deepEqual(dayRangeErrors({ from: '2023-03-01', to: '2024-02-29' }), []);
    assert.deepEqual(dayRangeErrors({ from: '2024-01-01', to: '2024-12-31' }), []);
    assert.deepEqual(dayRangeErrors({ from: '2025-01-01', to: '2026-01-01' }), []);
    assert.deepEqual(
      dayRangeErrors({ from: '2023-03-01', to: '2024-03-01' }).map((e) => e.field),
      ['to'],
    );
    assert.deepEqual(
      dayRangeErrors({ from: '2025-01-01', to: '2026-01-02' }).map((e) => e.field),
      ['to'],
    );
    assert.deepEqual(
      dayRangeErrors({ from: '2025-02-29', to: '2025-03-01' }).map((e) => e.field),
      ['from'],
    );
  });

  it('when a report range starts on 0000-01-01 (a date PostgreSQL refuses), then the range check refuses it rather than letting it reach the SQL (a 500)', () => {
    const fields = dayRangeErrors({ from: POSTGRES_REFUSES.yearZeroDate, to: '0000-01-02' }).map((e) => e.field);
    assert.ok(fields.includes('from'), `refused: ${JSON.stringify(fields)}`);
  });
});

describe('Ledger attacks: list filters that reach PostgreSQL (D6)', () => {
  it('when created[gte] or created[lte] is a date-time PostgreSQL cannot read (year 0000, an offset past 15:59), then the list contract refuses it as invalid', () => {
    for (const schema of [BalanceTransactionListQuery, RefundListQuery]) {
      for (const value of [POSTGRES_REFUSES.yearZeroTime, POSTGRES_REFUSES.offset16, POSTGRES_REFUSES.offset23]) {
        assert.deepEqual(
          listFilterErrors(schema, { 'created[gte]': value }).map((e) => [e.field, e.code]),
          [['created[gte]', 'invalid']],
          value,
        );
      }
    }
  });

  it('when a filter carries SQL, quotes, NUL-free odd characters or an array, then the contract refuses type and created, and session_id is only ever a bound parameter', () => {
    const refused: Record<string, unknown>[] = [
      { type: "payment' OR '1'='1" },
      { type: ['payment', 'refund'] },
      { 'created[gte]': "2026-01-01T00:00:00Z' OR 1=1 --" },
      { 'created[gte]': '2026-01-01T00:00:00Z;DROP TABLE balance_transactions' },
      { 'created[gte]': ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'] },
      { session_id: 'x'.repeat(65) },
      { session_id: '' },
      { 'type[$ne]': 'payment' },
    ];
    for (const query of refused) assert.ok(listFilterErrors(BalanceTransactionListQuery, query).length > 0, JSON.stringify(query));
  });
});
