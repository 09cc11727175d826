/**
 * Webhook endpoints: per merchant and mode, the default endpoint (the URL
 * `webhook set-url` configures, receiving every event) and the endpoints the
 * merchant manages through the API, each with its URL, the events it wants,
 * its status and its own signing secret. Secrets are stored encrypted (D17),
 * each bound to its endpoint and column: the HMAC needs them readable, a dump
 * of the database must not show them.
 */
import { leaseClaim, withTransaction, type Pool, type Queryable } from '@gateway/db';
import type { PlaintextColumns, SecretBox } from '@gateway/secrets';
import type { Account } from '../domain/accounts.js';

export interface Endpoint {
  merchantId: string;
  livemode: boolean;
  url: string;
  secret: string;
}

/** What a secret's ciphertext is bound to: the endpoint it belongs to. */
export interface SecretOwner {
  id: string;
  isDefault: boolean;
  merchantId: string;
  livemode: boolean;
}

/** An endpoint the merchant manages, as stored. */
export interface EndpointRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  url: string;
  description: string;
  enabled_events: string[];
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface EndpointChanges {
  url?: string;
  enabledEvents?: string[];
  description?: string;
  status?: 'enabled' | 'disabled';
}

type SecretColumn = 'secret' | 'previous_secret';

/**
 * What the ciphertext of an endpoint's secret is bound to: a copy in another
 * row or column does not decrypt. Default endpoints keep the binding they had
 * when they were the only endpoint of their account.
 */
export function endpointSecretAad(column: SecretColumn, owner: SecretOwner): string {
  return owner.isDefault ? `webhooks.endpoints.${column}:${owner.merchantId}:${owner.livemode ? 'live' : 'test'}` : `webhooks.endpoints.${column}:${owner.id}`;
}

/** The clear secret columns of endpoints before D17 (all default endpoints then), which the dispatcher encrypts and drops as it starts. */
export const PLAINTEXT_ENDPOINT_SECRETS: PlaintextColumns = {
  table: 'endpoints',
  key: ['merchant_id', 'livemode'],
  columns: (['secret', 'previous_secret'] as const).map((column) => ({
    plain: column,
    cipher: `${column}_ciphertext`,
    nullable: column === 'previous_secret',
    aad: (row: Record<string, unknown>) =>
      endpointSecretAad(column, { id: '', isDefault: true, merchantId: String(row['merchant_id']), livemode: row['livemode'] === true }),
  })),
};

const ROW_COLUMNS = 'id, merchant_id, livemode, url, description, enabled_events, status, disabled_reason, disabled_at, created_at, updated_at';

/** Managed endpoints whose every attempt has failed for $1 seconds, up to $2, disabled. */
const DISABLE_FAILING = leaseClaim({
  table: 'endpoints ep',
  key: 'id',
  where: "failing_since IS NOT NULL AND status = 'enabled' AND NOT is_default AND failing_since <= now() - make_interval(secs => $1)",
  orderBy: 'failing_since',
  limit: '$2',
  set: "status = 'disabled', disabled_reason = 'failing', disabled_at = now(), updated_at = now()",
  returning: ROW_COLUMNS.split(', ')
    .map((c) => `ep.${c}`)
    .join(', '),
});

/** Which endpoint a secret rotation is for: the account's default one, or one the merchant manages. */
export type EndpointSelector = Account & { id?: string };

export class EndpointRepository {
  constructor(
    private readonly pool: Pool,
    private readonly secrets: SecretBox,
  ) {}

  /**
   * Creates the default endpoint with `secret` and `url` ('' for none) when
   * the merchant has none in this mode; true when it did. An existing one is
   * left as it is (its URL may have been changed since): a redelivered
   * merchant.created changes nothing.
   */
  async provisionIfAbsent(merchantId: string, livemode: boolean, url: string, secret: string): Promise<boolean> {
    const owner = { id: '', isDefault: true, merchantId, livemode };
    const result = await this.pool.query(
      `INSERT INTO endpoints (merchant_id, livemode, url, secret_ciphertext) VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_id, livemode) WHERE is_default DO NOTHING`,
      [merchantId, livemode, url, this.secrets.encrypt(secret, endpointSecretAad('secret', owner))],
    );
    return result.rowCount === 1;
  }

  /**
   * Creates the default endpoint with `secret` when the merchant has none in
   * this mode, else keeps its secret; sets the URL when one is given.
   */
  async provision(merchantId: string, livemode: boolean, url: string | undefined, secret: string): Promise<Endpoint> {
    const owner = { id: '', isDefault: true, merchantId, livemode };
    const result = await this.pool.query<{ url: string; secret_ciphertext: string }>(
      `INSERT INTO endpoints (merchant_id, livemode, url, secret_ciphertext) VALUES ($1, $2, coalesce($3, ''), $4)
       ON CONFLICT (merchant_id, livemode) WHERE is_default DO UPDATE SET url = coalesce($3, endpoints.url), updated_at = now()
       RETURNING url, secret_ciphertext`,
      [merchantId, livemode, url ?? null, this.secrets.encrypt(secret, endpointSecretAad('secret', owner))],
    );
    const row = result.rows[0];
    if (!row) throw new Error('endpoint upsert returned nothing');
    const stored = await this.secrets.decrypt(row.secret_ciphertext, endpointSecretAad('secret', owner));
    return { merchantId, livemode, url: row.url, secret: stored };
  }

