/** Storage of whether a merchant is suspended, as the session service last heard it (merchant_standing). */
import type { Pool } from '@gateway/db';

export class MerchantStandingRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Records that `merchantId` is (or is no longer) suspended, as an event of
   * `at` announced it; an announcement older than the one recorded changes
   * nothing. Whether it changed the standing.
   */
  async set(merchantId: string, suspended: boolean, at: Date): Promise<boolean> {
    const result = await this.pool.query(
      `INSERT INTO merchant_standing (merchant_id, suspended, changed_at) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_id) DO UPDATE SET suspended = EXCLUDED.suspended, changed_at = EXCLUDED.changed_at
       WHERE merchant_standing.changed_at < EXCLUDED.changed_at`,
      [merchantId, suspended, at],
    );
    return result.rowCount === 1;
  }
}
