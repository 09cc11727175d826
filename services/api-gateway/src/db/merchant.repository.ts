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

/** The merchant account and mode an API key authenticates, as the gateway needs them on every request. */
export interface ApiCaller {
  keyId: string;
  merchantId: string;
  livemode: boolean;
  orderPrefix: string;
  merchantName: string;
  suspended: boolean;
  overrides: LimitOverrides;
  /** When a rotated key stops working (ms since the epoch); null while no revocation is scheduled. */
  revokesAt: number | null;
}

interface LimitColumns {
  account_rps: number | null;
  create_rps: number | null;
  refund_rps: number | null;
}

/** The overrides a rate_limits row holds (its non-null budgets). */
function overridesOf(row: LimitColumns | undefined): LimitOverrides {
  const out: LimitOverrides = {};
  if (row?.account_rps != null) out.account = row.account_rps;
  if (row?.create_rps != null) out.create = row.create_rps;
  if (row?.refund_rps != null) out.refund = row.refund_rps;
  return out;
}

/** A key still works until its revocation time, which a rotation may put in the future (D14). */
const KEY_WORKS = '(revoked_at IS NULL OR revoked_at > now())';

/** The SHA-256 of an API key: what a key presented on a request is looked up by. */
function hashKey(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export interface MerchantRow {
  id: string;
  name: string;
  order_prefix: string;
  status: 'active' | 'suspended';
  kyb_approved_at: Date | null;
}

/** A merchant as lists show it. */
export interface MerchantSummaryRow extends MerchantRow {
  created_at: Date;
}

/** A key as the dashboard lists it: never the secret; the hint holds its last four characters. */
export interface KeySummaryRow {
  id: string;
  livemode: boolean;
  hint: string;
  created_at: Date;
  revoked_at: Date | null;
  /** revoked_at has passed. */
  revoked: boolean;
  encrypted: boolean;
}

/** What a merchant list asks for (merchant.list). */
export interface MerchantQuery {
  search?: string;
  status?: 'active' | 'suspended';
  limit: number;
  /** The last merchant of the previous page (an existing merchant's id). */
  after?: string;
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

  /** The caller of an unrevoked key, or undefined. */
  async findCaller(secret: string): Promise<ApiCaller | undefined> {
    const result = await this.pool.query<
      LimitColumns & { key_id: string; merchant_id: string; livemode: boolean; order_prefix: string; merchant_name: string; status: string; revoked_at: Date | null }
    >({
      name: 'caller-by-key',
      text: `SELECT k.id AS key_id, k.merchant_id, k.livemode, k.revoked_at, m.order_prefix, m.name AS merchant_name, m.status, l.account_rps, l.create_rps, l.refund_rps
       FROM api_keys k
       JOIN merchants m ON m.id = k.merchant_id
       LEFT JOIN rate_limits l ON l.merchant_id = k.merchant_id AND l.livemode = k.livemode
       WHERE k.key_hash = $1 AND (k.revoked_at IS NULL OR k.revoked_at > now())`,
      values: [hashKey(secret)],
    });
    const row = result.rows[0];
    if (!row) return undefined;
    return {
      keyId: row.key_id,
      merchantId: row.merchant_id,
      livemode: row.livemode,
      orderPrefix: row.order_prefix,
      merchantName: row.merchant_name,
      suspended: row.status !== 'active',
      overrides: overridesOf(row),
      revokesAt: row.revoked_at?.getTime() ?? null,
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

  /** A key by id; with `merchantId`, only if it is that merchant's. */
  async findKey(keyId: string, merchantId?: string): Promise<StoredKey | undefined> {
    const result = await this.pool.query<StoredKey>(
      `SELECT livemode, NOT ${KEY_WORKS} AS revoked, secret_ciphertext FROM api_keys WHERE id = $1 AND ($2::text IS NULL OR merchant_id = $2)`,
      [keyId, merchantId ?? null],
    );
    return result.rows[0];
  }

  /** A merchant's keys, of one mode or both, newest first. */
  async listKeys(merchantId: string, livemode?: boolean): Promise<KeySummaryRow[]> {
    const result = await this.pool.query<KeySummaryRow>(
      `SELECT id, livemode, hint, created_at, revoked_at, NOT ${KEY_WORKS} AS revoked, secret_ciphertext IS NOT NULL AS encrypted
       FROM api_keys WHERE merchant_id = $1 AND ($2::boolean IS NULL OR livemode = $2)
       ORDER BY created_at DESC, id DESC`,
      [merchantId, livemode ?? null],
    );
    return result.rows;
  }

  /** Locks a key of `merchantId` that works and has no revocation scheduled; undefined otherwise. */
  async lockActiveKey(tx: PoolClient, keyId: string, merchantId: string): Promise<{ livemode: boolean } | undefined> {
    const result = await tx.query<{ livemode: boolean }>('SELECT livemode FROM api_keys WHERE id = $1 AND merchant_id = $2 AND revoked_at IS NULL FOR UPDATE', [keyId, merchantId]);
    return result.rows[0];
  }

  /** Sets the key's revocation `seconds` from now (the database's now); returns that time. */
  async scheduleRevocation(tx: PoolClient, keyId: string, seconds: number): Promise<Date> {
    const result = await tx.query<{ revoked_at: Date }>('UPDATE api_keys SET revoked_at = now() + make_interval(secs => $2) WHERE id = $1 RETURNING revoked_at', [keyId, seconds]);
    const row = result.rows[0];
    if (!row) throw new Error(`key ${keyId} vanished while locked`);
    return row.revoked_at;
  }

  /** The secret of a test key from its ciphertext. */
  async decryptKey(keyId: string, ciphertext: string): Promise<string> {
    return this.secrets.decrypt(ciphertext, keySecretAad(keyId));
  }

  /**
   * Revokes a key now (one whose rotation grace is running too); with
   * `merchantId`, only that merchant's. Returns its merchant, or undefined
   * when there is no such working key.
   */
  async revokeKey(tx: PoolClient, keyId: string, merchantId?: string): Promise<string | undefined> {
    const result = await tx.query<{ merchant_id: string }>(
      `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND ${KEY_WORKS} AND ($2::text IS NULL OR merchant_id = $2) RETURNING merchant_id`,
      [keyId, merchantId ?? null],
    );
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
    const result = await tx.query<LimitColumns>(
      `INSERT INTO rate_limits (merchant_id, livemode, account_rps, create_rps, refund_rps) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (merchant_id, livemode) DO UPDATE SET
         account_rps = coalesce(EXCLUDED.account_rps, rate_limits.account_rps),
         create_rps = coalesce(EXCLUDED.create_rps, rate_limits.create_rps),
         refund_rps = coalesce(EXCLUDED.refund_rps, rate_limits.refund_rps)
       RETURNING account_rps, create_rps, refund_rps`,
      [merchantId, livemode, limits.account ?? null, limits.create ?? null, limits.refund ?? null],
    );
    return overridesOf(result.rows[0]);
  }

  /** The merchant's overrides of each mode (empty where none is set). */
  async findLimits(merchantId: string): Promise<Record<'test' | 'live', LimitOverrides>> {
    const result = await this.pool.query<LimitColumns & { livemode: boolean }>('SELECT livemode, account_rps, create_rps, refund_rps FROM rate_limits WHERE merchant_id = $1', [
      merchantId,
    ]);
    return { test: overridesOf(result.rows.find((row) => !row.livemode)), live: overridesOf(result.rows.find((row) => row.livemode)) };
  }

  async findMerchant(merchantId: string): Promise<MerchantSummaryRow | undefined> {
    const result = await this.pool.query<MerchantSummaryRow>('SELECT id, name, order_prefix, status, kyb_approved_at, created_at FROM merchants WHERE id = $1', [merchantId]);
    return result.rows[0];
  }

  /**
   * Merchants newest first, matching `search` (part of the name, any case,
   * or a whole merchant id) and `status`; one more than `limit` when there are more.
   */
  async listMerchants(query: MerchantQuery): Promise<MerchantSummaryRow[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    if (query.search) {
      const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(`(name ILIKE ${param(pattern)} OR id = ${param(query.search)})`);
    }
    if (query.status) where.push(`status = ${param(query.status)}`);
    // Compared in the database: created_at has microseconds, a JS Date only milliseconds.
    if (query.after) where.push(`(created_at, id) < (SELECT created_at, id FROM merchants WHERE id = ${param(query.after)})`);
    const result = await this.pool.query<MerchantSummaryRow>(
      `SELECT id, name, order_prefix, status, kyb_approved_at, created_at FROM merchants
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, id DESC LIMIT ${param(query.limit + 1)}`,
      values,
    );
    return result.rows;
  }
}
