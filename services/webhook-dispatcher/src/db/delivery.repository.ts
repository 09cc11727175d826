/**
 * Events and their delivery attempts. Every path that makes an attempt due
 * (a new event, a retry whose time has come, an abandoned attempt, a resend)
 * claims it with a lease in the same statement that reads what sending needs,
 * so replicas never send one attempt at the same time and a replica that dies
 * loses nothing: its leases lapse and the sweep of any replica takes them.
 */
import { newId } from '@gateway/contracts';
import { withTransaction, type Pool, type Queryable } from '@gateway/db';
import { ENDPOINT_KEY_SQL } from '../delivery/delivery-queue.js';

export interface Account {
  merchantId: string;
  livemode: boolean;
}

/** An event as it arrives, with the webhook body already built. */
export interface IncomingEvent {
  id: string;
  type: string;
  merchantId: string;
  livemode: boolean;
  sessionId: string;
  /** The session's webhook_url, '' when it has none. */
  sessionUrl: string;
  body: string;
  createdAt: string;
  /** The work that emitted the event, for the delivery's log lines. */
  correlationId: string;
}

/** One attempt to send, with what signing and sending it needs. */
export interface DeliveryJob {
  deliveryId: string;
  eventId: string;
  eventType: string;
  url: string;
  attemptNumber: number;
  manual: boolean;
  body: string;
  correlationId: string;
  /** The endpoint's account, which its secrets' ciphertexts are bound to. */
  merchantId: string;
  livemode: boolean;
  /** The endpoint's secrets, encrypted (D17): decrypted only to sign. */
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
}

/** How an attempt ended. */
export interface AttemptResult {
  deliveryId: string;
  ok: boolean;
  httpStatusCode: number | null;
  responseTimeMs: number;
  errorMessage: string;
  /** Seconds until the next automatic attempt; null when there is none. */
  retryInSeconds: number | null;
}

export interface DeliveryRow {
  id: string;
  session_id: string;
  event_type: string;
  event_id: string;
  url: string;
  attempt_number: number;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  http_status_code: number | null;
  response_time_ms: number | null;
  error_message: string;
  next_retry_at: Date | null;
  created_at: Date;
}

const ROW_COLUMNS = `id, session_id, event_type, event_id, url, attempt_number, status, http_status_code,
  response_time_ms, error_message, next_retry_at, created_at`;

/** The job columns of claimed attempts `d` (a CTE or table), joined to their event and endpoint. */
const JOB_SELECT = `SELECT d.id AS "deliveryId", d.event_id AS "eventId", d.event_type AS "eventType", d.url,
    d.attempt_number AS "attemptNumber", d.manual, e.body, e.correlation_id AS "correlationId", d.merchant_id AS "merchantId", d.livemode,
    ep.secret_ciphertext AS "secretCiphertext", ep.previous_secret_ciphertext AS "previousSecretCiphertext", ep.previous_secret_expires_at AS "previousSecretExpiresAt"
  FROM d JOIN events e ON e.id = d.event_id
  JOIN endpoints ep ON ep.merchant_id = d.merchant_id AND ep.livemode = d.livemode`;

/** Where an event is sent: the session's own URL, else the merchant's default for the mode. */
const TARGET_URL = `CASE WHEN e.session_url <> '' THEN e.session_url ELSE ep.url END`;

export class DeliveryRepository {
  constructor(
    private readonly pool: Pool,
    private readonly leaseSeconds: number,
  ) {}

