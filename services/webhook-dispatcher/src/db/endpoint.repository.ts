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
}
