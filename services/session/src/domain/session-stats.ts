/**
 * How an account's payment attempts went over a range of Africa/Tunis days
 * (D21, the dashboard's Home page): approved and declined attempts each day,
 * and the declines by failure code. Read from the per-day counts written with
 * each attempt's outcome (attempt_days), never from the attempts themselves,
 * so thirty days cost a few rows a day however many payments they held.
 */
import { datesFrom, dayRangeOf, type ApiContext, type SessionStats } from '@gateway/contracts';
import { queryProblem } from '@gateway/problem';
import { accountOf } from './accounts.js';
import type { SessionDeps } from './deps.js';

/** The stats of `query` {from, to}: the daily report's dates, checked as it checks them. */
export async function readSessionStats(deps: Pick<SessionDeps, 'stats'>, context: ApiContext, query: Record<string, unknown>): Promise<SessionStats> {
  const checked = dayRangeOf(query);
  if ('errors' in checked) throw queryProblem(checked.errors, query);
  const { from, to } = checked.range;
  const rows = await deps.stats.attemptDays(accountOf(context), from, to);
  const days = new Map(datesFrom(from, to).map((date) => [date, { date, attempts_succeeded: 0, attempts_failed: 0 }]));
  const failures = new Map<string, number>();
  for (const row of rows) {
    const day = days.get(row.day);
    if (!day) continue;
    if (row.status === 'SUCCEEDED') {
      day.attempts_succeeded += row.attempts;
    } else {
      day.attempts_failed += row.attempts;
      failures.set(row.failure_code, (failures.get(row.failure_code) ?? 0) + row.attempts);
    }
  }
  return {
    data: [...days.values()],
    failures: [...failures]
      .map(([failure_code, count]) => ({ failure_code, count }))
      .sort((a, b) => b.count - a.count || a.failure_code.localeCompare(b.failure_code)),
    livemode: context.livemode,
  };
}