  /**
   * Stores new events (an event already stored is skipped: the broker
   * redelivered it) and claims the first attempt of each one that has a
   * target. With no target (no session URL, no default), the event is kept
   * and nothing is sent (D11).
   */
  async storeEvents(events: readonly IncomingEvent[]): Promise<DeliveryJob[]> {
    if (events.length === 0) return [];
    const result = await this.pool.query<DeliveryJob>({
      name: 'events-store',
      text: `WITH incoming AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::text[], $11::text[])
           AS i(id, type, merchant_id, livemode, session_id, session_url, body, created_at, delivery_id, correlation_id)
       ), stored AS (
         INSERT INTO events (id, type, merchant_id, livemode, session_id, session_url, body, created_at, correlation_id)
         SELECT id, type, merchant_id, livemode, session_id, session_url, body, created_at, correlation_id FROM incoming
         ON CONFLICT (id) DO NOTHING
         RETURNING id
       ), d AS (
         INSERT INTO deliveries (id, event_id, event_type, merchant_id, livemode, session_id, url, attempt_number, status, lease_until)
         SELECT e.delivery_id, e.id, e.type, e.merchant_id, e.livemode, e.session_id, ${TARGET_URL}, 1, 'PENDING', now() + make_interval(secs => $10)
         FROM incoming e JOIN stored s ON s.id = e.id
         JOIN endpoints ep ON ep.merchant_id = e.merchant_id AND ep.livemode = e.livemode
         WHERE ${TARGET_URL} <> ''
         RETURNING *
       )
       SELECT d.id AS "deliveryId", d.event_id AS "eventId", d.event_type AS "eventType", d.url,
         d.attempt_number AS "attemptNumber", d.manual, i.body, i.correlation_id AS "correlationId", d.merchant_id AS "merchantId", d.livemode,
         ep.secret_ciphertext AS "secretCiphertext", ep.previous_secret_ciphertext AS "previousSecretCiphertext", ep.previous_secret_expires_at AS "previousSecretExpiresAt"
       FROM d JOIN incoming i ON i.id = d.event_id
       JOIN endpoints ep ON ep.merchant_id = d.merchant_id AND ep.livemode = d.livemode`,
      values: [
        events.map((e) => e.id),
        events.map((e) => e.type),
        events.map((e) => e.merchantId),
        events.map((e) => e.livemode),
        events.map((e) => e.sessionId),
        events.map((e) => e.sessionUrl),
        events.map((e) => e.body),
        events.map((e) => e.createdAt),
        events.map(() => newId('whd')),
        this.leaseSeconds,
        events.map((e) => e.correlationId),
      ],
    });
    return result.rows;
  }

  /** Records how attempts ended and when each failed one is tried next. */
  async recordResults(results: readonly AttemptResult[]): Promise<void> {
    if (results.length === 0) return;
    await this.pool.query(
      `UPDATE deliveries d SET status = r.status, http_status_code = r.code, response_time_ms = r.ms, error_message = r.err,
         next_retry_at = now() + make_interval(secs => r.retry_in), lease_until = NULL, completed_at = now()
       FROM unnest($1::text[], $2::text[], $3::integer[], $4::integer[], $5::text[], $6::integer[]) AS r(id, status, code, ms, err, retry_in)
       WHERE d.id = r.id AND d.status = 'PENDING'`,
      [
        results.map((r) => r.deliveryId),
        results.map((r) => (r.ok ? 'SUCCEEDED' : 'FAILED')),
        results.map((r) => r.httpStatusCode),
        results.map((r) => r.responseTimeMs),
        results.map((r) => r.errorMessage),
        results.map((r) => r.retryInSeconds),
      ],
    );
  }

  /** Claims up to `limit` retries whose time has come: each becomes a new attempt. */
  async claimDueRetries(limit: number): Promise<DeliveryJob[]> {
    return withTransaction(this.pool, async (tx) => {
      const due = await tx.query<{ event_id: string; attempt_number: number }>(
        `WITH due AS (
           SELECT id FROM deliveries
           WHERE status = 'FAILED' AND NOT retried AND next_retry_at IS NOT NULL AND next_retry_at <= now()
           ORDER BY next_retry_at LIMIT $1 FOR UPDATE SKIP LOCKED
         )
         UPDATE deliveries x SET retried = true FROM due WHERE x.id = due.id
         RETURNING x.event_id, x.attempt_number`,
        [limit],
      );
      return this.insertAttempts(
        tx,
        due.rows.map((row) => ({ eventId: row.event_id, attemptNumber: row.attempt_number + 1, manual: false })),
      );
    });
  }

  /**
   * Claims up to `limit` attempts nobody holds: their sender died or stopped,
   * or had no room for them. Attempts to `skipEndpoints` (this replica's full
   * ones) are left for later.
   */
  async reclaimAbandoned(limit: number, skipEndpoints: readonly string[] = []): Promise<DeliveryJob[]> {
    const result = await this.pool.query<DeliveryJob>(
      `WITH stale AS (
         SELECT id FROM deliveries WHERE status = 'PENDING' AND lease_until <= now() AND ${ENDPOINT_KEY_SQL} <> ALL($3::text[])
         ORDER BY lease_until LIMIT $1 FOR UPDATE SKIP LOCKED
       ), d AS (
         UPDATE deliveries x SET lease_until = now() + make_interval(secs => $2) FROM stale WHERE x.id = stale.id
         RETURNING x.*
       )
       ${JOB_SELECT}`,
      [limit, this.leaseSeconds, skipEndpoints],
    );
    return result.rows;
  }

  /** Gives up the leases of attempts this replica will not send now (no room, or stopping), for any replica's next sweep. */
  async release(deliveryIds: readonly string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    await this.pool.query(`UPDATE deliveries SET lease_until = now() WHERE id = ANY($1::text[]) AND status = 'PENDING'`, [deliveryIds]);
  }

