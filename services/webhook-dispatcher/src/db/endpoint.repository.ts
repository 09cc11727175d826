/** Webhook endpoints: one URL and one signing secret per merchant and mode. */
import type { Pool } from '@gateway/db';

export interface Endpoint {
  merchantId: string;
  livemode: boolean;
  url: string;
  secret: string;
}

export class EndpointRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Creates the endpoint with `secret` when the merchant has none in this mode,
   * else keeps its secret; sets the URL when one is given. Returns the endpoint.
   */
  async provision(merchantId: string, livemode: boolean, url: string | undefined, secret: string): Promise<Endpoint> {
    const result = await this.pool.query<{ url: string; secret: string }>(
      `INSERT INTO endpoints (merchant_id, livemode, url, secret) VALUES ($1, $2, coalesce($3, ''), $4)
       ON CONFLICT (merchant_id, livemode) DO UPDATE SET url = coalesce($3, endpoints.url), updated_at = now()
       RETURNING url, secret`,
      [merchantId, livemode, url ?? null, secret],
    );
    const row = result.rows[0];
    if (!row) throw new Error('endpoint upsert returned nothing');
    return { merchantId, livemode, url: row.url, secret: row.secret };
  }

  /** Sets the default URL of an existing endpoint; false when the merchant has none in this mode. */
  async setUrl(merchantId: string, livemode: boolean, url: string): Promise<boolean> {
    const result = await this.pool.query('UPDATE endpoints SET url = $3, updated_at = now() WHERE merchant_id = $1 AND livemode = $2', [merchantId, livemode, url]);
    return result.rowCount === 1;
  }

  /**
   * Replaces the secret with `secret`; the one it replaces keeps signing, as a
   * second signature, for `graceSeconds`. Undefined when there is no endpoint.
   */
  async rotateSecret(merchantId: string, livemode: boolean, secret: string, graceSeconds: number): Promise<{ previousSecretExpiresAt: Date } | undefined> {
    const result = await this.pool.query<{ previous_secret_expires_at: Date }>(
      `UPDATE endpoints SET previous_secret = secret, previous_secret_expires_at = now() + make_interval(secs => $4), secret = $3, updated_at = now()
       WHERE merchant_id = $1 AND livemode = $2
       RETURNING previous_secret_expires_at`,
      [merchantId, livemode, secret, graceSeconds],
    );
    const row = result.rows[0];
    return row ? { previousSecretExpiresAt: row.previous_secret_expires_at } : undefined;
  }
}
