/**
 * Acquirer orders, one per payment attempt. The final outcome and the event
 * announcing it commit together, and only once: a second outcome for an
 * order already final changes nothing.
 */
import type { Envelope } from '@gateway/contracts';
import type { Pool } from '@gateway/db';
import { outboxRow } from '@gateway/messaging';

export type OrderStatus = 'STARTED' | 'CHALLENGED' | 'UNKNOWN' | 'APPROVED' | 'DECLINED';

export interface OrderRow {
  attempt_id: string;
  session_id: string;
  merchant_id: string;
  livemode: boolean;
  order_number: string;
  acquirer_order_id: string | null;
  amount: string;
  status: OrderStatus;
  card_brand: string;
  card_last_four: string;
  failure_code: string;
  failure_message: string;
  /** The merchant's own pricing when it has one (read with the order, to spare a query). */
  pricing_percent: string | null;
  pricing_fixed: string | null;
}

export type NewOrder = Pick<OrderRow, 'attempt_id' | 'session_id' | 'merchant_id' | 'livemode' | 'order_number' | 'amount' | 'card_brand' | 'card_last_four'>;

export type FinalOutcome =
  | { status: 'APPROVED'; feeAmount: string; netAmount: string }
  | { status: 'DECLINED'; failureCode: string; failureMessage: string };

const COLUMNS = `attempt_id, session_id, merchant_id, livemode, order_number, acquirer_order_id, amount, status,
  card_brand, card_last_four, failure_code, failure_message,
  (SELECT percent::text FROM pricing p WHERE p.merchant_id = orders.merchant_id) AS pricing_percent,
  (SELECT fixed::text FROM pricing p WHERE p.merchant_id = orders.merchant_id) AS pricing_fixed`;

export class OrderRepository {
  constructor(private readonly pool: Pool) {}

  /** Records a new order and reads it back; undefined when the attempt already has one. */
  async insert(order: NewOrder): Promise<OrderRow | undefined> {
    const result = await this.pool.query<OrderRow>({
      name: 'order-insert',
      text: `INSERT INTO orders (attempt_id, session_id, merchant_id, livemode, order_number, amount, status, card_brand, card_last_four)
             VALUES ($1, $2, $3, $4, $5, $6, 'STARTED', $7, $8) ON CONFLICT (attempt_id) DO NOTHING
             RETURNING ${COLUMNS}`,
      values: [order.attempt_id, order.session_id, order.merchant_id, order.livemode, order.order_number, order.amount, order.card_brand, order.card_last_four],
    });
    return result.rows[0];
  }

  async find(attemptId: string): Promise<OrderRow | undefined> {
    const result = await this.pool.query<OrderRow>({ name: 'order-by-attempt', text: `SELECT ${COLUMNS} FROM orders WHERE attempt_id = $1`, values: [attemptId] });
    return result.rows[0];
  }

  /**
   * Moves an unresolved order to CHALLENGED or UNKNOWN, with the acquirer's
   * order id when it has one (3-D Secure finishes by it; reconciliation can
   * also find the order by its number).
   */
  async mark(attemptId: string, status: 'CHALLENGED' | 'UNKNOWN', acquirerOrderId: string | undefined): Promise<void> {
    await this.pool.query({
      name: 'order-mark',
      text: `UPDATE orders SET status = $2, acquirer_order_id = coalesce($3, acquirer_order_id), updated_at = now()
             WHERE attempt_id = $1 AND status IN ('STARTED', 'CHALLENGED', 'UNKNOWN')`,
      values: [attemptId, status, acquirerOrderId ?? null],
    });
  }

  /**
   * Records the final outcome and its event in one statement; false (and no
   * event) when the order was already final.
   */
  async finish(attemptId: string, acquirerOrderId: string | undefined, outcome: FinalOutcome, event: Envelope): Promise<boolean> {
    const outbox = outboxRow(event);
    const approved = outcome.status === 'APPROVED';
    const result = await this.pool.query({
      name: 'order-finish',
      text: `WITH finished AS (
               UPDATE orders SET status = $2, acquirer_order_id = coalesce($3, acquirer_order_id), fee_amount = $4, net_amount = $5,
                 failure_code = $6, failure_message = $7, updated_at = now()
               WHERE attempt_id = $1 AND status IN ('STARTED', 'CHALLENGED', 'UNKNOWN')
               RETURNING attempt_id
             )
             INSERT INTO outbox (message_id, routing_key, body) SELECT $8, $9, $10 FROM finished`,
      values: [
        attemptId,
        outcome.status,
        acquirerOrderId ?? null,
        approved ? outcome.feeAmount : null,
        approved ? outcome.netAmount : null,
        approved ? '' : outcome.failureCode,
        approved ? '' : outcome.failureMessage,
        outbox.messageId,
        outbox.routingKey,
        outbox.body,
      ],
    });
    return result.rowCount === 1;
  }
}
