/** The figures Home and Reports show, summed from the daily report and the attempts' stats, and a payment link's state. */
import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { DailyReport, PaymentLink, SessionStats } from '@gateway/contracts';
import { figuresSince, grossOf, successShare, totalsOf } from '../../src/domain/daily-figures.js';
import { stateOf } from '../../src/domain/payment-link-state.js';

const day = (date: string, gross: string, fees: string, refunds: string, net: string, payments_count: number) => ({ date, gross, fees, refunds, net, payments_count });
const report = { data: [day('2025-03-01', '100.000', '2.500', '0.000', '97.500', 2), day('2025-03-02', '50.500', '1.250', '-20.000', '29.250', 1), day('2025-03-03', '0.000', '0.000', '0.000', '0.000', 0)] } as unknown as DailyReport;
const stats = {
  data: [
    { date: '2025-03-01', attempts_succeeded: 2, attempts_failed: 1 },
    { date: '2025-03-02', attempts_succeeded: 1, attempts_failed: 2 },
  ],
  failures: [],
} as unknown as SessionStats;

describe('daily figures', () => {
  it('when a period starts on a day, then only that day and the later ones are summed, money as decimal strings', () => {
    assert.deepEqual(figuresSince(report, stats, '2025-03-02'), { gross: '50.500', net: '29.250', refunds: '-20.000', payments: 1, succeeded: 1, failed: 2 });
    assert.deepEqual(figuresSince(report, stats, '2025-01-01'), { gross: '150.500', net: '126.750', refunds: '-20.000', payments: 3, succeeded: 3, failed: 3 });
  });

  it('when no attempt had an answer, then there is no success share; otherwise approved among answered', () => {
    assert.equal(successShare(figuresSince(report, stats, '2025-03-03')), undefined);
    assert.equal(successShare(figuresSince(report, stats, '2025-01-01')), 0.5);
  });

  it('when a report is summed up, then its gross in all, its highest day and its totals are exact', () => {
    const { total, highest } = grossOf(report);
    assert.equal(total, '150.500');
    assert.equal(highest?.date, '2025-03-01');
    assert.deepEqual(totalsOf(report), { payments_count: 3, gross: '150.500', fees: '3.750', refunds: '-20.000', net: '126.750' });
    assert.equal(grossOf({ data: [] } as unknown as DailyReport).highest, undefined);
  });
});

describe('payment link state', () => {
  const link = (overrides: Partial<PaymentLink>) => ({ active: false, max_payments: null, payments_count: 0, expires_at: null, ...overrides }) as PaymentLink;
  const now = Date.parse('2025-03-01T12:00:00Z');

  it('when a link takes no payment, then its state says why: used up, expired, or deactivated', () => {
    assert.equal(stateOf(link({ active: true }), now), 'active');
    assert.equal(stateOf(link({ max_payments: 1, payments_count: 1 }), now), 'used up');
    assert.equal(stateOf(link({ expires_at: '2025-03-01T11:59:59Z' }), now), 'expired');
    assert.equal(stateOf(link({}), now), 'inactive');
  });
});
