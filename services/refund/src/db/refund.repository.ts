/**
 * Captured payments and their refunds. The refundable balance is
 * `captured - held`, where held counts every refund not FAILED: confirmed,
 * waiting for an operator, or with its acquirer step under way. Reserving a
 * refund locks the payment, checks the amount fits (domain/refund-balance.ts)
 * and holds it in one transaction, so concurrent refunds can never together
 * pass what was captured.
 */
import type { Envelope } from '@gateway/contracts';
import { isOwnRow, readPage, withTransaction, type Filter, type Pool, type PoolClient } from '@gateway/db';
import { enqueue } from '@gateway/messaging';
import { reservationOf, type Balance, type Reservation } from '../domain/refund-balance.js';

export interface CapturedPayment {
  attemptId: string;
  sessionId: string;
  merchantId: string;
  livemode: boolean;
  /** TND, decimal string. */
  captured: string;
}

export interface NewRefund {
  id: string;
  attemptId: string;
  type: 'FULL' | 'PARTIAL';
  /** TND; undefined for FULL: whatever is left. */
  amount: string | undefined;
  reason: string;
  metadata: Record<string, string>;
  /** The request's Idempotency-Key, unique per merchant and mode. */
  idempotencyKey: string | undefined;
}

export interface RefundRow {
  id: string;
  session_id: string;
  attempt_id: string;
  merchant_id: string;
  livemode: boolean;
  amount: string;
  reason: string;
  metadata: Record<string, string>;
  status: 'PENDING' | 'SUCCEEDED' | 'MANUAL' | 'FAILED';
  /** Confirmed by the acquirer within the refund call (automated_refund). */
  automated: boolean;
  epg_error_message: string;
  created_at: Date;
  resolved_at: Date | null;
}

/** A captured payment as a reservation reads it. */
interface CapturedRow extends Balance {
  session_id: string;
  merchant_id: string;
  livemode: boolean;
}

/** The filters of a refund list (RefundListQuery), checked. */
export interface RefundFilters {
  /** The statuses a merchant's status stands for: pending is PENDING or MANUAL. */
  statuses?: readonly RefundRow['status'][];
  sessionId?: string;
  createdGte?: string;
  createdLte?: string;
}

function filtersOf(filters: RefundFilters): Filter[] {
  return [
    ['status = ANY(?)', filters.statuses],
    ['session_id = ?', filters.sessionId],
    ['created_at >= ?::timestamptz', filters.createdGte],
    ['created_at <= ?::timestamptz', filters.createdLte],
  ];
}

const ROW = 'id, session_id, attempt_id, merchant_id, livemode, amount::text, reason, metadata, status, automated, epg_error_message, created_at, resolved_at';

