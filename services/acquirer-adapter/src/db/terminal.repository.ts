/**
 * Merchants' acquirer terminals and pricing, as operators set them (D13).
 * Terminal passwords are stored encrypted (D17), each bound to its terminal,
 * and decrypted only to call the acquirer.
 */
import { withTransaction, type Pool } from '@gateway/db';
import type { Pricing } from '@gateway/money';
import type { PlaintextColumns, SecretBox } from '@gateway/secrets';

export interface TerminalRow {
  user_name: string;
  password: string;
  active: boolean;
  rejected_at: Date | null;
  /** When the operator last set it (credentials or active). */
  updated_at: Date;
}

/** What a terminal password's ciphertext is bound to: a copy in another row does not decrypt. */
function passwordAad(merchantId: string, livemode: boolean): string {
  return `acquirer.terminals.password:${merchantId}:${livemode ? 'live' : 'test'}`;
}

/** The clear password column of terminals before D17, which the adapter encrypts and drops as it starts. */
export const PLAINTEXT_TERMINAL_PASSWORDS: PlaintextColumns = {
  table: 'terminals',
  key: ['merchant_id', 'livemode'],
  columns: [{ plain: 'password', cipher: 'password_ciphertext', aad: (row) => passwordAad(String(row['merchant_id']), row['livemode'] === true) }],
};

export class TerminalRepository {
  constructor(
    private readonly pool: Pool,
    private readonly secrets: SecretBox,
  ) {}

  /** The terminal with its password decrypted, or undefined. */
  async find(merchantId: string, livemode: boolean): Promise<TerminalRow | undefined> {
    const result = await this.pool.query<Omit<TerminalRow, 'password'> & { password_ciphertext: string }>({
      name: 'terminal-find',
      text: 'SELECT user_name, password_ciphertext, active, rejected_at, updated_at FROM terminals WHERE merchant_id = $1 AND livemode = $2',
      values: [merchantId, livemode],
    });
    const row = result.rows[0];
    if (!row) return undefined;
    const { password_ciphertext, ...rest } = row;
    return { ...rest, password: await this.secrets.decrypt(password_ciphertext, passwordAad(merchantId, livemode)) };
  }

  /** The terminal's user name and whether it is active, or undefined when none is set; its password is not read. */
  async findSummary(merchantId: string, livemode: boolean): Promise<{ user_name: string; active: boolean } | undefined> {
    const result = await this.pool.query<{ user_name: string; active: boolean }>('SELECT user_name, active FROM terminals WHERE merchant_id = $1 AND livemode = $2', [
      merchantId,
      livemode,
    ]);
    return result.rows[0];
  }

  /** Sets the terminal; new credentials clear an earlier rejection. */
  async upsert(merchantId: string, livemode: boolean, terminal: { userName: string; password: string; active: boolean }): Promise<void> {
    await this.pool.query(
      `INSERT INTO terminals (merchant_id, livemode, user_name, password_ciphertext, active) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (merchant_id, livemode) DO UPDATE
         SET user_name = EXCLUDED.user_name, password_ciphertext = EXCLUDED.password_ciphertext, active = EXCLUDED.active, rejected_at = NULL, updated_at = now()`,
      [merchantId, livemode, terminal.userName, this.secrets.encrypt(terminal.password, passwordAad(merchantId, livemode)), terminal.active],
    );
  }

  /**
   * Remembers that the acquirer refused these credentials (unless they changed
   * meanwhile). The stored password is compared in clear, under the row's
   * lock: its ciphertext differs at every `terminal set`, even of the same one.
   */
  async markRejected(merchantId: string, livemode: boolean, userName: string, password: string): Promise<void> {
    await withTransaction(this.pool, async (tx) => {
      const result = await tx.query<{ user_name: string; password_ciphertext: string }>(
        'SELECT user_name, password_ciphertext FROM terminals WHERE merchant_id = $1 AND livemode = $2 AND rejected_at IS NULL FOR UPDATE',
        [merchantId, livemode],
      );
      const row = result.rows[0];
      if (!row || row.user_name !== userName || (await this.secrets.decrypt(row.password_ciphertext, passwordAad(merchantId, livemode))) !== password) return;
      await tx.query('UPDATE terminals SET rejected_at = now() WHERE merchant_id = $1 AND livemode = $2', [merchantId, livemode]);
    });
  }

  /** The merchant's own pricing, as stored; undefined when it has none (the default applies). */
  async findPricing(merchantId: string): Promise<Pricing | undefined> {
    const result = await this.pool.query<Pricing>('SELECT percent::text AS percent, fixed::text AS fixed FROM pricing WHERE merchant_id = $1', [merchantId]);
    return result.rows[0];
  }

  async setPricing(merchantId: string, pricing: Pricing): Promise<void> {
    await this.pool.query(
      `INSERT INTO pricing (merchant_id, percent, fixed) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_id) DO UPDATE SET percent = EXCLUDED.percent, fixed = EXCLUDED.fixed, updated_at = now()`,
      [merchantId, pricing.percent, pricing.fixed],
    );
  }
}
