/** Storage of merchants' receipts switches (D20, D29): one row per merchant and mode once set; none means the mode's default, on in live, off in test. */
import type { Pool } from '@gateway/db';
import { KeptAnswers } from '../kept-answers.js';

/** Switches a replica keeps in memory at most (two per merchant). */
const MAX_CACHED = 10_000;

export class ReceiptSettingsRepository {
  private readonly kept: KeptAnswers<boolean>;

  /** `cacheMs`: how long a receipt goes by a switch as read before it is read again (0: every time). */
  constructor(
    private readonly pool: Pool,
    cacheMs = 0,
  ) {
    this.kept = new KeptAnswers(cacheMs, MAX_CACHED);
  }

  /** Whether buyers of the account get receipts: the merchant's choice, else on in live mode and off in test mode (a test receipt could go to anyone a stranger names). */
  async receiptsEnabled(merchantId: string, livemode: boolean): Promise<boolean> {
    const { rows } = await this.pool.query<{ receipts_enabled: boolean }>('SELECT receipts_enabled FROM receipt_settings WHERE merchant_id = $1 AND livemode = $2', [merchantId, livemode]);
    return rows[0]?.receipts_enabled ?? livemode;
  }

  /**
   * The switch as a receipt goes by it: kept `cacheMs` once read, so a burst of
   * payments (or test payments, whose receipts are mostly off) does not read it
   * each time. This replica's own set is seen at once, another replica's within
   * `cacheMs`. The Settings page reads receiptsEnabled, never this.
   */
  async receiptsEnabledForReceipt(merchantId: string, livemode: boolean): Promise<boolean> {
    return this.kept.get(keyOf(merchantId, livemode), () => this.receiptsEnabled(merchantId, livemode));
  }

  async setReceiptsEnabled(merchantId: string, livemode: boolean, enabled: boolean, at: Date): Promise<boolean> {
    try {
      const { rows } = await this.pool.query<{ receipts_enabled: boolean }>(
        `INSERT INTO receipt_settings (merchant_id, livemode, receipts_enabled, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (merchant_id, livemode) DO UPDATE SET receipts_enabled = EXCLUDED.receipts_enabled, updated_at = EXCLUDED.updated_at
         RETURNING receipts_enabled`,
        [merchantId, livemode, enabled, at],
      );
      return rows[0]?.receipts_enabled ?? enabled;
    } finally {
      // Forgotten, with any read still out (it may have read the row before this write), rather than
      // replaced: of two sets at once, the one answered last need not be the one written last.
      this.kept.forget(keyOf(merchantId, livemode));
    }
  }
}

function keyOf(merchantId: string, livemode: boolean): string {
  return `${merchantId} ${livemode ? 'live' : 'test'}`;
}
