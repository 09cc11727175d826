/**
 * Events and their delivery attempts. Every path that makes an attempt due
 * (a new event, a retry whose time has come, an abandoned attempt, a resend)
 * claims it with a lease in the same statement that reads what sending needs,
 * so a replica that dies loses nothing: its leases lapse and the sweep of any
 * replica takes them. An attempt may wait in memory longer than its lease
 * (a slow endpoint's backlog); its replica then claims it again just before
 * sending (claimForSending), and that fails when another replica took it in
 * the meantime, so one attempt is sent by one replica.
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
  /** With tracing on: the trace context of the delivery that brought it, which its first attempts continue. */
  traceContext?: string | null;
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
  /** The endpoint, which its secrets' ciphertexts are bound to. */
  endpointId: string;
  endpointIsDefault: boolean;
  merchantId: string;
  livemode: boolean;
  /** The endpoint's secrets, encrypted (D17): decrypted only to sign. */
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
  /**
   * When this replica's lease on the attempt ends, by performance.now(): the
   * time just before the claiming statement was sent plus the lease the
   * database reported left, so never later than the lease's real end.
   */
  leaseEndsAt: number;
  /** With tracing on, a first attempt's: the trace its POST continues (retries, read back by a sweep, have none). */
  traceContext?: string | null;
}

/** How an attempt ended. */
export interface AttemptResult {
  deliveryId: string;
  ok: boolean;
  httpStatusCode: number | null;
  responseTimeMs: number;
  errorMessage: string;
  /** The start of the response body (4 KiB at most), null when no response came. */
  responseBody: string | null;
  /** Seconds until the next automatic attempt; null when there is none. */
  retryInSeconds: number | null;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
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

/** An attempt with what was sent and what came back (the dashboard's view of one attempt, D14). */
export interface AttemptDetailRow extends DeliveryRow {
  /** The event's body: the exact bytes signed and sent, as text. */
  payload: string;
  response_body: string | null;
}

/** Narrowing of an account's attempts: one session's, one status's. */
export interface DeliveryFilters {
  sessionId?: string;
  status?: DeliveryRow['status'];
}

const ROW_COLUMNS = `id, endpoint_id, session_id, event_type, event_id, url, attempt_number, status, http_status_code,
  response_time_ms, error_message, next_retry_at, created_at`;

/** The endpoint columns of a job, from endpoint `ep`. */
const ENDPOINT_JOB_COLUMNS = `ep.id AS "endpointId", ep.is_default AS "endpointIsDefault",
    ep.secret_ciphertext AS "secretCiphertext", ep.previous_secret_ciphertext AS "previousSecretCiphertext", ep.previous_secret_expires_at AS "previousSecretExpiresAt"`;

/** Milliseconds left of the lease of claimed attempt `d`, by the database's clock as the statement runs. */
const LEASE_LEFT_MS = `greatest(0, extract(epoch FROM d.lease_until - clock_timestamp()) * 1000)::float8 AS "leaseLeftMs"`;

/** The job columns of claimed attempts `d` (a CTE or table), joined to their event and endpoint. */
const JOB_SELECT = `SELECT d.id AS "deliveryId", d.event_id AS "eventId", d.event_type AS "eventType", d.url,
    d.attempt_number AS "attemptNumber", d.manual, e.body, e.correlation_id AS "correlationId", d.merchant_id AS "merchantId", d.livemode,
    ${ENDPOINT_JOB_COLUMNS}, ${LEASE_LEFT_MS}
  FROM d JOIN events e ON e.id = d.event_id
  JOIN endpoints ep ON ep.id = d.endpoint_id`;

/**
 * Where event `e` goes at endpoint `ep`: the default endpoint takes the
 * session's own URL when it has one (D11), else its own; managed endpoints
 * their own.
 */
const TARGET_URL = `CASE WHEN ep.is_default AND e.session_url <> '' THEN e.session_url ELSE ep.url END`;

/**
 * The endpoints of event `e`'s account that receive it: the default one
 * always (D11), a managed one while enabled and when it wants the type.
 */
const RECEIVES = `ep.merchant_id = e.merchant_id AND ep.livemode = e.livemode
  AND (ep.is_default OR ep.status = 'enabled' AND ep.enabled_events && ARRAY['*', e.type])`;

/** A claimed row as the database answers it: the lease as milliseconds left, not yet a time of this process. */
type ClaimedRow = Omit<DeliveryJob, 'leaseEndsAt'> & { leaseLeftMs: number };

/** Jobs of rows claimed by a statement sent at `sentAt` (performance.now()). */
function leased(rows: readonly ClaimedRow[], sentAt: number): DeliveryJob[] {
  return rows.map(({ leaseLeftMs, ...job }) => ({ ...job, leaseEndsAt: sentAt + leaseLeftMs }));
}

export class DeliveryRepository {
  constructor(
    private readonly pool: Pool,
    private readonly leaseSeconds: number,
    /** This replica's name on the leases it holds (lease_owner). */
    private readonly owner: string,
  ) {}

