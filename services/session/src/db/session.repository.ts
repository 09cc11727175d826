/**
 * Storage of sessions, their checkout links and the merchants' exchange rates.
 * Every state change commits together with the outbox row announcing it.
 */
import type { Envelope, Language, StartedAttempt } from '@gateway/contracts';
import { isOwnRow, readPage, withTransaction, type Filter, type Pool, type PoolClient } from '@gateway/db';
import { enqueue, outboxInsert, outboxJson, outboxRecord, outboxRows } from '@gateway/messaging';
import type { MintedLink } from '../domain/checkout-links.js';
import type { SessionRow } from '../domain/session.js';
import { NewSessionBatches, newSessionValues } from './new-session-batches.js';

const COLUMNS = `id, merchant_id, livemode, merchant_reference, order_number, order_id, amount, original_amount,
  original_currency, rate, description, items, metadata, buyer_first_name, buyer_last_name, buyer_email,
  buyer_phone, return_url, cancel_url, webhook_url, max_attempts, status, expires_at, completed_at, created_at,
  checkout_link_id, checkout_token, checkout_expires_at, amount_refunded, merchant_name, attempts_count,
  last_failure_code, last_failure_message, locale, capture_method, amount_authorized, authorized_at, hold_expires_at, amount_captured,
  capturing_amount, capture_id, capture_key, payment_link, page_language`;

/** COLUMNS of a query where the sessions table is `s`. */
const SESSION_COLUMNS = COLUMNS.split(',')
  .map((column) => `s.${column.trim()}`)
  .join(', ');

/** The columns plus the session's attempts, oldest first, for a detail. */
const DETAIL_COLUMNS = `${COLUMNS},
  (SELECT coalesce(json_agg(json_build_object(
     'id', a.id, 'attempt_number', a.attempt_number, 'status', a.status, 'card_brand', a.card_brand,
     'card_last_four', a.card_last_four, 'card_country', a.card_country, 'failure_code', a.failure_code,
     'failure_message', a.failure_message, 'fee_amount', a.fee_amount::text, 'net_amount', a.net_amount::text,
     'created_at', to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
   ) ORDER BY a.attempt_number), '[]'::json) FROM attempts a WHERE a.session_id = sessions.id) AS attempts`;

/**
 * The outcome of the attempt the statement resolved ($1, `attempt` and
 * `resolved` in it), counted on its account's Tunis day (attempt_days).
 */
const COUNT_ATTEMPT = `INSERT INTO attempt_days (merchant_id, livemode, day, status, failure_code, slot, attempts)
  SELECT r.merchant_id, r.livemode, (a.created_at AT TIME ZONE 'Africa/Tunis')::date, $2, CASE WHEN $2 = 'FAILED' THEN $6 ELSE '' END, hashtext($1) & 7, 1
  FROM resolved r, attempt a
  ON CONFLICT (merchant_id, livemode, day, status, failure_code, slot) DO UPDATE SET attempts = attempt_days.attempts + 1`;

/** One account's attempts of one Tunis day with one outcome (and failure code), as attempt_days sums them. */
export interface AttemptDayRow {
  day: string;
  status: 'SUCCEEDED' | 'FAILED';
  failure_code: string;
  attempts: number;
}

/** What a payment outcome changes on an attempt. */
export interface AttemptOutcome {
  attemptId: string;
  status: 'SUCCEEDED' | 'FAILED';
  /** Approved and held, not captured (D22): the session becomes AUTHORIZED, its hold lapsing at holdExpiresAt. */
  held?: boolean;
  holdExpiresAt?: Date;
  cardBrand: string;
  cardLastFour: string;
  cardCountry: string;
  failureCode: string;
  failureMessage: string;
  feeAmount: string | null;
  netAmount: string | null;
  at: Date;
}

