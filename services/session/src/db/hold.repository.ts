/**
 * Storage of a held payment (D22): an AUTHORIZED session's hold, claimed for
 * a capture, captured or released back, and the lapse of a hold no capture
 * took in time. Every state change commits together with its events.
 */
import type { Envelope } from '@gateway/contracts';
import { leaseClaim, skipLocked, withTransaction, type Pool, type PoolClient } from '@gateway/db';
import { enqueue, outboxInsert, outboxJson, outboxRows } from '@gateway/messaging';
import type { SessionRow } from '../domain/session.js';
import { COLUMNS, DETAIL_COLUMNS } from './session-columns.js';

/** A capture to ask the adapter about again: what payment.capture is sent. */
export interface CaptureCheck {
  capture_id: string;
  attempt_id: string;
  session_id: string;
  merchant_id: string;
  livemode: boolean;
  amount: string;
}

/** Up to $2 AUTHORIZED sessions whose hold lapsed by $1 with no capture under way, locked, skipping those another transaction holds. */
const LAPSED_HOLDS = skipLocked({
  select: DETAIL_COLUMNS,
  from: 'sessions',
  where: "status = 'AUTHORIZED' AND capturing_amount IS NULL AND hold_expires_at <= $1",
  orderBy: 'hold_expires_at',
  limit: '$2',
});

/**
 * Claims up to $2 captures under way whose next check has come by $1, and
 * puts their next check the wait of $3 their count of checks names on.
 */
const CLAIM_STUCK_CAPTURES = leaseClaim({
  table: 'sessions s',
  key: 'id',
  where: "status = 'AUTHORIZED' AND capturing_amount IS NOT NULL AND capture_next_check_at <= $1",
  orderBy: 'capture_next_check_at',
  limit: '$2',
  set: 'capture_checks = s.capture_checks + 1, capture_next_check_at = $1::timestamptz + make_interval(secs => ($3::float8[])[least(s.capture_checks + 1, cardinality($3::float8[]))])',
  returning: 's.id, s.merchant_id, s.livemode, s.capturing_amount, s.capture_id',
  then: `SELECT c.capture_id, a.id AS attempt_id, c.id AS session_id, c.merchant_id, c.livemode, c.capturing_amount::text AS amount
         FROM claimed c JOIN attempts a ON a.session_id = c.id AND a.status = 'SUCCEEDED'`,
});

export class HoldRepository {
  constructor(private readonly pool: Pool) {}

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
  async expireLapsed(now: Date, limit: number, announce: (expired: SessionRow) => Envelope[]): Promise<number> {
    return withTransaction(this.pool, async (tx) => {
      const due = await tx.query<SessionRow>(LAPSED_HOLDS, [now, limit]);
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
   * `waitsSeconds[checks]` seconds on, as AttemptRepository.claimStuck does.
   */
  async claimStuckCaptures(now: Date, limit: number, waitsSeconds: readonly number[]): Promise<CaptureCheck[]> {
    const result = await this.pool.query<CaptureCheck>(CLAIM_STUCK_CAPTURES, [now, limit, waitsSeconds]);
    return result.rows;
  }
}