  /**
   * The account's default endpoint as `set-url` and rotations leave it: its
   * URL ('' for none) and when a rotated-out secret stops signing (null when
   * none signs any more). Undefined when the account has no default endpoint.
   */
  async findDefault(account: Account): Promise<{ url: string; previousSecretExpiresAt: Date | null } | undefined> {
    const result = await this.pool.query<{ url: string; previous_secret_expires_at: Date | null }>(
      `SELECT url, CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at
       FROM endpoints WHERE merchant_id = $1 AND livemode = $2 AND is_default`,
      [account.merchantId, account.livemode],
    );
    const row = result.rows[0];
    return row && { url: row.url, previousSecretExpiresAt: row.previous_secret_expires_at };
  }

  /**
   * The current secret of the selected endpoint (the account's default one,
   * or one it manages), decrypted (D17), and its URL ('' for none); undefined
   * when the account has no such endpoint.
   */
  async currentSecret(selector: EndpointSelector): Promise<{ secret: string; url: string } | undefined> {
    const result = await this.pool.query<{ id: string; is_default: boolean; url: string; secret_ciphertext: string }>(
      `SELECT id, is_default, url, secret_ciphertext FROM endpoints
       WHERE merchant_id = $1 AND livemode = $2 AND ($3::text IS NULL AND is_default OR id = $3 AND NOT is_default)`,
      [selector.merchantId, selector.livemode, selector.id ?? null],
    );
    const row = result.rows[0];
    if (!row) return undefined;
    const owner = { id: row.id, isDefault: row.is_default, merchantId: selector.merchantId, livemode: selector.livemode };
    return { secret: await this.secrets.decrypt(row.secret_ciphertext, endpointSecretAad('secret', owner)), url: row.url };
  }

  /** Sets the default URL of an existing default endpoint; false when the merchant has none in this mode. */
  async setUrl(merchantId: string, livemode: boolean, url: string): Promise<boolean> {
    const result = await this.pool.query('UPDATE endpoints SET url = $3, updated_at = now() WHERE merchant_id = $1 AND livemode = $2 AND is_default', [
      merchantId,
      livemode,
      url,
    ]);
    return result.rowCount === 1;
  }

  /**
   * Replaces the secret of the selected endpoint with `secret`; the one it
   * replaces keeps signing, as a second signature, for `graceSeconds`.
   * Undefined when there is no such endpoint. The replaced secret is
   * encrypted again for its new column, under the lock of its row, so
   * concurrent rotations keep each secret once.
   */
  async rotateSecret(selector: EndpointSelector, secret: string, graceSeconds: number): Promise<{ previousSecretExpiresAt: Date } | undefined> {
    return withTransaction(this.pool, async (tx) => {
      const current = await tx.query<{ id: string; is_default: boolean; secret_ciphertext: string }>(
        `SELECT id, is_default, secret_ciphertext FROM endpoints
         WHERE merchant_id = $1 AND livemode = $2 AND ($3::text IS NULL AND is_default OR id = $3 AND NOT is_default) FOR UPDATE`,
        [selector.merchantId, selector.livemode, selector.id ?? null],
      );
      const row = current.rows[0];
      if (!row) return undefined;
      const owner = { id: row.id, isDefault: row.is_default, merchantId: selector.merchantId, livemode: selector.livemode };
      const previous = await this.secrets.decrypt(row.secret_ciphertext, endpointSecretAad('secret', owner));
      const result = await tx.query<{ previous_secret_expires_at: Date }>(
        `UPDATE endpoints SET previous_secret_ciphertext = $3, previous_secret_expires_at = now() + make_interval(secs => $4), secret_ciphertext = $2, updated_at = now()
         WHERE id = $1 RETURNING previous_secret_expires_at`,
        [row.id, this.secrets.encrypt(secret, endpointSecretAad('secret', owner)), this.secrets.encrypt(previous, endpointSecretAad('previous_secret', owner)), graceSeconds],
      );
      return { previousSecretExpiresAt: (result.rows[0] as { previous_secret_expires_at: Date }).previous_secret_expires_at };
    });
  }