/** Where a PROCESSING session goes with an attempt's outcome, decided from its row. */
export interface AttemptResolution {
  status: 'SUCCEEDED' | 'AUTHORIZED' | 'PENDING' | 'FAILED';
  completedAt: Date | null;
  /** When the payment was held (AUTHORIZED, D22), and when that hold lapses. */
  authorizedAt: Date | null;
  holdExpiresAt: Date | null;
  lastFailureCode: string;
  lastFailureMessage: string;
  /** The attempts the session had when the move was decided. */
  attemptsCount: number;
}

/** A capture to ask the adapter about again: what payment.capture is sent. */
export interface CaptureCheck {
  capture_id: string;
  attempt_id: string;
  session_id: string;
  merchant_id: string;
  livemode: boolean;
  amount: string;
}

export interface Account {
  merchantId: string;
  livemode: boolean;
}

/** Narrowing of the session list (issue 19); instants are RFC 3339 strings, compared by PostgreSQL as timestamptz. */
export interface SessionFilters {
  status?: string;
  createdGte?: string;
  createdLte?: string;
  merchantReference?: string;
  /** The payment link the sessions were made through (D19): the dashboard's filter, never the API's. */
  paymentLink?: string;
}

/** The filters as SQL conditions on `sessions`, their values appended to `params`. */
function filtersOf(filters: SessionFilters): Filter[] {
  return [
    ['status = ?', filters.status],
    ['created_at >= ?::timestamptz', filters.createdGte],
    ['created_at <= ?::timestamptz', filters.createdLte],
    ['merchant_reference = ?', filters.merchantReference],
    ['payment_link = ?', filters.paymentLink],
  ];
}

export class SessionRepository {
  private readonly newSessions: NewSessionBatches;

  constructor(private readonly pool: Pool) {
    this.newSessions = new NewSessionBatches(pool);
  }

  /**
   * Inserts a new session with its first link and its `session.created` event,
   * in one statement. Returns false, inserting nothing, when the merchant
   * reference or the order number is already taken. The creates asked for in
   * one pass of the event loop go together in one statement and one commit
   * (NewSessionBatches); each is answered only once that commit is done.
   */
  async insertNew(row: SessionRow, event: Envelope): Promise<boolean> {
    return this.newSessions.insert(newSessionValues(row, outboxRecord(event)));
  }

  async findByReference(account: Account, merchantReference: string): Promise<SessionRow | undefined> {
    const result = await this.pool.query<SessionRow>({
      name: 'session-by-reference',
      text: `SELECT ${DETAIL_COLUMNS} FROM sessions WHERE merchant_id = $1 AND livemode = $2 AND merchant_reference = $3`,
      values: [account.merchantId, account.livemode, merchantReference],
    });
    return result.rows[0];
  }

