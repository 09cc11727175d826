/**
 * Merchants, API keys and rate-limit overrides. Keys are looked up by the
 * SHA-256 of the secret. A live key's secret is never stored; a test key's is
 * also kept encrypted (D12, D17), so that it can be shown again.
 */
import { createHash } from 'node:crypto';
import { enqueue } from '@gateway/messaging';
import { withTransaction, type Pool, type PoolClient } from '@gateway/db';
import type { Envelope } from '@gateway/contracts';
import type { SecretBox } from '@gateway/secrets';

export type Budget = 'account' | 'create' | 'refund';
export type LimitOverrides = Partial<Record<Budget, number>>;

/** Who a key belongs to, as the gateway needs it on every request. */
export interface Principal {
  keyId: string;
  merchantId: string;
  livemode: boolean;
  orderPrefix: string;
  merchantName: string;
  suspended: boolean;
  overrides: LimitOverrides;
}

export function hashKey(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export interface MerchantRow {
  id: string;
  name: string;
  order_prefix: string;
  status: 'active' | 'suspended';
  kyb_approved_at: Date | null;
}

/** A key as `key reveal` needs it; `secret_ciphertext` is null for live keys and for test keys made before D17. */
export interface StoredKey {
  livemode: boolean;
  revoked: boolean;
  secret_ciphertext: string | null;
}

/** What a test key's ciphertext is bound to: a copy in another row does not decrypt. */
function keySecretAad(keyId: string): string {
  return `api_gateway.api_keys.secret:${keyId}`;
}

export class MerchantRepository {
  constructor(
    private readonly pool: Pool,
    private readonly secrets: SecretBox,
  ) {}

  /** The principal of an unrevoked key, or undefined. */
  async findPrincipal(secret: string): Promise<Principal | undefined> {
    const result = await this.pool.query<{
      key_id: string;
      merchant_id: string;
      livemode: boolean;
      order_prefix: string;
      merchant_name: string;
      status: string;
      account_rps: number | null;
      create_rps: number | null;
      refund_rps: number | null;
    }>({
      name: 'principal-by-key',
      text: `SELECT k.id AS key_id, k.merchant_id, k.livemode, m.order_prefix, m.name AS merchant_name, m.status, l.account_rps, l.create_rps, l.refund_rps
       FROM api_keys k
       JOIN merchants m ON m.id = k.merchant_id
       LEFT JOIN rate_limits l ON l.merchant_id = k.merchant_id AND l.livemode = k.livemode
       WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      values: [hashKey(secret)],
    });
    const row = result.rows[0];
    if (!row) return undefined;
    const overrides: LimitOverrides = {};
    if (row.account_rps !== null) overrides.account = row.account_rps;
    if (row.create_rps !== null) overrides.create = row.create_rps;
    if (row.refund_rps !== null) overrides.refund = row.refund_rps;
    return {
      keyId: row.key_id,
      merchantId: row.merchant_id,
      livemode: row.livemode,
      orderPrefix: row.order_prefix,
      merchantName: row.merchant_name,
      suspended: row.status !== 'active',
      overrides,
    };
  }

  /** Runs `work` in a transaction; events it returns are enqueued in the same transaction. */
  async change<T>(work: (tx: PoolClient) => Promise<{ result: T; events: Envelope[] }>): Promise<T> {
    return withTransaction(this.pool, async (tx) => {
      const { result, events } = await work(tx);
      await enqueue(tx, events);
      return result;
    });
  }

  async insertMerchant(tx: PoolClient, merchant: { id: string; name: string; orderPrefix: string }): Promise<void> {
    await tx.query('INSERT INTO merchants (id, name, order_prefix) VALUES ($1, $2, $3)', [merchant.id, merchant.name, merchant.orderPrefix]);
  }

  async lockMerchant(tx: PoolClient, merchantId: string): Promise<MerchantRow | undefined> {
    const result = await tx.query<MerchantRow>('SELECT id, name, order_prefix, status, kyb_approved_at FROM merchants WHERE id = $1 FOR UPDATE', [merchantId]);
    return result.rows[0];
  }

  /** Stores a key by its hash; a test key also encrypted, a live key never (shown once, D12). */
  async insertKey(tx: PoolClient, key: { id: string; merchantId: string; livemode: boolean; secret: string }): Promise<void> {
    const hint = `${key.secret.slice(0, 8)}...${key.secret.slice(-4)}`;
    await tx.query('INSERT INTO api_keys (id, merchant_id, livemode, key_hash, hint, secret_ciphertext) VALUES ($1, $2, $3, $4, $5, $6)', [
      key.id,
      key.merchantId,
      key.livemode,
      hashKey(key.secret),
      hint,
      key.livemode ? null : this.secrets.encrypt(key.secret, keySecretAad(key.id)),
    ]);
  }

  async findKey(keyId: string): Promise<StoredKey | undefined> {
    const result = await this.pool.query<StoredKey>('SELECT livemode, revoked_at IS NOT NULL AS revoked, secret_ciphertext FROM api_keys WHERE id = $1', [keyId]);
    return result.rows[0];
  }

  /** The secret of a test key from its ciphertext. */
  async decryptKey(keyId: string, ciphertext: string): Promise<string> {
    return this.secrets.decrypt(ciphertext, keySecretAad(keyId));
  }

  /** Revokes a key; returns its merchant, or undefined when there is no such unrevoked key. */
  async revokeKey(tx: PoolClient, keyId: string): Promise<string | undefined> {
    const result = await tx.query<{ merchant_id: string }>('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING merchant_id', [keyId]);
    return result.rows[0]?.merchant_id;
  }

  async setStatus(tx: PoolClient, merchantId: string, status: 'active' | 'suspended'): Promise<void> {
    await tx.query('UPDATE merchants SET status = $2 WHERE id = $1', [merchantId, status]);
  }

  async approveKyb(tx: PoolClient, merchantId: string): Promise<void> {
    await tx.query('UPDATE merchants SET kyb_approved_at = coalesce(kyb_approved_at, now()) WHERE id = $1', [merchantId]);
  }

  /** Stores overrides (only the budgets given) and returns the merchant's overrides for that mode. */
  async setLimits(tx: PoolClient, merchantId: string, livemode: boolean, limits: LimitOverrides): Promise<LimitOverrides> {
    const result = await tx.query<{ account_rps: number | null; create_rps: number | null; refund_rps: number | null }>(
      `INSERT INTO rate_limits (merchant_id, livemode, account_rps, create_rps, refund_rps) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (merchant_id, livemode) DO UPDATE SET
         account_rps = coalesce(EXCLUDED.account_rps, rate_limits.account_rps),
         create_rps = coalesce(EXCLUDED.create_rps, rate_limits.create_rps),
         refund_rps = coalesce(EXCLUDED.refund_rps, rate_limits.refund_rps)
       RETURNING account_rps, create_rps, refund_rps`,
      [merchantId, livemode, limits.account ?? null, limits.create ?? null, limits.refund ?? null],
    );
    const row = result.rows[0];
    const out: LimitOverrides = {};
    if (row?.account_rps != null) out.account = row.account_rps;
    if (row?.create_rps != null) out.create = row.create_rps;
    if (row?.refund_rps != null) out.refund = row.refund_rps;
    return out;
  }
}