  /**
   * Adds an endpoint the merchant manages, signed with `secret`, unless the
   * account has `max` already (undefined then). Creations of one account
   * are serialised, so the cap holds under concurrent calls.
   */
  async create(account: Account, id: string, fields: Required<Omit<EndpointChanges, 'status'>>, secret: string, max: number): Promise<EndpointRow | undefined> {
    return withTransaction(this.pool, async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('webhook-endpoints:' || $1 || ':' || $2::text))`, [account.merchantId, account.livemode]);
      const count = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM endpoints WHERE merchant_id = $1 AND livemode = $2 AND NOT is_default', [
        account.merchantId,
        account.livemode,
      ]);
      if ((count.rows[0]?.n ?? 0) >= max) return undefined;
      const owner = { id, isDefault: false, ...account };
      const result = await tx.query<EndpointRow>(
        `INSERT INTO endpoints (id, is_default, merchant_id, livemode, url, description, enabled_events, secret_ciphertext)
         VALUES ($1, false, $2, $3, $4, $5, $6, $7) RETURNING ${ROW_COLUMNS}`,
        [id, account.merchantId, account.livemode, fields.url, fields.description, fields.enabledEvents, this.secrets.encrypt(secret, endpointSecretAad('secret', owner))],
      );
      return result.rows[0];
    });
  }

  /** The account's managed endpoints, oldest first. */
  async list(account: Account): Promise<EndpointRow[]> {
    const result = await this.pool.query<EndpointRow>(
      `SELECT ${ROW_COLUMNS} FROM endpoints WHERE merchant_id = $1 AND livemode = $2 AND NOT is_default ORDER BY created_at, id`,
      [account.merchantId, account.livemode],
    );
    return result.rows;
  }

  /** One of the account's managed endpoints; undefined when it is not one (another account's, the other mode's, or none). */
  async get(account: Account, id: string): Promise<EndpointRow | undefined> {
    const result = await this.pool.query<EndpointRow>(`SELECT ${ROW_COLUMNS} FROM endpoints WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND NOT is_default`, [
      id,
      account.merchantId,
      account.livemode,
    ]);
    return result.rows[0];
  }

  /**
   * Changes what is given. Enabling an endpoint forgets its failures and why
   * it was disabled, and a new URL its failures (the old address failed, not
   * this one); a merchant disabling it is recorded as the reason.
   */
  async update(account: Account, id: string, changes: EndpointChanges): Promise<EndpointRow | undefined> {
    const result = await this.pool.query<EndpointRow>(
      `UPDATE endpoints SET url = coalesce($4, url), enabled_events = coalesce($5, enabled_events), description = coalesce($6, description),
         status = coalesce($7, status),
         failing_since = CASE WHEN $7 = 'enabled' OR $4 IS NOT NULL THEN NULL ELSE failing_since END,
         disabled_reason = CASE WHEN $7 = 'enabled' THEN NULL WHEN $7 = 'disabled' AND status = 'enabled' THEN 'merchant' ELSE disabled_reason END,
         disabled_at = CASE WHEN $7 = 'enabled' THEN NULL WHEN $7 = 'disabled' AND status = 'enabled' THEN now() ELSE disabled_at END,
         updated_at = now()
       WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND NOT is_default RETURNING ${ROW_COLUMNS}`,
      [id, account.merchantId, account.livemode, changes.url ?? null, changes.enabledEvents ?? null, changes.description ?? null, changes.status ?? null],
    );
    return result.rows[0];
  }

  /**
   * Deletes a managed endpoint. Its attempts not yet made end as failed with
   * no retry: there is nowhere to send them any more. Its history stays.
   * Its attempts are written before the endpoint row, the order in which the
   * dispatcher's recordResults locks them (an attempt, then its endpoint), so
   * a delete during a delivery waits for it instead of deadlocking with it.
   */
  async delete(account: Account, id: string): Promise<boolean> {
    return withTransaction(this.pool, async (tx) => {
      const own = `endpoint_id IN (SELECT id FROM endpoints WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND NOT is_default)`;
      const params = [id, account.merchantId, account.livemode];
      await tx.query(
        `UPDATE deliveries SET status = 'FAILED', error_message = 'the endpoint was deleted', lease_until = NULL, completed_at = now()
         WHERE status = 'PENDING' AND ${own}`,
        params,
      );
      await tx.query(`UPDATE deliveries SET next_retry_at = NULL, retried = true WHERE status = 'FAILED' AND NOT retried AND next_retry_at IS NOT NULL AND ${own}`, params);
      const deleted = await tx.query('DELETE FROM endpoints WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND NOT is_default', params);
      return deleted.rowCount === 1;
    });
  }

  /**
   * Disables the managed endpoints whose every attempt has failed for
   * `afterSeconds` (locked rows skipped: replicas sweep side by side), in `tx`.
   */
  async disableFailing(tx: Queryable, afterSeconds: number, limit: number): Promise<EndpointRow[]> {
    const result = await tx.query<EndpointRow>(DISABLE_FAILING, [afterSeconds, limit]);
    return result.rows;
  }
}
