/**
 * Reading an account's payment attempts by Africa/Tunis day (attempt_days),
 * which the statement recording each attempt's outcome counts
 * (AttemptRepository.resolve).
 */
import type { Pool } from '@gateway/db';
import type { Account } from '../domain/accounts.js';

/** One account's attempts of one Tunis day with one outcome (and failure code), as attempt_days sums them. */
export interface AttemptDayRow {
  day: string;
  status: 'SUCCEEDED' | 'FAILED';
  failure_code: string;
  attempts: number;
}

export class SessionStatsRepository {
  constructor(private readonly pool: Pool) {}

  /** The account's attempts from Tunis day `from` to `to` (both included) by day, outcome and failure code: a few rows a day, from attempt_days' key. */
  async attemptDays(account: Account, from: string, to: string): Promise<AttemptDayRow[]> {
    const result = await this.pool.query<AttemptDayRow>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, status, failure_code, sum(attempts)::integer AS attempts
       FROM attempt_days WHERE merchant_id = $1 AND livemode = $2 AND day BETWEEN $3::date AND $4::date
       GROUP BY day, status, failure_code`,
      [account.merchantId, account.livemode, from, to],
    );
    return result.rows;
  }
}
