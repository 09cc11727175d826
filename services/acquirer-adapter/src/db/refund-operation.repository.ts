/**
 * Refund operations at the acquirer, one per refund id (D10). A row is
 * written before the acquirer is called and only its first outcome is
 * recorded: a repeated command reads it and calls nothing.
 */
import type { Pool } from '@gateway/db';

export type RefundOperation = 'reverse' | 'refund';
export type RefundOperationStatus = 'STARTED' | 'REFUNDED' | 'REFUSED' | 'UNCONFIRMED';
export type FinalRefundStatus = Exclude<RefundOperationStatus, 'STARTED'>;

export interface RefundOperationRow {
  refund_id: string;
  attempt_id: string;
  amount: string;
  operation: RefundOperation;
  status: RefundOperationStatus;
  message: string;
  /** Milliseconds since the operation was recorded, by the database's clock. */
  age_ms: number;
}

export type NewRefundOperation = Pick<RefundOperationRow, 'refund_id' | 'attempt_id' | 'amount' | 'operation' | 'status' | 'message'>;

const COLUMNS = `refund_id, attempt_id, amount::text, operation, status, message,
  (extract(epoch FROM now() - created_at) * 1000)::float8 AS age_ms`;

export class RefundOperationRepository {
  constructor(private readonly pool: Pool) {}

  /** Records the refund's operation; false when the refund id already has one (nothing is written). */
  async record(operation: NewRefundOperation): Promise<boolean> {
    const result = await this.pool.query({
      name: 'refund-operation-record',
      text: `INSERT INTO refund_operations (refund_id, attempt_id, amount, operation, status, message)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (refund_id) DO NOTHING`,
      values: [operation.refund_id, operation.attempt_id, operation.amount, operation.operation, operation.status, operation.message],
    });
    return result.rowCount === 1;
  }

  async find(refundId: string): Promise<RefundOperationRow | undefined> {
    const result = await this.pool.query<RefundOperationRow>({
      name: 'refund-operation-find',
      text: `SELECT ${COLUMNS} FROM refund_operations WHERE refund_id = $1`,
      values: [refundId],
    });
    return result.rows[0];
  }

  /**
   * The most the payment can have had refunded by the attempt's other
   * operations (TND): every one not refused, whatever came of it. An answer
   * that says nothing is confirmed against it (ACQUIRER.md "Answers as deployed").
   */
  async refundedAtMost(attemptId: string, refundId: string): Promise<string> {
    const result = await this.pool.query<{ amount: string }>({
      name: 'refund-operation-refunded-at-most',
      text: `SELECT coalesce(sum(amount), 0)::numeric(12,3)::text AS amount FROM refund_operations WHERE attempt_id = $1 AND refund_id <> $2 AND status <> 'REFUSED'`,
      values: [attemptId, refundId],
    });
    return result.rows[0]?.amount ?? '0.000';
  }

  /** A STARTED reversal the acquirer refused becomes a refund (refund.do), before that is sent: a repeat answers the operation made. */
  async becomeRefund(refundId: string): Promise<void> {
    await this.pool.query({
      name: 'refund-operation-become-refund',
      text: `UPDATE refund_operations SET operation = 'refund', updated_at = now() WHERE refund_id = $1 AND status = 'STARTED' AND operation = 'reverse'`,
      values: [refundId],
    });
  }

  /** Records the acquirer's answer to a STARTED operation; an operation already final keeps its outcome. */
  async finish(refundId: string, status: FinalRefundStatus, message: string): Promise<void> {
    await this.pool.query({
      name: 'refund-operation-finish',
      text: `UPDATE refund_operations SET status = $2, message = $3, updated_at = now() WHERE refund_id = $1 AND status = 'STARTED'`,
      values: [refundId, status, message],
    });
  }
}
