/**
 * A two-phase order's hold (D22, migration 005): taken for a capture or a
 * release, once, then captured, returned or released, each with its event in
 * the same statement; a hold whose capture or release is under way carries
 * when reconciliation next looks at it (hold_next_check_at).
 */
import type { Envelope } from '@gateway/contracts';
import { leaseClaim, type Pool } from '@gateway/db';
import { outboxInsert, outboxJson, outboxRows } from '@gateway/messaging';
import { COLUMNS, type OrderRow } from './order.repository.js';

/** A hold whose capture or release is under way, claimed by the reconciliation sweep. */
export interface ClaimedHold extends OrderRow {
  hold: 'CAPTURING' | 'VOIDING';
  /** Checks since the hold last changed, this one included. */
  hold_checks: number;
  /** Seconds since the hold last changed, by the database's clock. */
  hold_age_seconds: number;
}

/** Up to $1 holds whose capture or release is under way and whose check has come, that check put $2 seconds on. */
const CLAIM_DUE_HOLDS = leaseClaim({
  table: 'orders',
  key: 'attempt_id',
  where: "hold IN ('CAPTURING', 'VOIDING') AND hold_next_check_at <= now()",
  orderBy: 'hold_next_check_at',
  limit: '$1',
  set: 'hold_next_check_at = now() + make_interval(secs => $2), hold_checks = hold_checks + 1',
  returning: `${COLUMNS}, hold_checks, extract(epoch FROM now() - hold_changed_at)::float8 AS hold_age_seconds`,
});

export class OrderHoldRepository {
  constructor(
    private readonly pool: Pool,
    /** How long after it is taken a hold is first looked at by reconciliation (the orders' first-check delay). */
    private readonly firstCheckAfterSeconds: number,
  ) {}

  /**
   * Takes an order's hold for a capture (named by the session's
   * `captureId`) or a release (D22), once: only a HELD hold of an AUTHORIZED
   * order is taken, and never for a capture id that already ended, so a
   * deposit and a reverse are never both sent, and neither twice.
   * Reconciliation leaves it to the caller for the first-check delay. False
   * when it was not taken.
   */
  async take(attemptId: string, to: { capture: string } | 'VOIDING'): Promise<boolean> {
    const captureId = to === 'VOIDING' ? null : to.capture;
    const result = await this.pool.query({
      name: 'order-take-hold',
      text: `UPDATE orders SET hold = $2, capture_id = coalesce($4, capture_id), hold_changed_at = now(), hold_checks = 0,
               hold_next_check_at = now() + make_interval(secs => $3)
             WHERE attempt_id = $1 AND status = 'AUTHORIZED' AND hold = 'HELD' AND ($4::text IS NULL OR NOT $4 = ANY (ended_captures))`,
      values: [attemptId, captureId === null ? 'VOIDING' : 'CAPTURING', this.firstCheckAfterSeconds, captureId],
    });
    return result.rowCount === 1;
  }

  /**
   * Records a capture and its event (payment.captured) in one statement,
   * once: the order is APPROVED with what the deposit took and the fee on it.
   * False when no capture of it was under way (recorded already).
   */
  async recordCapture(attemptId: string, captured: { amount: string; feeAmount: string; netAmount: string }, event: Envelope): Promise<boolean> {
    const result = await this.pool.query({
      name: 'order-record-capture',
      text: `WITH captured AS (
               UPDATE orders SET status = 'APPROVED', hold = 'CAPTURED', captured_amount = $2, captured_at = now(), fee_amount = $3, net_amount = $4,
                 updated_at = now(), hold_changed_at = now(), hold_next_check_at = NULL
               WHERE attempt_id = $1 AND status = 'AUTHORIZED' AND hold = 'CAPTURING'
               RETURNING attempt_id
             )
             ${outboxInsert(`${outboxRows('$5')} WHERE EXISTS (SELECT 1 FROM captured)`)}`,
      values: [attemptId, captured.amount, captured.feeAmount, captured.netAmount, outboxJson([event])],
    });
    return result.rowCount === 1;
  }

  /**
   * A capture that did not happen: the hold is HELD again (or, `released`,
   * gone: the acquirer reversed it), with its event (payment.capture_failed),
   * once. False when no capture of it was under way.
   */
  async endCapture(attemptId: string, event: Envelope, released = false): Promise<boolean> {
    const result = await this.pool.query({
      name: 'order-return-hold',
      text: `WITH returned AS (
               UPDATE orders SET hold = $2, hold_changed_at = now(), hold_next_check_at = NULL, ended_captures = ended_captures || capture_id
               WHERE attempt_id = $1 AND status = 'AUTHORIZED' AND hold = 'CAPTURING'
               RETURNING attempt_id
             )
             ${outboxInsert(`${outboxRows('$3')} WHERE EXISTS (SELECT 1 FROM returned)`)}`,
      values: [attemptId, released ? 'VOIDED' : 'HELD', outboxJson([event])],
    });
    return result.rowCount === 1;
  }

  /** Ends a release under way: VOIDED, or VOID_REFUSED for an operator. False when none was under way. */
  async finishRelease(attemptId: string, to: 'VOIDED' | 'VOID_REFUSED'): Promise<boolean> {
    const result = await this.pool.query({
      name: 'order-finish-void',
      text: `UPDATE orders SET hold = $2, hold_changed_at = now(), hold_next_check_at = NULL WHERE attempt_id = $1 AND hold = 'VOIDING'`,
      values: [attemptId, to],
    });
    return result.rowCount === 1;
  }

  /**
   * Claims up to `limit` holds whose capture or release is under way and
   * whose next check has come, and puts that check `leaseSeconds` on, as
   * claimDue does for payments.
   */
  async claimDue(limit: number, leaseSeconds: number): Promise<ClaimedHold[]> {
    const result = await this.pool.query<ClaimedHold>({ name: 'order-claim-due-holds', text: CLAIM_DUE_HOLDS, values: [limit, leaseSeconds] });
    return result.rows;
  }

  /** Puts the next check of a hold reconciliation could not settle `delaySeconds` on, unless it changed since it was claimed. */
  async reschedule(attemptId: string, checks: number, delaySeconds: number): Promise<void> {
    await this.pool.query({
      name: 'order-reschedule-hold',
      text: `UPDATE orders SET hold_next_check_at = now() + make_interval(secs => $3)
             WHERE attempt_id = $1 AND hold_checks = $2 AND hold IN ('CAPTURING', 'VOIDING')`,
      values: [attemptId, checks, delaySeconds],
    });
  }
}
