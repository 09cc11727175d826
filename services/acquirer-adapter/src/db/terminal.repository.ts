/** Merchants' acquirer terminals and pricing, as operators set them (D13). */
import type { Pool } from '@gateway/db';
import type { Pricing } from '@gateway/money';

export interface TerminalRow {
  user_name: string;
  password: string;
  active: boolean;
  rejected_at: Date | null;
  /** When the operator last set it (credentials or active). */
  updated_at: Date;
}

export class TerminalRepository {
  constructor(private readonly pool: Pool) {}

  async find(merchantId: string, livemode: boolean): Promise<TerminalRow | undefined> {
    const result = await this.pool.query<TerminalRow>({
      name: 'terminal-find',
      text: 'SELECT user_name, password, active, rejected_at, updated_at FROM terminals WHERE merchant_id = $1 AND livemode = $2',
      values: [merchantId, livemode],
    });
    return result.rows[0];
  }

  /** Sets the terminal; new credentials clear an earlier rejection. */
  async upsert(merchantId: string, livemode: boolean, terminal: { userName: string; password: string; active: boolean }): Promise<void> {
    await this.pool.query(
      `INSERT INTO terminals (merchant_id, livemode, user_name, password, active) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (merchant_id, livemode) DO UPDATE
         SET user_name = EXCLUDED.user_name, password = EXCLUDED.password, active = EXCLUDED.active, rejected_at = NULL, updated_at = now()`,
      [merchantId, livemode, terminal.userName, terminal.password, terminal.active],
    );
  }

  /** Remembers that the acquirer refused these credentials (unless they changed meanwhile). */
  async markRejected(merchantId: string, livemode: boolean, userName: string, password: string): Promise<void> {
    await this.pool.query(
      'UPDATE terminals SET rejected_at = now() WHERE merchant_id = $1 AND livemode = $2 AND user_name = $3 AND password = $4 AND rejected_at IS NULL',
      [merchantId, livemode, userName, password],
    );
  }

  async setPricing(merchantId: string, pricing: Pricing): Promise<void> {
    await this.pool.query(
      `INSERT INTO pricing (merchant_id, percent, fixed) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_id) DO UPDATE SET percent = EXCLUDED.percent, fixed = EXCLUDED.fixed, updated_at = now()`,
      [merchantId, pricing.percent, pricing.fixed],
    );
  }
}
