/**
 * Storage of a session's payment attempts: the start of one, which moves its
 * session to PROCESSING, its outcome, which moves the session on and is
 * counted on its day (attempt_days), and the claim of attempts left
 * PROCESSING for a check at the adapter.
 */
import type { Envelope, Language, PaymentMethodType, StartedAttempt } from '@gateway/contracts';
import { leaseClaim, type Pool } from '@gateway/db';
import { outboxInsert, outboxJson, outboxRows } from '@gateway/messaging';
import type { SessionRow } from '../domain/session.js';
import { COLUMNS } from './session-columns.js';

/**
 * The outcome of the attempt the statement resolved ($1, `attempt` and
 * `resolved` in it), counted on its account's Tunis day (attempt_days).
 */
const COUNT_ATTEMPT = `INSERT INTO attempt_days (merchant_id, livemode, day, status, failure_code, slot, attempts)
  SELECT r.merchant_id, r.livemode, (a.created_at AT TIME ZONE 'Africa/Tunis')::date, $2, CASE WHEN $2 = 'FAILED' THEN $6 ELSE '' END, hashtext($1) & 7, 1
  FROM resolved r, attempt a
  ON CONFLICT (merchant_id, livemode, day, status, failure_code, slot) DO UPDATE SET attempts = attempt_days.attempts + 1`;

/**
 * Claims up to $3 attempts PROCESSING since before $2 whose next check has
 * come by $1, and puts their next check the wait of $4 their count of checks
 * names on (the last wait once past the end).
 */
const CLAIM_STUCK = leaseClaim({
  table: 'attempts a',
  key: 'id',
  where: "a.status = 'PROCESSING' AND a.created_at <= $2 AND (a.next_check_at IS NULL OR a.next_check_at <= $1)",
  orderBy: 'a.created_at',
  limit: '$3',
  set: 'checks = a.checks + 1, next_check_at = $1::timestamptz + make_interval(secs => ($4::float8[])[least(a.checks + 1, cardinality($4::float8[]))])',
  returning: 'a.id, a.attempt_number, a.session_id, a.payment_method_type',
  then: `SELECT c.id AS attempt_id, c.attempt_number::int, s.id AS session_id, s.merchant_id, s.livemode, s.order_number,
           s.amount::text, s.description, s.capture_method, c.payment_method_type
         FROM claimed c JOIN sessions s ON s.id = c.session_id`,
});

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

export class AttemptRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Starts attempt `attemptId` on an open session the checkout link, still
   * live, belongs to, in one statement: CREATED or PENDING becomes PROCESSING
   * and the attempt is counted, with the language of the page it is paid on
   * (the receipts'); never for a suspended merchant. Concurrent starts
   * serialise on the row; only the first finds the session open. Undefined
   * when the session could not start one.
   */
  async start(sessionId: string, checkoutLinkId: string, attemptId: string, now: Date, pageLanguage: Language, method: PaymentMethodType = 'card'): Promise<SessionRow | undefined> {
    const result = await this.pool.query<SessionRow>({
      name: 'attempt-start',
      text: `WITH started AS (
         UPDATE sessions SET status = 'PROCESSING', attempts_count = attempts_count + 1, page_language = $5
         WHERE id = $1 AND status IN ('CREATED', 'PENDING') AND expires_at > $3 AND attempts_count < max_attempts
           AND EXISTS (SELECT 1 FROM checkout_links l WHERE l.id = $2 AND l.session_id = $1 AND l.expires_at > $3)
           AND NOT EXISTS (SELECT 1 FROM merchant_standing m WHERE m.merchant_id = sessions.merchant_id AND m.suspended)
         RETURNING ${COLUMNS}
       ), attempt AS (
         INSERT INTO attempts (id, session_id, attempt_number, status, created_at, payment_method_type)
         SELECT $4, id, attempts_count, 'PROCESSING', $3, $6 FROM started
       )
       SELECT * FROM started`,
      values: [sessionId, checkoutLinkId, now, attemptId, pageLanguage, method],
    });
    return result.rows[0];
  }

  /**
   * The session, whoever's it is, when attempt `attemptId` is still
   * PROCESSING under it: for applying a payment outcome, which names both.
   * Undefined when the attempt was resolved already (or is unknown).
   */
  async findSessionWithOpenAttempt(sessionId: string, attemptId: string): Promise<SessionRow | undefined> {
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
  async resolve(outcome: AttemptOutcome, sessionId: string, resolution: AttemptResolution, event: Envelope): Promise<{ resolved: boolean; open: boolean }> {
    const result = await this.pool.query<{ resolved: boolean; open: boolean }>({
      name: 'attempt-resolve',
      text: `WITH open AS (
               SELECT 1 FROM attempts WHERE id = $1 AND session_id = $17 AND status = 'PROCESSING'
             ), resolved AS (
               UPDATE sessions SET status = $11, completed_at = $12, last_failure_code = $13, last_failure_message = $14,
                 amount_authorized = CASE WHEN $11 = 'AUTHORIZED' THEN amount ELSE amount_authorized END,
                 authorized_at = CASE WHEN $11 = 'AUTHORIZED' THEN $10 ELSE authorized_at END,
                 hold_expires_at = $18,
                 paid_with = CASE WHEN $11 IN ('SUCCEEDED', 'AUTHORIZED') THEN (SELECT payment_method_type FROM attempts WHERE id = $1) ELSE paid_with END
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

  /**
   * Claims up to `limit` attempts PROCESSING since before `startedBefore`
   * whose next check has come, and puts their next check `waitsSeconds[checks]`
   * seconds on (the last wait once past the end), so no other replica asks
   * about them meanwhile.
   */
  async claimStuck(now: Date, startedBefore: Date, limit: number, waitsSeconds: readonly number[]): Promise<StartedAttempt[]> {
    const result = await this.pool.query<StartedAttempt>(CLAIM_STUCK, [now, startedBefore, limit, waitsSeconds]);
    return result.rows;
  }
}