export class RefundRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Records a captured payment, as the session holds it; a second record
   * changes nothing. Concurrent first refunds of a session record it at once:
   * whichever key, attempt or session, meets the other's insert first is a
   * conflict like the other, so the statement names none.
   */
  async recordPayment(payment: CapturedPayment): Promise<void> {
    await this.pool.query({
      name: 'payment-record',
      text: `INSERT INTO payments (attempt_id, session_id, merchant_id, livemode, captured) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT DO NOTHING`,
      values: [payment.attemptId, payment.sessionId, payment.merchantId, payment.livemode, payment.captured],
    });
  }

  /**
   * Holds the refund's amount against its payment and records it PENDING, if
   * it fits (reservationOf), in one transaction that holds the payment locked.
   */
  async reserve(refund: NewRefund): Promise<Reservation & { createdAt?: Date }> {
    return withTransaction(this.pool, async (tx) => {
      const found = await tx.query<CapturedRow>(
        'SELECT session_id, merchant_id, livemode, captured::text, held::text FROM payments WHERE attempt_id = $1 FOR UPDATE',
        [refund.attemptId],
      );
      const payment = found.rows[0];
      if (!payment) throw new Error(`no captured payment ${refund.attemptId}`);
      const reservation = reservationOf(payment, refund.amount);
      if (reservation.kind !== 'reserved') return reservation;
      await tx.query('UPDATE payments SET held = held + $2 WHERE attempt_id = $1', [refund.attemptId, reservation.amount]);
      const inserted = await tx.query<{ created_at: Date }>(
        `INSERT INTO refunds (id, session_id, attempt_id, merchant_id, livemode, amount, refund_type, reason, metadata, status, idempotency_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'PENDING', $10) RETURNING created_at`,
        [
          refund.id,
          payment.session_id,
          refund.attemptId,
          payment.merchant_id,
          payment.livemode,
          reservation.amount,
          refund.type,
          refund.reason,
          JSON.stringify(refund.metadata),
          refund.idempotencyKey ?? null,
        ],
      );
      return { ...reservation, createdAt: inserted.rows[0]?.created_at };
    });
  }

  /**
   * Ends a PENDING refund as SUCCEEDED (confirmed) or MANUAL (held as refunded,
   * for an operator), with refund.created, in one transaction. False, and no
   * event, when it was no longer PENDING (an operator resolved it meanwhile).
   */
  async conclude(refundId: string, status: 'SUCCEEDED' | 'MANUAL', operation: string, message: string, event: Envelope): Promise<boolean> {
    return withTransaction(this.pool, async (tx) => {
      const concluded = await tx.query(
        `UPDATE refunds SET status = $2, operation = $3, epg_error_message = $4, automated = $2 = 'SUCCEEDED',
           resolved_at = CASE WHEN $2 = 'SUCCEEDED' THEN now() END
         WHERE id = $1 AND status = 'PENDING'`,
        [refundId, status, operation, message],
      );
      if (concluded.rowCount !== 1) return false;
      await enqueue(tx, [event]);
      return true;
    });
  }

  /**
   * Ends a refund as FAILED and gives its amount back to the balance, with
   * `events` (given the refund and the status it had), in one transaction.
   * Only a PENDING or MANUAL one: false when it was not (already final).
   */
  async fail(refundId: string, message: string, events: (refund: RefundRow, was: 'PENDING' | 'MANUAL') => Envelope[]): Promise<boolean> {
    return withTransaction(this.pool, async (tx) => {
      const was = await unresolvedStatus(tx, refundId);
      if (!was) return false;
      const failed = await tx.query<RefundRow>(
        `UPDATE refunds SET status = 'FAILED', epg_error_message = CASE WHEN $2 = '' THEN epg_error_message ELSE $2 END, resolved_at = now()
         WHERE id = $1 RETURNING ${ROW}`,
        [refundId, message],
      );
      const refund = failed.rows[0];
      if (!refund) return false;
      await tx.query('UPDATE payments SET held = held - $2 WHERE attempt_id = $1', [refund.attempt_id, refund.amount]);
      await enqueue(tx, events(refund, was));
      return true;
    });
  }

  /**
   * An operator confirms a refund held for them, with `events` (given the
   * status it had), in one transaction; false when it was no longer PENDING
   * or MANUAL.
   */
  async confirm(refundId: string, events: (confirmed: RefundRow, was: 'PENDING' | 'MANUAL') => Envelope[]): Promise<boolean> {
    return withTransaction(this.pool, async (tx) => {
      const was = await unresolvedStatus(tx, refundId);
      if (!was) return false;
      const confirmed = await tx.query<RefundRow>(`UPDATE refunds SET status = 'SUCCEEDED', resolved_at = now() WHERE id = $1 RETURNING ${ROW}`, [refundId]);
      const refund = confirmed.rows[0];
      if (!refund) return false;
      await enqueue(tx, events(refund, was));
      return true;
    });
  }

  /** The refund the merchant made with `key` in this mode, if any. */
  async findByKey(merchantId: string, livemode: boolean, key: string): Promise<RefundRow | undefined> {
    const result = await this.pool.query<RefundRow>(
      `SELECT ${ROW} FROM refunds WHERE merchant_id = $1 AND livemode = $2 AND idempotency_key = $3`,
      [merchantId, livemode, key],
    );
    return result.rows[0];
  }

  /** The account's refund `refundId`; undefined when there is none or it is another account's. */
  async findOwn(merchantId: string, livemode: boolean, refundId: string): Promise<RefundRow | undefined> {
    const result = await this.pool.query<RefundRow>({
      name: 'refund-find-own',
      text: `SELECT ${ROW} FROM refunds WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      values: [refundId, merchantId, livemode],
    });
    return result.rows[0];
  }

  /** The account's refunds of one session, oldest first. */
  async listOwn(merchantId: string, livemode: boolean, sessionId: string): Promise<RefundRow[]> {
    const result = await this.pool.query<RefundRow>({
      name: 'refund-list-own',
      text: `SELECT ${ROW} FROM refunds WHERE merchant_id = $1 AND livemode = $2 AND session_id = $3 ORDER BY created_at, id`,
      values: [merchantId, livemode, sessionId],
    });
    return result.rows;
  }

  /** One page of the account's refunds matching `filters`, newest first (readPage): up to limit + 1 rows. */
  async page(merchantId: string, livemode: boolean, limit: number, cursor: { before?: string; after?: string }, filters: RefundFilters): Promise<RefundRow[]> {
    return readPage<RefundRow>(this.pool, { table: 'refunds', columns: ROW, merchantId, livemode, filters: filtersOf(filters), limit, cursor });
  }

  /** Whether `refundId` is one of the account's refunds matching `filters` (a valid list cursor). */
  async isOwn(merchantId: string, livemode: boolean, refundId: string, filters: RefundFilters): Promise<boolean> {
    return isOwnRow(this.pool, 'refunds', merchantId, livemode, refundId, filtersOf(filters));
  }

  async find(refundId: string): Promise<RefundRow | undefined> {
    const result = await this.pool.query<RefundRow>(
      `SELECT ${ROW} FROM refunds WHERE id = $1`,
      [refundId],
    );
    return result.rows[0];
  }

  /**
   * The operations queue: refunds held for an operator, and refunds whose
   * acquirer step never ended (the service stopped mid-step) after `staleSeconds`.
   */
  async listManual(staleSeconds: number): Promise<RefundRow[]> {
    const result = await this.pool.query<RefundRow>(
      `SELECT ${ROW} FROM refunds
       WHERE status = 'MANUAL' OR (status = 'PENDING' AND created_at < now() - make_interval(secs => $1))
       ORDER BY created_at`,
      [staleSeconds],
    );
    return result.rows;
  }

  /** How many refunds the operations queue holds (as listManual counts them), and how old the oldest is in seconds (0: none). */
  async awaitingOperator(staleSeconds: number): Promise<{ refunds: number; oldestSeconds: number }> {
    const result = await this.pool.query<{ refunds: number; oldest_seconds: number }>({
      name: 'refunds-awaiting-operator',
      text: `SELECT count(*)::int AS refunds, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_seconds FROM refunds
             WHERE status = 'MANUAL' OR (status = 'PENDING' AND created_at < now() - make_interval(secs => $1))`,
      values: [staleSeconds],
    });
    const row = result.rows[0];
    return { refunds: row?.refunds ?? 0, oldestSeconds: row?.oldest_seconds ?? 0 };
  }
}

/** The status of a refund still PENDING or MANUAL, locked for the caller's transaction; undefined when it is final. */
async function unresolvedStatus(tx: PoolClient, refundId: string): Promise<'PENDING' | 'MANUAL' | undefined> {
  const result = await tx.query<{ status: RefundRow['status'] }>('SELECT status FROM refunds WHERE id = $1 FOR UPDATE', [refundId]);
  const status = result.rows[0]?.status;
  return status === 'PENDING' || status === 'MANUAL' ? status : undefined;
}
