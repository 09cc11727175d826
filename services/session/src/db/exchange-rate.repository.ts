/** Storage of a merchant's exchange rates, per mode and currency (D3, D14): the rate a session in that currency is converted at. */
import type { Pool } from '@gateway/db';
import type { Account } from '../domain/accounts.js';

export class ExchangeRateRepository {
  constructor(private readonly pool: Pool) {}

  /** The account's rate for `currency`; undefined when none is set. */
  async find(account: Account, currency: string): Promise<string | undefined> {
    const result = await this.pool.query<{ rate: string }>('SELECT rate FROM exchange_rates WHERE merchant_id = $1 AND livemode = $2 AND currency = $3', [
      account.merchantId,
      account.livemode,
      currency,
    ]);
    return result.rows[0]?.rate;
  }

  /** The account's rates, in currency order; rate as numeric(18,6) text. */
  async list(account: Account): Promise<{ currency: string; rate: string; updated_at: Date }[]> {
    const result = await this.pool.query<{ currency: string; rate: string; updated_at: Date }>(
      'SELECT currency, rate::text AS rate, updated_at FROM exchange_rates WHERE merchant_id = $1 AND livemode = $2 ORDER BY currency',
      [account.merchantId, account.livemode],
    );
    return result.rows;
  }

  /** Sets the account's rate for `currency`; the rate as stored. */
  async set(account: Account, currency: string, rate: string): Promise<string> {
    const result = await this.pool.query<{ rate: string }>(
      `INSERT INTO exchange_rates (merchant_id, livemode, currency, rate) VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_id, livemode, currency) DO UPDATE SET rate = EXCLUDED.rate, updated_at = now()
       RETURNING rate`,
      [account.merchantId, account.livemode, currency, rate],
    );
    return result.rows[0]?.rate ?? rate;
  }

  /** Removes the account's rate for `currency`; whether there was one. */
  async remove(account: Account, currency: string): Promise<boolean> {
    const result = await this.pool.query('DELETE FROM exchange_rates WHERE merchant_id = $1 AND livemode = $2 AND currency = $3', [
      account.merchantId,
      account.livemode,
      currency,
    ]);
    return result.rowCount === 1;
  }
}
