/**
 * Idempotency-Keys and the first answer given under each (D10). A claim is the
 * row itself: inserting it is the lock, its `created_at` names it, and only the
 * request holding that claim may store its answer or release it.
 */
import { purgeBatch, type Pool } from '@gateway/db';

/** What one key is scoped to: the merchant, the mode, the key and the route with its path parameters. */
export interface IdempotencyScope {
  merchantId: string;
  livemode: boolean;
  key: string;
  /** Method and path without the trailing slash: `POST /gateway/sessions/ps_X/cancel`. */
  route: string;
}

/** A stored first answer. */
export interface StoredAnswer {
  status: number;
  body: string;
}

/** An answer as its row keeps it: `sealed` when `body` is the ciphertext of an answer that shows a secret (D17). */
export interface KeptAnswer extends StoredAnswer {
  sealed: boolean;
}

/** The outcome of a claim: ours to run, or the row that was already there. */
export type Claim =
  /** `token` is the claim's created_at as PostgreSQL prints it (microseconds kept; a JS Date would drop them). */
  | { kind: 'claimed'; token: string }
  | { kind: 'taken'; requestHash: Buffer; state: 'started' }
  | { kind: 'taken'; requestHash: Buffer; state: 'done'; answer: KeptAnswer };

export interface ClaimTimes {
  /** How long the key and its answer are kept. */
  ttlSeconds: number;
  /** After how long a claim still 'started' is deemed abandoned (its request can no longer be running). */
  abandonedAfterMs: number;
}

const KEY_COLUMNS = 'merchant_id = $1 AND livemode = $2 AND key = $3 AND route = $4';
/** Claims tried before a row that keeps vanishing between claim and read is reported as in flight. */
const CLAIM_ATTEMPTS = 3;

/** Up to $1 expired keys, deleted; keys another replica is purging, or a request is taking over, are skipped. */
const PURGE_EXPIRED = purgeBatch({
  table: 'idempotency_keys',
  key: 'merchant_id, livemode, key, route',
  where: 'expires_at <= now()',
  orderBy: 'expires_at',
  limit: '$1',
  recheck: 'expires_at <= now()',
});

export class IdempotencyRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Claims the key for a new request. An expired row, or a claim abandoned
   * while 'started', is taken over in the same statement; any other row is
   * returned as found. Read after a failed claim, the row may have just been
   * released (a 5xx) or purged: then claiming again is right.
   */
  async claim(scope: IdempotencyScope, requestHash: Buffer, times: ClaimTimes): Promise<Claim> {
    for (let attempt = 1; ; attempt += 1) {
      const claimed = await this.pool.query<{ token: string }>({
        name: 'idempotency-claim',
        text: `INSERT INTO idempotency_keys AS k (merchant_id, livemode, key, route, request_hash, state, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, 'started', now(), now() + make_interval(secs => $6))
           ON CONFLICT (merchant_id, livemode, key, route) DO UPDATE SET
             request_hash = EXCLUDED.request_hash, state = 'started', response_status = NULL, response_body = NULL, response_sealed = false,
             created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
           WHERE k.expires_at <= now() OR (k.state = 'started' AND k.created_at <= now() - make_interval(secs => $7))
           RETURNING k.created_at::text AS token`,
        values: [scope.merchantId, scope.livemode, scope.key, scope.route, requestHash, times.ttlSeconds, times.abandonedAfterMs / 1000],
      });
      const token = claimed.rows[0]?.token;
      if (token) return { kind: 'claimed', token };

      const found = await this.pool.query<{ request_hash: Buffer; state: 'started' | 'done'; response_status: number | null; response_body: string | null; response_sealed: boolean }>({
        name: 'idempotency-find',
        text: `SELECT request_hash, state, response_status, response_body, response_sealed FROM idempotency_keys WHERE ${KEY_COLUMNS}`,
        values: [scope.merchantId, scope.livemode, scope.key, scope.route],
      });
      const row = found.rows[0];
      if (!row) {
        if (attempt < CLAIM_ATTEMPTS) continue;
        return { kind: 'taken', requestHash, state: 'started' };
      }
      if (row.state === 'done' && row.response_status !== null && row.response_body !== null) {
        return { kind: 'taken', requestHash: row.request_hash, state: 'done', answer: { status: row.response_status, body: row.response_body, sealed: row.response_sealed } };
      }
      return { kind: 'taken', requestHash: row.request_hash, state: 'started' };
    }
  }

  /** Stores the answer of the claim `token`; false when the claim is no longer ours. */
  async complete(scope: IdempotencyScope, token: string, answer: KeptAnswer): Promise<boolean> {
    const result = await this.pool.query({
      name: 'idempotency-complete',
      text: `UPDATE idempotency_keys SET state = 'done', response_status = $6, response_body = $7, response_sealed = $8
         WHERE ${KEY_COLUMNS} AND created_at = $5::timestamptz AND state = 'started'`,
      values: [scope.merchantId, scope.livemode, scope.key, scope.route, token, answer.status, answer.body, answer.sealed],
    });
    return result.rowCount === 1;
  }

  /** Gives the key back (the request failed in a way that must not be replayed). */
  async release(scope: IdempotencyScope, token: string): Promise<void> {
    await this.pool.query({
      name: 'idempotency-release',
      text: `DELETE FROM idempotency_keys WHERE ${KEY_COLUMNS} AND created_at = $5::timestamptz AND state = 'started'`,
      values: [scope.merchantId, scope.livemode, scope.key, scope.route, token],
    });
  }

  /**
   * Deletes up to `batch` expired keys; returns how many. Rows another replica
   * is purging, or a request is taking over, are skipped.
   */
  async purgeExpired(batch: number): Promise<number> {
    const result = await this.pool.query({
      name: 'idempotency-purge',
      text: PURGE_EXPIRED,
      values: [batch],
    });
    return result.rowCount ?? 0;
  }
}
