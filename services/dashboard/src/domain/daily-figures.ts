/**
 * Figures of a merchant's days (D21), summed from the ledger's daily report
 * (money, as decimal strings) and the session service's per-day counts of
 * attempts: a period's figures for Home, a range's totals for Reports.
 */
import type { DailyReport, SessionStats } from '@gateway/contracts';
import { addTnd, compareTnd } from '@gateway/money';

/** One day of the daily report. */
export type ReportDay = DailyReport['data'][number];

/** One period's figures. */
export interface PeriodFigures {
  gross: string;
  net: string;
  refunds: string;
  payments: number;
  succeeded: number;
  failed: number;
}

/** The figures of the days from `since` on. */
export function figuresSince(report: DailyReport, stats: SessionStats, since: string): PeriodFigures {
  const sum: PeriodFigures = { gross: '0.000', net: '0.000', refunds: '0.000', payments: 0, succeeded: 0, failed: 0 };
  for (const day of report.data) {
    if (day.date < since) continue;
    sum.gross = addTnd(sum.gross, day.gross);
    sum.net = addTnd(sum.net, day.net);
    sum.refunds = addTnd(sum.refunds, day.refunds);
    sum.payments += day.payments_count;
  }
  for (const day of stats.data) {
    if (day.date < since) continue;
    sum.succeeded += day.attempts_succeeded;
    sum.failed += day.attempts_failed;
  }
  return sum;
}

/** The share of approved attempts among those that had an answer; undefined when none had. */
export function successShare(figures: PeriodFigures): number | undefined {
  const answered = figures.succeeded + figures.failed;
  return answered === 0 ? undefined : figures.succeeded / answered;
}

/** The report's gross in all, and its highest day (the first of equals), if it has days. */
export function grossOf(report: DailyReport): { total: string; highest: ReportDay | undefined } {
  const total = report.data.reduce((sum, day) => addTnd(sum, day.gross), '0.000');
  const highest = report.data.reduce<ReportDay | undefined>((best, day) => (best === undefined || compareTnd(day.gross, best.gross) > 0 ? day : best), undefined);
  return { total, highest };
}

/** Whether an amount is zero. */
export function isZero(amount: string): boolean {
  return compareTnd(amount, '0') === 0;
}

/** The totals of a report's days: payments, gross, fees, refunds and net. */
export function totalsOf(report: DailyReport): Pick<ReportDay, 'payments_count' | 'gross' | 'fees' | 'refunds' | 'net'> {
  const total = { payments_count: 0, gross: '0.000', fees: '0.000', refunds: '0.000', net: '0.000' };
  for (const day of report.data) {
    total.payments_count += day.payments_count;
    total.gross = addTnd(total.gross, day.gross);
    total.fees = addTnd(total.fees, day.fees);
    total.refunds = addTnd(total.refunds, day.refunds);
    total.net = addTnd(total.net, day.net);
  }
  return total;
}
