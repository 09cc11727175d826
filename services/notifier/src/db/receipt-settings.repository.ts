/** Storage of merchants' receipts switches (D20, D29): one row per merchant and mode once set; none means the mode's default, on in live, off in test. */
import type { Pool } from '@gateway/db';

export class ReceiptSettingsRepository {
  constructor(private readonly pool: Pool) {}

  /** Whether buyers of the account get receipts: the merchant's choice, else on in live mode and off in test mode (a test receipt could go to anyone a stranger names). */
  async receiptsEnabled(merchantId: string, livemode: boolean): Promise<boolean> {
    const { rows } = await this.pool.query<{ receipts_enabled: boolean }>('SELECT receipts_enabled FROM receipt_settings WHERE merchant_id = $1 AND livemode = $2', [merchantId, livemode]);
    return rows[0]?.receipts_enabled ?? livemode;
  }

  async setReceiptsEnabled(merchantId: string, livemode: boolean, enabled: boolean, at: Date): Promise<boolean> {
    const { rows } = await this.pool.query<{ receipts_enabled: boolean }>(
      `INSERT INTO receipt_settings (merchant_id, livemode, receipts_enabled, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_id, livemode) DO UPDATE SET receipts_enabled = EXCLUDED.receipts_enabled, updated_at = EXCLUDED.updated_at
       RETURNING receipts_enabled`,
      [merchantId, livemode, enabled, at],
    );
    return rows[0]?.receipts_enabled ?? enabled;
  }
}
