/**
 * Delivery attempts. Every path that makes an attempt due (a new event, see
 * event.repository.ts; a retry whose time has come, an abandoned attempt, a
 * resend) claims it with a lease in the same statement that reads what sending needs,
 * so a replica that dies loses nothing: its leases lapse and the sweep of any
 * replica takes them. An attempt may wait in memory longer than its lease
 * (a slow endpoint's backlog); its replica then claims it again just before
 * sending (claimForSending), and that fails when another replica took it in
 * the meantime, so one attempt is sent by one replica.
 */
import { newId } from '@gateway/contracts';
import { leaseClaim, withTransaction, type Pool, type Queryable } from '@gateway/db';
import { ENDPOINT_KEY_SQL } from '../delivery/delivery-queue.js';
import type { Account } from '../domain/accounts.js';
import { jobsOf, LEASE_LEFT_MS, leased, TARGET_URL, type ClaimedRow, type DeliveryJob } from './delivery-jobs.js';

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

/** Up to $1 failed attempts whose retry has come: each is marked retried, so one new attempt follows it. */
const CLAIM_DUE_RETRIES = leaseClaim({
  table: 'deliveries x',
  key: 'id',
  where: "status = 'FAILED' AND NOT retried AND next_retry_at IS NOT NULL AND next_retry_at <= now()",
  orderBy: 'next_retry_at',
  limit: '$1',
  set: 'retried = true',
  returning: 'x.event_id, x.endpoint_id, x.attempt_number',
});

/** Up to $1 attempts whose lease lapsed, but to the endpoints $3, leased for $2 seconds to replica $4. */
const RECLAIM_ABANDONED = leaseClaim({
  table: 'deliveries x',
  key: 'id',
  where: `status = 'PENDING' AND lease_until <= now() AND ${ENDPOINT_KEY_SQL} <> ALL($3::text[])`,
  orderBy: 'lease_until',
  limit: '$1',
  set: 'lease_until = now() + make_interval(secs => $2), lease_owner = $4',
  returning: 'x.*',
  then: jobsOf('claimed'),
});

/** The attempts $1 still PENDING that replica $3 holds or nobody does, leased to it for $2 seconds more. */
const CLAIM_FOR_SENDING = leaseClaim({
  table: 'deliveries x',
  key: 'id',
  where: "id = ANY($1::text[]) AND status = 'PENDING' AND (lease_owner = $3 OR lease_owner IS NULL OR lease_until <= now())",
  set: 'lease_until = now() + make_interval(secs => $2), lease_owner = $3',
  returning: 'x.id, x.lease_until',
  then: `SELECT d.id, ${LEASE_LEFT_MS} FROM claimed d`,
});

export class DeliveryRepository {
  constructor(
    private readonly pool: Pool,
    private readonly leaseSeconds: number,
    /** This replica's name on the leases it holds (lease_owner). */
    private readonly owner: string,
  ) {}

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
      const due = await tx.query<{ event_id: string; endpoint_id: string; attempt_number: number }>(CLAIM_DUE_RETRIES, [limit]);
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
    const result = await this.pool.query<ClaimedRow>(RECLAIM_ABANDONED, [limit, this.leaseSeconds, skipEndpoints, this.owner]);
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
    const result = await this.pool.query<{ id: string; leaseLeftMs: number }>(CLAIM_FOR_SENDING, [deliveryIds, this.leaseSeconds, this.owner]);
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
       ), inserted AS (
         INSERT INTO deliveries (id, endpoint_id, event_id, event_type, merchant_id, livemode, session_id, url, attempt_number, manual, status, lease_until, lease_owner)
         SELECT n.id, ep.id, e.id, e.type, e.merchant_id, e.livemode, e.session_id, ${TARGET_URL}, n.attempt_number, n.manual, 'PENDING',
           now() + make_interval(secs => $5), $7
         FROM next n JOIN events e ON e.id = n.event_id
         JOIN endpoints ep ON ep.id = n.endpoint_id
         WHERE ${TARGET_URL} <> '' AND (n.manual OR ep.is_default OR ep.status = 'enabled')
         RETURNING *
       )
       ${jobsOf('inserted')}`,
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
}
