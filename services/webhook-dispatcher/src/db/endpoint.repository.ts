/**
 * Webhook endpoints: one URL and one signing secret per merchant and mode.
 * Secrets are stored encrypted (D17), each bound to its endpoint and column:
 * the HMAC needs them readable, a dump of the database must not show them.
 */
import { withTransaction, type Pool } from '@gateway/db';
import type { PlaintextColumns, SecretBox } from '@gateway/secrets';

export interface Endpoint {
  merchantId: string;
  livemode: boolean;
  url: string;
  secret: string;
}

type SecretColumn = 'secret' | 'previous_secret';

/** What the ciphertext of an endpoint's secret is bound to: a copy in another row or column does not decrypt. */
export function endpointSecretAad(column: SecretColumn, merchantId: string, livemode: boolean): string {
  return `webhooks.endpoints.${column}:${merchantId}:${livemode ? 'live' : 'test'}`;
}

/** The clear secret columns of endpoints before D17, which the dispatcher encrypts and drops as it starts. */
export const PLAINTEXT_ENDPOINT_SECRETS: PlaintextColumns = {
  table: 'endpoints',
  key: ['merchant_id', 'livemode'],
  columns: (['secret', 'previous_secret'] as const).map((column) => ({
    plain: column,
    cipher: `${column}_ciphertext`,
    nullable: column === 'previous_secret',
    aad: (row: Record<string, unknown>) => endpointSecretAad(column, String(row['merchant_id']), row['livemode'] === true),
  })),
};

export class EndpointRepository {
  constructor(
    private readonly pool: Pool,
    private readonly secrets: SecretBox,
  ) {}

  /**
   * Creates the endpoint with `secret` when the merchant has none in this mode,
   * else keeps its secret; sets the URL when one is given. Returns the endpoint.
   */
  async provision(merchantId: string, livemode: boolean, url: string | undefined, secret: string): Promise<Endpoint> {
    const result = await this.pool.query<{ url: string; secret_ciphertext: string }>(
      `INSERT INTO endpoints (merchant_id, livemode, url, secret_ciphertext) VALUES ($1, $2, coalesce($3, ''), $4)
       ON CONFLICT (merchant_id, livemode) DO UPDATE SET url = coalesce($3, endpoints.url), updated_at = now()
       RETURNING url, secret_ciphertext`,
      [merchantId, livemode, url ?? null, this.secrets.encrypt(secret, endpointSecretAad('secret', merchantId, livemode))],
    );
    const row = result.rows[0];
    if (!row) throw new Error('endpoint upsert returned nothing');
    const stored = await this.secrets.decrypt(row.secret_ciphertext, endpointSecretAad('secret', merchantId, livemode));
    return { merchantId, livemode, url: row.url, secret: stored };
  }

  /** Sets the default URL of an existing endpoint; false when the merchant has none in this mode. */
  async setUrl(merchantId: string, livemode: boolean, url: string): Promise<boolean> {
    const result = await this.pool.query('UPDATE endpoints SET url = $3, updated_at = now() WHERE merchant_id = $1 AND livemode = $2', [merchantId, livemode, url]);
    return result.rowCount === 1;
  }

  /**
   * Replaces the secret with `secret`; the one it replaces keeps signing, as a
   * second signature, for `graceSeconds`. Undefined when there is no endpoint.
   * The replaced secret is encrypted again for its new column, under the lock
   * of its row, so concurrent rotations keep each secret once.
   */
  async rotateSecret(merchantId: string, livemode: boolean, secret: string, graceSeconds: number): Promise<{ previousSecretExpiresAt: Date } | undefined> {
    return withTransaction(this.pool, async (tx) => {
      const current = await tx.query<{ secret_ciphertext: string }>('SELECT secret_ciphertext FROM endpoints WHERE merchant_id = $1 AND livemode = $2 FOR UPDATE', [
        merchantId,
        livemode,
      ]);
      const row = current.rows[0];
      if (!row) return undefined;
      const previous = await this.secrets.decrypt(row.secret_ciphertext, endpointSecretAad('secret', merchantId, livemode));
      const result = await tx.query<{ previous_secret_expires_at: Date }>(
        `UPDATE endpoints SET previous_secret_ciphertext = $4, previous_secret_expires_at = now() + make_interval(secs => $5), secret_ciphertext = $3, updated_at = now()
         WHERE merchant_id = $1 AND livemode = $2
         RETURNING previous_secret_expires_at`,
        [
          merchantId,
          livemode,
          this.secrets.encrypt(secret, endpointSecretAad('secret', merchantId, livemode)),
          this.secrets.encrypt(previous, endpointSecretAad('previous_secret', merchantId, livemode)),
          graceSeconds,
        ],
      );
      return { previousSecretExpiresAt: (result.rows[0] as { previous_secret_expires_at: Date }).previous_secret_expires_at };
    });
  }
}