  /**
   * Stores new events (an event already stored is skipped: the broker
   * redelivered it) and claims the first attempt of each one at every
   * endpoint that receives it and has a URL. With none, the event is kept and
   * nothing is sent (D11). Answers the ids of the events it stored and the
   * first attempts it claimed. In `tx` when given, else on its own.
   */
  async storeEvents(events: readonly IncomingEvent[], tx: Queryable = this.pool): Promise<{ stored: Set<string>; jobs: DeliveryJob[] }> {
    if (events.length === 0) return { stored: new Set(), jobs: [] };
    const sentAt = performance.now();
    const result = await tx.query<ClaimedRow & { storedId: string }>({
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
         -- How many managed endpoints receive an event is known only here: their deliveries' ids are drawn here (96 random bits).
         INSERT INTO deliveries (id, endpoint_id, event_id, event_type, merchant_id, livemode, session_id, url, attempt_number, status, lease_until, lease_owner)
         SELECT CASE WHEN ep.is_default THEN e.delivery_id ELSE 'whd_' || substr(md5(random()::text || ep.id || e.id), 1, 24) END,
           ep.id, e.id, e.type, e.merchant_id, e.livemode, e.session_id, ${TARGET_URL}, 1, 'PENDING', now() + make_interval(secs => $10), $12
         FROM incoming e JOIN stored s ON s.id = e.id
         JOIN endpoints ep ON ${RECEIVES}
         WHERE ${TARGET_URL} <> ''
         RETURNING *
       ), jobs AS (
         SELECT d.id AS "deliveryId", d.event_id AS "eventId", d.event_type AS "eventType", d.url,
           d.attempt_number AS "attemptNumber", d.manual, i.body, i.correlation_id AS "correlationId", d.merchant_id AS "merchantId", d.livemode,
           ${ENDPOINT_JOB_COLUMNS}, ${LEASE_LEFT_MS}
         FROM d JOIN incoming i ON i.id = d.event_id
         JOIN endpoints ep ON ep.id = d.endpoint_id
       )
       -- A row per stored event (its attempts', or one without a job when nothing receives it).
       SELECT s.id AS "storedId", jobs.* FROM stored s LEFT JOIN jobs ON jobs."eventId" = s.id`,
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
        this.owner,
      ],
    });
    const stored = new Set(result.rows.map((row) => row.storedId));
    const jobs = result.rows.filter((row) => row.deliveryId !== null).map(({ storedId: _stored, ...job }) => job);
    return { stored, jobs: leased(jobs, sentAt) };
  }

  /**
   * Records how attempts ended and when each failed one is tried next, and
   * since when each managed endpoint has failed every attempt (reset by a
   * success): what the disable sweep reads. The endpoint row is written only
   * when that changes, so a healthy endpoint costs no write.
   */
  async recordResults(results: readonly AttemptResult[]): Promise<void> {
    if (results.length === 0) return;
    await this.pool.query(
      `WITH recorded AS (
         UPDATE deliveries d SET status = r.status, http_status_code = r.code, response_time_ms = r.ms, error_message = r.err,
           next_retry_at = now() + make_interval(secs => r.retry_in), lease_until = NULL, completed_at = now(), response_body = r.body
         FROM unnest($1::text[], $2::text[], $3::integer[], $4::integer[], $5::text[], $6::integer[], $7::text[]) AS r(id, status, code, ms, err, retry_in, body)
         WHERE d.id = r.id AND d.status = 'PENDING'
         RETURNING d.endpoint_id, d.status
       ), health AS (
         SELECT endpoint_id, bool_or(status = 'SUCCEEDED') AS ok FROM recorded GROUP BY endpoint_id
       )
       UPDATE endpoints ep SET failing_since = CASE WHEN h.ok THEN NULL ELSE now() END
       FROM health h
       WHERE ep.id = h.endpoint_id AND NOT ep.is_default AND (CASE WHEN h.ok THEN ep.failing_since IS NOT NULL ELSE ep.failing_since IS NULL END)`,
      [
        results.map((r) => r.deliveryId),
        results.map((r) => (r.ok ? 'SUCCEEDED' : 'FAILED')),
        results.map((r) => r.httpStatusCode),
        results.map((r) => r.responseTimeMs),
        results.map((r) => r.errorMessage),
        results.map((r) => r.retryInSeconds),
        results.map((r) => r.responseBody),
      ],
    );
  }

  /** Claims up to `limit` retries whose time has come: each becomes a new attempt. */
  async claimDueRetries(limit: number): Promise<DeliveryJob[]> {
    return withTransaction(this.pool, async (tx) => {
      const due = await tx.query<{ event_id: string; endpoint_id: string; attempt_number: number }>(
        `WITH due AS (
           SELECT id FROM deliveries
           WHERE status = 'FAILED' AND NOT retried AND next_retry_at IS NOT NULL AND next_retry_at <= now()
           ORDER BY next_retry_at LIMIT $1 FOR UPDATE SKIP LOCKED
         )
         UPDATE deliveries x SET retried = true FROM due WHERE x.id = due.id
         RETURNING x.event_id, x.endpoint_id, x.attempt_number`,
        [limit],
      );
      return this.insertAttempts(
        tx,
        due.rows.map((row) => ({ eventId: row.event_id, endpointId: row.endpoint_id, attemptNumber: row.attempt_number + 1, manual: false })),
      );
    });
  }

  /**
   * Claims up to `limit` attempts nobody holds: their sender died or stopped,
   * or had no room for them. Attempts to `skipEndpoints` (this replica's full
   * ones) are left for later.
   */
  async reclaimAbandoned(limit: number, skipEndpoints: readonly string[] = []): Promise<DeliveryJob[]> {
    const sentAt = performance.now();
    const result = await this.pool.query<ClaimedRow>(
      `WITH stale AS (
         SELECT id FROM deliveries WHERE status = 'PENDING' AND lease_until <= now() AND ${ENDPOINT_KEY_SQL} <> ALL($3::text[])
         ORDER BY lease_until LIMIT $1 FOR UPDATE SKIP LOCKED
       ), d AS (
         UPDATE deliveries x SET lease_until = now() + make_interval(secs => $2), lease_owner = $4 FROM stale WHERE x.id = stale.id
         RETURNING x.*
       )
       ${JOB_SELECT}`,
      [limit, this.leaseSeconds, skipEndpoints, this.owner],
    );
    return leased(result.rows, sentAt);
  }

  /**
   * Claims again, just before sending them, attempts this replica queued
   * whose lease may end before they are sent and recorded: each one still
   * PENDING that this replica still holds, or that nobody holds. One another
   * replica took since, or that is done, is not claimed. Answers each claimed
   * attempt's new lease end (performance.now()), by id.
   */
  async claimForSending(deliveryIds: readonly string[]): Promise<Map<string, number>> {
    if (deliveryIds.length === 0) return new Map();
    const sentAt = performance.now();
    const result = await this.pool.query<{ id: string; leaseLeftMs: number }>(
      `WITH mine AS (
         SELECT id FROM deliveries
         WHERE id = ANY($1::text[]) AND status = 'PENDING' AND (lease_owner = $3 OR lease_owner IS NULL OR lease_until <= now())
         FOR UPDATE SKIP LOCKED
       ), d AS (
         UPDATE deliveries x SET lease_until = now() + make_interval(secs => $2), lease_owner = $3 FROM mine WHERE x.id = mine.id
         RETURNING x.id, x.lease_until
       )
       SELECT d.id, ${LEASE_LEFT_MS} FROM d`,
      [deliveryIds, this.leaseSeconds, this.owner],
    );
    return new Map(result.rows.map((row) => [row.id, sentAt + row.leaseLeftMs]));
  }

  /**
   * Gives up the leases of attempts this replica will not send now (no room,
   * or stopping), for any replica's next sweep. Only its own: a lease another
   * replica took since is that replica's, and it may be sending.
   */
  async release(deliveryIds: readonly string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    await this.pool.query(`UPDATE deliveries SET lease_until = now() WHERE id = ANY($1::text[]) AND status = 'PENDING' AND lease_owner = $2`, [deliveryIds, this.owner]);
  }

  /**
   * A resend of the event of delivery `deliveryId` to that delivery's
   * endpoint: a new attempt, numbered after the last one there, signed when
   * sent with the current secret, and the merchant the event is of.
   * Undefined when there is no such delivery or endpoint, or when
   * `merchantId` is given and the delivery is not that merchant's.
   */
  async resend(deliveryId: string, merchantId?: string): Promise<{ job: DeliveryJob; merchantId: string } | undefined> {
    return withTransaction(this.pool, async (tx) => {
      // Locking the event serialises resends of it, so attempt numbers stay unique.
      const event = await tx.query<{ event_id: string; endpoint_id: string; merchant_id: string; last: number }>(
        `SELECT e.id AS event_id, o.endpoint_id, e.merchant_id,
           (SELECT max(attempt_number) FROM deliveries WHERE event_id = e.id AND endpoint_id = o.endpoint_id) AS last
         FROM deliveries o JOIN events e ON e.id = o.event_id WHERE o.id = $1 AND ($2::text IS NULL OR o.merchant_id = $2) FOR UPDATE OF e`,
        [deliveryId, merchantId ?? null],
      );
      const row = event.rows[0];
      if (!row) return undefined;
      const [job] = await this.insertAttempts(tx, [{ eventId: row.event_id, endpointId: row.endpoint_id, attemptNumber: row.last + 1, manual: true }]);
      return job && { job, merchantId: row.merchant_id };
    });
  }

  /**
   * Replays to managed endpoint `endpointId` the events of its account it
   * wants, created at or after `since` and past `startingAfter` (an event id
   * at that time, the cursor of a previous page): up to `limit` new attempts,
   * each numbered after the last one of its event there, not retried by
   * themselves. `more` tells whether further events remain.
   */
  async replay(account: Account, endpointId: string, since: string, startingAfter: string | undefined, limit: number): Promise<{ jobs: DeliveryJob[]; last?: { id: string; createdAt: string }; more: boolean }> {
    return withTransaction(this.pool, async (tx) => {
      // The time as text at full precision: a page's cursor must not fall before its last event.
      const page = await tx.query<{ id: string; created_at: string }>(
        `SELECT e.id, to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at FROM events e JOIN endpoints ep ON ep.id = $3
         WHERE e.merchant_id = $1 AND e.livemode = $2 AND ep.enabled_events && ARRAY['*', e.type]
           AND (e.created_at, e.id) > ($4::timestamptz, coalesce($5, ''))
         ORDER BY e.created_at, e.id LIMIT $6`,
        [account.merchantId, account.livemode, endpointId, since, startingAfter ?? null, limit + 1],
      );
      const events = page.rows.slice(0, limit);
      const numbered = await tx.query<{ event_id: string; last: number }>(
        `SELECT event_id, max(attempt_number) AS last FROM deliveries WHERE event_id = ANY($1::text[]) AND endpoint_id = $2 GROUP BY event_id`,
        [events.map((e) => e.id), endpointId],
      );
      const last = new Map(numbered.rows.map((row) => [row.event_id, row.last]));
      const jobs = await this.insertAttempts(
        tx,
        events.map((e) => ({ eventId: e.id, endpointId, attemptNumber: (last.get(e.id) ?? 0) + 1, manual: true })),
      );
      const tail = events.at(-1);
      return { jobs, ...(tail && { last: { id: tail.id, createdAt: tail.created_at } }), more: page.rows.length > limit };
    });
  }

  /**
   * New attempts of stored events at given endpoints. An automatic retry to
   * a managed endpoint that has been disabled since is not made.
   */
  private async insertAttempts(tx: Queryable, attempts: readonly { eventId: string; endpointId: string; attemptNumber: number; manual: boolean }[]): Promise<DeliveryJob[]> {
    if (attempts.length === 0) return [];
    const sentAt = performance.now();
    const result = await tx.query<ClaimedRow>(
      `WITH next AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::boolean[], $6::text[]) AS n(id, event_id, attempt_number, manual, endpoint_id)
       ), d AS (
         INSERT INTO deliveries (id, endpoint_id, event_id, event_type, merchant_id, livemode, session_id, url, attempt_number, manual, status, lease_until, lease_owner)
         SELECT n.id, ep.id, e.id, e.type, e.merchant_id, e.livemode, e.session_id, ${TARGET_URL}, n.attempt_number, n.manual, 'PENDING',
           now() + make_interval(secs => $5), $7
         FROM next n JOIN events e ON e.id = n.event_id
         JOIN endpoints ep ON ep.id = n.endpoint_id
         WHERE ${TARGET_URL} <> '' AND (n.manual OR ep.is_default OR ep.status = 'enabled')
         RETURNING *
       )
       ${JOB_SELECT}`,
      [
        attempts.map(() => newId('whd')),
        attempts.map((a) => a.eventId),
        attempts.map((a) => a.attemptNumber),
        attempts.map((a) => a.manual),
        this.leaseSeconds,
        attempts.map((a) => a.endpointId),
        this.owner,
      ],
    );
    return leased(result.rows, sentAt);
  }

  /**
   * Deletes up to `limit` delivery records created before `before`, then up
   * to `limit` events created before it that no record names any more:
   * short statements on rows no sweep holds (SKIP LOCKED), so replicas
   * share the work and no lock is held long. A record whose automatic retry
   * is still to come is kept. Returns how many of each went.
   */
  async deleteOlderThan(before: Date, limit: number): Promise<{ deliveries: number; events: number }> {
    const deliveries = await this.pool.query(
      `DELETE FROM deliveries WHERE id IN (
         SELECT id FROM deliveries
         WHERE created_at < $1 AND status <> 'PENDING' AND NOT (status = 'FAILED' AND NOT retried AND next_retry_at IS NOT NULL)
         LIMIT $2 FOR UPDATE SKIP LOCKED
       )`,
      [before, limit],
    );
    const events = await this.pool.query(
      `DELETE FROM events WHERE id IN (
         SELECT id FROM events e WHERE created_at < $1 AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)
         LIMIT $2 FOR UPDATE SKIP LOCKED
       )`,
      [before, limit],
    );
    return { deliveries: deliveries.rowCount ?? 0, events: events.rowCount ?? 0 };
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

  /** Whether `deliveryId` is one of the account's deliveries matching `filters` (of a session, in a status): a valid cursor. */
  async exists(account: Account, deliveryId: string, filters: DeliveryFilters = {}): Promise<boolean> {
    const result = await this.pool.query(
      `SELECT 1 FROM deliveries WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND ($4::text IS NULL OR session_id = $4) AND ($5::text IS NULL OR status = $5)`,
      [deliveryId, account.merchantId, account.livemode, filters.sessionId ?? null, filters.status ?? null],
    );
    return result.rowCount === 1;
  }

  /**
   * One page of the account's attempts matching `filters` (of one session, in
   * one status), newest first by creation order. `before`: older than that
   * attempt; `after`: the nearest newer ones, read oldest first. Up to
   * limit + 1 rows. Each filter is written into the statement only when given,
   * so the planner sees which index serves it (deliveries_account,
   * deliveries_account_status, deliveries_session).
   */
  async page(account: Account, limit: number, cursor: { before?: string; after?: string } & DeliveryFilters): Promise<DeliveryRow[]> {
    const params: unknown[] = [account.merchantId, account.livemode, limit + 1];
    let where = '';
    if (cursor.sessionId !== undefined) {
      params.push(cursor.sessionId);
      where += ` AND session_id = $${params.length}`;
    }
    if (cursor.status !== undefined) {
      params.push(cursor.status);
      where += ` AND status = $${params.length}`;
    }
    let order = 'DESC';
    const anchor = cursor.before ?? cursor.after;
    if (anchor !== undefined) {
      params.push(anchor);
      where += ` AND seq ${cursor.before !== undefined ? '<' : '>'} (SELECT seq FROM deliveries WHERE id = $${params.length} AND merchant_id = $1 AND livemode = $2)`;
      if (cursor.after !== undefined) order = 'ASC';
    }
    const result = await this.pool.query<DeliveryRow>(
      `SELECT ${ROW_COLUMNS} FROM deliveries WHERE merchant_id = $1 AND livemode = $2${where} ORDER BY seq ${order} LIMIT $3`,
      params,
    );
    return result.rows;
  }

  /**
   * One attempt of merchant `merchantId` (either mode) with the exact body
   * that was signed and sent and the start of the answer; undefined when there
   * is no such attempt of that merchant.
   */
  async attempt(merchantId: string, deliveryId: string): Promise<AttemptDetailRow | undefined> {
    const result = await this.pool.query<AttemptDetailRow>(
      `SELECT ${ROW_COLUMNS.split(',').map((column) => `d.${column.trim()}`).join(', ')}, e.body AS payload, d.response_body
       FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = $1 AND d.merchant_id = $2`,
      [deliveryId, merchantId],
    );
    return result.rows[0];
  }
}