  /** The session, when it exists and belongs to this merchant in this mode. */
  async find(account: Account, sessionId: string): Promise<SessionRow | undefined> {
    const result = await this.pool.query<SessionRow>({
      name: 'session-by-id',
      text: `SELECT ${DETAIL_COLUMNS} FROM sessions WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      values: [sessionId, account.merchantId, account.livemode],
    });
    return result.rows[0];
  }

  /**
   * Runs `work` with the session locked (FOR UPDATE) in a transaction; `work`
   * gets undefined when there is no such session. With an account, only that
   * account's sessions are found; without one (a buyer holding a signed link),
   * any.
   */
  async withLockedSession<T>(account: Account | undefined, sessionId: string, work: (row: SessionRow | undefined, tx: PoolClient) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, async (tx) => {
      const result = account
        ? await tx.query<SessionRow>(`SELECT ${DETAIL_COLUMNS} FROM sessions WHERE id = $1 AND merchant_id = $2 AND livemode = $3 FOR UPDATE`, [
            sessionId,
            account.merchantId,
            account.livemode,
          ])
        : await tx.query<SessionRow>(`SELECT ${DETAIL_COLUMNS} FROM sessions WHERE id = $1 FOR UPDATE`, [sessionId]);
      return work(result.rows[0], tx);
    });
  }

  /** The session a buyer's link names, and whether the session issued that link. */
  async findForCheckout(sessionId: string, linkId: string): Promise<{ row: SessionRow; linkKnown: boolean; merchantSuspended: boolean } | undefined> {
    const result = await this.pool.query<SessionRow & { link_known: boolean; merchant_suspended: boolean }>({
      name: 'session-for-checkout',
      text: `SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM checkout_links l WHERE l.id = $2 AND l.session_id = sessions.id) AS link_known,
                    EXISTS (SELECT 1 FROM merchant_standing m WHERE m.merchant_id = sessions.merchant_id AND m.suspended) AS merchant_suspended
             FROM sessions WHERE id = $1`,
      values: [sessionId, linkId],
    });
    const row = result.rows[0];
    return row ? { row, linkKnown: row.link_known, merchantSuspended: row.merchant_suspended } : undefined;
  }

  /**
   * Records that `merchantId` is (or is no longer) suspended, as an event of
   * `at` announced it; an announcement older than the one recorded changes
   * nothing. Whether it changed the standing.
   */
  async setMerchantStanding(merchantId: string, suspended: boolean, at: Date): Promise<boolean> {
    const result = await this.pool.query(
      `INSERT INTO merchant_standing (merchant_id, suspended, changed_at) VALUES ($1, $2, $3)
       ON CONFLICT (merchant_id) DO UPDATE SET suspended = EXCLUDED.suspended, changed_at = EXCLUDED.changed_at
       WHERE merchant_standing.changed_at < EXCLUDED.changed_at`,
      [merchantId, suspended, at],
    );
    return result.rowCount === 1;
  }

  /**
   * Starts attempt `attemptId` on an open session the link, still live, belongs to, in one
   * statement: CREATED or PENDING becomes PROCESSING and the attempt is
   * counted, with the language of the page it is paid on (the receipts'); never for a suspended merchant. Concurrent starts serialise on the
   * row; only the first finds the session open. Undefined when the session
   * could not start one.
   */
  async startAttempt(sessionId: string, linkId: string, attemptId: string, now: Date, pageLanguage: Language): Promise<SessionRow | undefined> {
    const result = await this.pool.query<SessionRow>({
      name: 'attempt-start',
      text: `WITH started AS (
         UPDATE sessions SET status = 'PROCESSING', attempts_count = attempts_count + 1, page_language = $5
         WHERE id = $1 AND status IN ('CREATED', 'PENDING') AND expires_at > $3 AND attempts_count < max_attempts
           AND EXISTS (SELECT 1 FROM checkout_links l WHERE l.id = $2 AND l.session_id = $1 AND l.expires_at > $3)
           AND NOT EXISTS (SELECT 1 FROM merchant_standing m WHERE m.merchant_id = sessions.merchant_id AND m.suspended)
         RETURNING ${COLUMNS}
       ), attempt AS (
         INSERT INTO attempts (id, session_id, attempt_number, status, created_at)
         SELECT $4, id, attempts_count, 'PROCESSING', $3 FROM started
       )
       SELECT * FROM started`,
      values: [sessionId, linkId, now, attemptId, pageLanguage],
    });
    return result.rows[0];
  }

  /**
   * The session, whoever's it is, when attempt `attemptId` is still
   * PROCESSING under it: for applying a payment outcome, which names both.
   * Undefined when the attempt was resolved already (or is unknown).
   */
  async findWithOpenAttempt(sessionId: string, attemptId: string): Promise<SessionRow | undefined> {
    const result = await this.pool.query<SessionRow>({
      name: 'session-with-open-attempt',
      text: `SELECT ${COLUMNS} FROM sessions
             WHERE id = $1 AND EXISTS (SELECT 1 FROM attempts a WHERE a.id = $2 AND a.session_id = $1 AND a.status = 'PROCESSING')`,
      values: [sessionId, attemptId],
    });
    return result.rows[0];
  }

  /**
   * Records the outcome of attempt `outcome.attemptId` of session `sessionId`
   * and the session's move, with the event announcing it, in one statement.
   * All or nothing: it applies only while the attempt is PROCESSING under that
   * session and the session is still PROCESSING with `resolution.attemptsCount`
   * attempts (so the caller decided its move from the row as it stands).
   * `resolved` says it applied; otherwise `open` says whether the attempt was
   * still PROCESSING under that session when the statement looked (a caller
   * whose row was stale may read it again and retry).
   */
  async resolveAttempt(outcome: AttemptOutcome, sessionId: string, resolution: AttemptResolution, event: Envelope): Promise<{ resolved: boolean; open: boolean }> {
    const result = await this.pool.query<{ resolved: boolean; open: boolean }>({
      name: 'attempt-resolve',
      text: `WITH open AS (
               SELECT 1 FROM attempts WHERE id = $1 AND session_id = $17 AND status = 'PROCESSING'
             ), resolved AS (
               UPDATE sessions SET status = $11, completed_at = $12, last_failure_code = $13, last_failure_message = $14,
                 amount_authorized = CASE WHEN $11 = 'AUTHORIZED' THEN amount ELSE amount_authorized END,
                 authorized_at = CASE WHEN $11 = 'AUTHORIZED' THEN $10 ELSE authorized_at END,
                 hold_expires_at = $18
               WHERE id = $17 AND status = 'PROCESSING' AND attempts_count = $15 AND EXISTS (SELECT 1 FROM open)
               RETURNING id, merchant_id, livemode
             ), attempt AS (
               UPDATE attempts SET status = $2, card_brand = $3, card_last_four = $4, card_country = $5, failure_code = $6,
                 failure_message = $7, fee_amount = $8, net_amount = $9, completed_at = $10
               WHERE id = $1 AND session_id = (SELECT id FROM resolved) AND status = 'PROCESSING'
               RETURNING created_at
             ), counted AS (
               ${COUNT_ATTEMPT}
             ), announced AS (
               ${outboxInsert(`${outboxRows('$16')} WHERE EXISTS (SELECT 1 FROM resolved)`)}
             )
             SELECT EXISTS (SELECT 1 FROM resolved) AS resolved, EXISTS (SELECT 1 FROM open) AS open`,
      values: [
        outcome.attemptId,
        outcome.status,
        outcome.cardBrand,
        outcome.cardLastFour,
        outcome.cardCountry,
        outcome.failureCode,
        outcome.failureMessage,
        outcome.feeAmount,
        outcome.netAmount,
        outcome.at,
        resolution.status,
        resolution.completedAt,
        resolution.lastFailureCode,
        resolution.lastFailureMessage,
        resolution.attemptsCount,
        outboxJson([event]),
        sessionId,
        resolution.holdExpiresAt,
      ],
    });
    return result.rows[0] ?? { resolved: false, open: false };
  }

  /** Records a new link as the session's newest (within the caller's transaction). */
  async addLink(tx: PoolClient, sessionId: string, link: MintedLink, now: Date): Promise<void> {
    await tx.query('INSERT INTO checkout_links (id, session_id, expires_at, created_at) VALUES ($1, $2, $3, $4)', [link.id, sessionId, link.expiresAt, now]);
    await tx.query('UPDATE sessions SET checkout_link_id = $2, checkout_token = $3, checkout_expires_at = $4 WHERE id = $1', [
      sessionId,
      link.id,
      link.token,
      link.expiresAt,
    ]);
  }

  async countActiveLinks(tx: PoolClient, sessionId: string, now: Date): Promise<number> {
    const result = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM checkout_links WHERE session_id = $1 AND expires_at > $2', [sessionId, now]);
    return result.rows[0]?.n ?? 0;
  }

  /** Moves the session to a terminal status and enqueues the event, within the caller's transaction. */
  async finish(tx: PoolClient, sessionId: string, status: SessionRow['status'], completedAt: Date, events: readonly Envelope[]): Promise<void> {
    await tx.query('UPDATE sessions SET status = $2, completed_at = $3 WHERE id = $1', [sessionId, status, completedAt]);
    await enqueue(tx, events);
  }

  /**
   * Records as EXPIRED up to `limit` CREATED or PENDING sessions whose
   * lifetime ended by `now`, each with the event `announce` makes of it, in
   * one transaction. Sessions another replica is sweeping, or that a buyer is
   * starting to pay, are locked and skipped. Answers how many it expired.
   */
  async expireDue(now: Date, limit: number, announce: (expired: SessionRow) => Envelope): Promise<number> {
    return withTransaction(this.pool, async (tx) => {
      const due = await tx.query<SessionRow>(
        `SELECT ${COLUMNS} FROM sessions WHERE status IN ('CREATED', 'PENDING') AND expires_at <= $1
         ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now, limit],
      );
      if (due.rows.length === 0) return 0;
      await tx.query(`UPDATE sessions SET status = 'EXPIRED', completed_at = expires_at WHERE id = ANY($1::text[])`, [due.rows.map((r) => r.id)]);
      await enqueue(
        tx,
        due.rows.map((row) => announce({ ...row, status: 'EXPIRED', completed_at: row.expires_at })),
      );
      return due.rows.length;
    });
  }

  /**
   * Handles up to `limit` links that lapsed by `now`, each once: a link that
   * lapsed while its session could still be paid, before the session's own
   * end, gets the event `announce` makes of the session; the others (session
   * paid, failed, canceled, or ending with the link) only get marked. Links
   * of a session being paid wait until the payment resolves.
   */
  async handleLapsedLinks(now: Date, limit: number, announce: (session: SessionRow) => Envelope): Promise<number> {
    return withTransaction(this.pool, async (tx) => {
      const lapsed = await tx.query<SessionRow & { link_id: string; announce: boolean }>(
        `SELECT l.id AS link_id, (s.status IN ('CREATED', 'PENDING') AND l.expires_at < s.expires_at) AS announce, ${SESSION_COLUMNS}
         FROM checkout_links l JOIN sessions s ON s.id = l.session_id
         WHERE NOT l.lapse_handled AND l.expires_at <= $1 AND s.status <> 'PROCESSING'
         ORDER BY l.expires_at LIMIT $2 FOR UPDATE OF l SKIP LOCKED`,
        [now, limit],
      );
      if (lapsed.rows.length === 0) return 0;
      await tx.query('UPDATE checkout_links SET lapse_handled = true WHERE id = ANY($1::text[])', [lapsed.rows.map((r) => r.link_id)]);
      await enqueue(
        tx,
        lapsed.rows.filter((r) => r.announce).map(({ link_id: _link, announce: _announce, ...session }) => announce(session)),
      );
      return lapsed.rows.length;
    });
  }

  /**
   * Claims up to `limit` attempts PROCESSING since before `startedBefore`
   * whose next check has come, and puts their next check `waitsSeconds[checks]`
   * seconds on (the last wait once past the end), so no other replica asks
   * about them meanwhile.
   */
  async claimStuckAttempts(now: Date, startedBefore: Date, limit: number, waitsSeconds: readonly number[]): Promise<StartedAttempt[]> {
    const result = await this.pool.query<StartedAttempt>(
      `WITH due AS (
         SELECT a.id FROM attempts a
         WHERE a.status = 'PROCESSING' AND a.created_at <= $2 AND (a.next_check_at IS NULL OR a.next_check_at <= $1)
         ORDER BY a.created_at LIMIT $3 FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE attempts a SET checks = a.checks + 1,
           next_check_at = $1::timestamptz + make_interval(secs => ($4::float8[])[least(a.checks + 1, cardinality($4::float8[]))])
         FROM due WHERE a.id = due.id
         RETURNING a.id, a.attempt_number, a.session_id
       )
       SELECT c.id AS attempt_id, c.attempt_number::int, s.id AS session_id, s.merchant_id, s.livemode, s.order_number,
         s.amount::text, s.description, s.capture_method
       FROM claimed c JOIN sessions s ON s.id = c.session_id`,
      [now, startedBefore, limit, waitsSeconds],
    );
    return result.rows;
  }

  /**
   * Claims an AUTHORIZED session's hold for a capture of `amount` (D22), within
   * the caller's transaction that holds the row locked: until the capture's
   * outcome is recorded, a second capture, a cancel and the lapse sweep leave
   * it alone. `key` is the request's Idempotency-Key, so its retry can be
   * answered once the capture is done; `checkAt` is when a capture whose
   * answer never came is first asked about again.
   */
  async claimCapture(tx: PoolClient, sessionId: string, claim: { captureId: string; amount: string; key: string | undefined }, checkAt: Date): Promise<void> {
    await tx.query(
      `UPDATE sessions SET capturing_amount = $2, capture_id = $3, capture_key = $4, capture_checks = 0, capture_next_check_at = $5
       WHERE id = $1 AND status = 'AUTHORIZED' AND capturing_amount IS NULL`,
      [sessionId, claim.amount, claim.captureId, claim.key ?? null, checkAt],
    );
  }

  /** The AUTHORIZED session whose hold attempt `attemptId` made, whoever's it is: for applying a capture's outcome. */
  async findHeld(sessionId: string, attemptId: string): Promise<SessionRow | undefined> {
    const result = await this.pool.query<SessionRow>({
      name: 'session-held',
      text: `SELECT ${COLUMNS} FROM sessions
             WHERE id = $1 AND status = 'AUTHORIZED' AND EXISTS (SELECT 1 FROM attempts a WHERE a.id = $2 AND a.session_id = $1 AND a.status = 'SUCCEEDED')`,
      values: [sessionId, attemptId],
    });
    return result.rows[0];
  }

  /**
   * Records a capture (D22) and its event in one statement, once: the session
   * goes from AUTHORIZED to SUCCEEDED with what was captured, and the attempt
   * gets the fee taken on it. False when the session was no longer
   * AUTHORIZED (the capture was recorded already).
   */
  async recordCapture(sessionId: string, attemptId: string, captured: { amount: string; feeAmount: string; netAmount: string; at: Date }, event: Envelope): Promise<boolean> {
    const result = await this.pool.query<{ captured: boolean }>({
      name: 'capture-record',
      text: `WITH captured AS (
               UPDATE sessions SET status = 'SUCCEEDED', amount_captured = $3, completed_at = $6, capturing_amount = NULL, capture_next_check_at = NULL
               WHERE id = $1 AND status = 'AUTHORIZED' AND EXISTS (SELECT 1 FROM attempts a WHERE a.id = $2 AND a.session_id = $1 AND a.status = 'SUCCEEDED')
               RETURNING id
             ), attempt AS (
               UPDATE attempts SET fee_amount = $4, net_amount = $5 WHERE id = $2 AND session_id = (SELECT id FROM captured)
             ), announced AS (
               ${outboxInsert(`${outboxRows('$7')} WHERE EXISTS (SELECT 1 FROM captured)`)}
             )
             SELECT EXISTS (SELECT 1 FROM captured) AS captured`,
      values: [sessionId, attemptId, captured.amount, captured.feeAmount, captured.netAmount, captured.at, outboxJson([event])],
    });
    return result.rows[0]?.captured ?? false;
  }

  /**
   * Capture `captureId` did not happen: its claim is released, so the hold
   * may be captured or voided again. True when that claim was still held (a
   * later claim is never released by an earlier capture's end).
   */
  async releaseCapture(sessionId: string, attemptId: string, captureId: string): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE sessions SET capturing_amount = NULL, capture_key = NULL, capture_next_check_at = NULL
       WHERE id = $1 AND status = 'AUTHORIZED' AND capturing_amount IS NOT NULL AND capture_id = $3
         AND EXISTS (SELECT 1 FROM attempts a WHERE a.id = $2 AND a.session_id = $1 AND a.status = 'SUCCEEDED')`,
      [sessionId, attemptId, captureId],
    );
    return result.rowCount === 1;
  }

  /**
   * Records as EXPIRED up to `limit` AUTHORIZED sessions whose hold lapsed by
   * `now` with no capture under way (D22), each with the events `announce`
   * makes of it (session.expired and the release of its hold), in one
   * transaction; rows another replica or a capture holds are skipped.
   */
  async expireHolds(now: Date, limit: number, announce: (expired: SessionRow) => Envelope[]): Promise<number> {
    return withTransaction(this.pool, async (tx) => {
      const due = await tx.query<SessionRow>(
        `SELECT ${DETAIL_COLUMNS} FROM sessions WHERE status = 'AUTHORIZED' AND capturing_amount IS NULL AND hold_expires_at <= $1
         ORDER BY hold_expires_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now, limit],
      );
      if (due.rows.length === 0) return 0;
      await tx.query(`UPDATE sessions SET status = 'EXPIRED', completed_at = hold_expires_at WHERE id = ANY($1::text[])`, [due.rows.map((r) => r.id)]);
      await enqueue(
        tx,
        due.rows.flatMap((row) => announce({ ...row, status: 'EXPIRED', completed_at: row.hold_expires_at })),
      );
      return due.rows.length;
    });
  }

  /**
   * Claims up to `limit` captures under way whose next check has come (their
   * answer was lost, or their replica died), and puts the next check
   * `waitsSeconds[checks]` seconds on, as claimStuckAttempts does.
   */
  async claimStuckCaptures(now: Date, limit: number, waitsSeconds: readonly number[]): Promise<CaptureCheck[]> {
    const result = await this.pool.query<CaptureCheck>(
      `WITH due AS (
         SELECT id FROM sessions
         WHERE status = 'AUTHORIZED' AND capturing_amount IS NOT NULL AND capture_next_check_at <= $1
         ORDER BY capture_next_check_at LIMIT $2 FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE sessions s SET capture_checks = s.capture_checks + 1,
           capture_next_check_at = $1::timestamptz + make_interval(secs => ($3::float8[])[least(s.capture_checks + 1, cardinality($3::float8[]))])
         FROM due WHERE s.id = due.id
         RETURNING s.id, s.merchant_id, s.livemode, s.capturing_amount, s.capture_id
       )
       SELECT c.capture_id, a.id AS attempt_id, c.id AS session_id, c.merchant_id, c.livemode, c.capturing_amount::text AS amount
       FROM claimed c JOIN attempts a ON a.session_id = c.id AND a.status = 'SUCCEEDED'`,
      [now, limit, waitsSeconds],
    );
    return result.rows;
  }

  /**
   * Counts a refund in the session's amount_refunded (`held`) or stops
   * counting it (`failed`), once per refund: a refund seen again changes
   * nothing, a failed one is never counted again, and one first seen as
   * failed never counts. Resolves with the session's new total when this call
   * changed what is recorded of the refund, undefined when it found it so.
   */
  async recordRefund(refund: { sessionId: string; refundId: string; amount: string; outcome: 'held' | 'failed' }): Promise<string | undefined> {
    return withTransaction(this.pool, async (client) => {
      const held = refund.outcome === 'held';
      const inserted = await client.query<{ delta: string }>(
        `INSERT INTO session_refunds (refund_id, session_id, amount, counted) VALUES ($1, $2, $3, $4)
         ON CONFLICT (refund_id) DO NOTHING RETURNING CASE WHEN counted THEN amount ELSE 0 END::text AS delta`,
        [refund.refundId, refund.sessionId, refund.amount, held],
      );
      let delta = inserted.rows[0]?.delta;
      if (delta === undefined && !held) {
        // Seen before (perhaps by a transaction that committed while this one waited): a new statement sees it, locked.
        const uncounted = await client.query<{ delta: string }>(
          `UPDATE session_refunds SET counted = false WHERE refund_id = $1 AND counted RETURNING (-amount)::text AS delta`,
          [refund.refundId],
        );
        delta = uncounted.rows[0]?.delta;
      }
      if (delta === undefined) return undefined;
      const result = await client.query<{ amount_refunded: string }>(
        'UPDATE sessions SET amount_refunded = amount_refunded + $2::numeric WHERE id = $1 RETURNING amount_refunded::text',
        [refund.sessionId, delta],
      );
      const row = result.rows[0];
      if (!row) throw new Error(`no session ${refund.sessionId}`);
      return row.amount_refunded;
    });
  }

  /** The session's amount_refunded; undefined when there is no such session. */
  async amountRefunded(sessionId: string): Promise<string | undefined> {
    const result = await this.pool.query<{ amount_refunded: string }>('SELECT amount_refunded::text FROM sessions WHERE id = $1', [sessionId]);
    return result.rows[0]?.amount_refunded;
  }

  /** Whether `sessionId` is one of the account's sessions matching `filters` (a valid list cursor). */
  async exists(account: Account, sessionId: string, filters: SessionFilters): Promise<boolean> {
    return isOwnRow(this.pool, 'sessions', account.merchantId, account.livemode, sessionId, filtersOf(filters));
  }

  /** The account's attempts from Tunis day `from` to `to` (both included) by day, outcome and failure code: a few rows a day, from attempt_days' key. */
  async attemptDays(account: Account, from: string, to: string): Promise<AttemptDayRow[]> {
    const result = await this.pool.query<AttemptDayRow>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, status, failure_code, sum(attempts)::integer AS attempts
       FROM attempt_days WHERE merchant_id = $1 AND livemode = $2 AND day BETWEEN $3::date AND $4::date
       GROUP BY day, status, failure_code`,
      [account.merchantId, account.livemode, from, to],
    );
    return result.rows;
  }

  /** One page of the account's sessions matching `filters`, newest first (readPage): up to limit + 1 rows. */
  async page(account: Account, limit: number, cursor: { before?: string; after?: string }, filters: SessionFilters): Promise<SessionRow[]> {
    return readPage<SessionRow>(this.pool, { table: 'sessions', columns: COLUMNS, merchantId: account.merchantId, livemode: account.livemode, filters: filtersOf(filters), limit, cursor });
  }

  async findRate(account: Account, currency: string): Promise<string | undefined> {
    const result = await this.pool.query<{ rate: string }>('SELECT rate FROM exchange_rates WHERE merchant_id = $1 AND livemode = $2 AND currency = $3', [
      account.merchantId,
      account.livemode,
      currency,
    ]);
    return result.rows[0]?.rate;
  }

  /** The account's rates, in currency order; rate as numeric(18,6) text. */
  async listRates(account: Account): Promise<{ currency: string; rate: string; updated_at: Date }[]> {
    const result = await this.pool.query<{ currency: string; rate: string; updated_at: Date }>(
      'SELECT currency, rate::text AS rate, updated_at FROM exchange_rates WHERE merchant_id = $1 AND livemode = $2 ORDER BY currency',
      [account.merchantId, account.livemode],
    );
    return result.rows;
  }

  async setRate(account: Account, currency: string, rate: string): Promise<string> {
    const result = await this.pool.query<{ rate: string }>(
      `INSERT INTO exchange_rates (merchant_id, livemode, currency, rate) VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_id, livemode, currency) DO UPDATE SET rate = EXCLUDED.rate, updated_at = now()
       RETURNING rate`,
      [account.merchantId, account.livemode, currency, rate],
    );
    return result.rows[0]?.rate ?? rate;
  }

  async removeRate(account: Account, currency: string): Promise<boolean> {
    const result = await this.pool.query('DELETE FROM exchange_rates WHERE merchant_id = $1 AND livemode = $2 AND currency = $3', [
      account.merchantId,
      account.livemode,
      currency,
    ]);
    return result.rowCount === 1;
  }
}