  /**
   * A resend of the event of delivery `deliveryId`: a new attempt, numbered
   * after the event's last, signed when sent with the current secret, and the
   * merchant the event is of. Undefined when there is no such delivery.
   */
  async resend(deliveryId: string): Promise<{ job: DeliveryJob; merchantId: string } | undefined> {
    return withTransaction(this.pool, async (tx) => {
      // Locking the event serialises resends of it, so attempt numbers stay unique.
      const event = await tx.query<{ event_id: string; merchant_id: string; last: number }>(
        `SELECT e.id AS event_id, e.merchant_id, (SELECT max(attempt_number) FROM deliveries WHERE event_id = e.id) AS last
         FROM events e WHERE e.id = (SELECT event_id FROM deliveries WHERE id = $1) FOR UPDATE`,
        [deliveryId],
      );
      const row = event.rows[0];
      if (!row) return undefined;
      const [job] = await this.insertAttempts(tx, [{ eventId: row.event_id, attemptNumber: row.last + 1, manual: true }]);
      return job && { job, merchantId: row.merchant_id };
    });
  }

  private async insertAttempts(tx: Queryable, attempts: readonly { eventId: string; attemptNumber: number; manual: boolean }[]): Promise<DeliveryJob[]> {
    if (attempts.length === 0) return [];
    const result = await tx.query<DeliveryJob>(
      `WITH next AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::boolean[]) AS n(id, event_id, attempt_number, manual)
       ), d AS (
         INSERT INTO deliveries (id, event_id, event_type, merchant_id, livemode, session_id, url, attempt_number, manual, status, lease_until)
         SELECT n.id, e.id, e.type, e.merchant_id, e.livemode, e.session_id, ${TARGET_URL}, n.attempt_number, n.manual, 'PENDING',
           now() + make_interval(secs => $5)
         FROM next n JOIN events e ON e.id = n.event_id
         JOIN endpoints ep ON ep.merchant_id = e.merchant_id AND ep.livemode = e.livemode
         WHERE ${TARGET_URL} <> ''
         RETURNING *
       )
       ${JOB_SELECT}`,
      [attempts.map(() => newId('whd')), attempts.map((a) => a.eventId), attempts.map((a) => a.attemptNumber), attempts.map((a) => a.manual), this.leaseSeconds],
    );
    return result.rows;
  }

  /** Whether the dispatcher has had any event of this session of the account's. */
  async knowsSession(account: Account, sessionId: string): Promise<boolean> {
    const result = await this.pool.query('SELECT 1 FROM events WHERE session_id = $1 AND merchant_id = $2 AND livemode = $3 LIMIT 1', [
      sessionId,
      account.merchantId,
      account.livemode,
    ]);
    return (result.rowCount ?? 0) > 0;
  }

  /** Whether `deliveryId` is one of the account's deliveries (of `sessionId`, when given): a valid cursor. */
  async exists(account: Account, deliveryId: string, sessionId?: string): Promise<boolean> {
    const result = await this.pool.query(
      `SELECT 1 FROM deliveries WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND ($4::text IS NULL OR session_id = $4)`,
      [deliveryId, account.merchantId, account.livemode, sessionId ?? null],
    );
    return result.rowCount === 1;
  }

  /**
   * One page of the account's attempts (of one session, when given), newest
   * first by creation order. `before`: older than that attempt; `after`: the
   * nearest newer ones, read oldest first. Up to limit + 1 rows.
   */
  async page(account: Account, limit: number, cursor: { before?: string; after?: string; sessionId?: string }): Promise<DeliveryRow[]> {
    const params: unknown[] = [account.merchantId, account.livemode, limit + 1, cursor.sessionId ?? null];
    let where = '';
    let order = 'DESC';
    const anchor = cursor.before ?? cursor.after;
    if (anchor !== undefined) {
      params.push(anchor);
      where = `AND seq ${cursor.before !== undefined ? '<' : '>'} (SELECT seq FROM deliveries WHERE id = $5 AND merchant_id = $1 AND livemode = $2)`;
      if (cursor.after !== undefined) order = 'ASC';
    }
    const scope = cursor.sessionId !== undefined ? 'AND session_id = $4' : 'AND $4::text IS NULL';
    const result = await this.pool.query<DeliveryRow>(
      `SELECT ${ROW_COLUMNS} FROM deliveries WHERE merchant_id = $1 AND livemode = $2 ${scope} ${where} ORDER BY seq ${order} LIMIT $3`,
      params,
    );
    return result.rows;
  }
}
