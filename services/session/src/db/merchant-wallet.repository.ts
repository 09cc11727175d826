/** Storage of whether a merchant's live Flouci is connected, as the session service last heard it (merchant_wallets, D26). */
import type { Pool } from '@gateway/db';

export class MerchantWalletRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Records that `merchantId`'s live Flouci is (or is no longer) connected, as
   * an event of `at` announced it; an announcement older than the one
   * recorded changes nothing. Whether it changed what is recorded.
   */
  async set(merchantId: string, flouciLive: boolean, at: Date): Promise<boolean> {
    const result = await this.pool.query(
      `INSERT INTO merchant_wallets (merchant_id, flouci_live, changed_at) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_id) DO UPDATE SET flouci_live = EXCLUDED.flouci_live, changed_at = EXCLUDED.changed_at
       WHERE merchant_wallets.changed_at < EXCLUDED.changed_at`,
      [merchantId, flouciLive, at],
    );
    return result.rowCount === 1;
  }
}
