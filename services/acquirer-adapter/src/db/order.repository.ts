/**
 * Acquirer orders, one per payment attempt. The final outcome and the event
 * announcing it commit together, and only once: a second outcome for an
 * order already final changes nothing.
 */
import type { Envelope } from '@gateway/contracts';
import { withTransaction, type Pool } from '@gateway/db';
import { enqueue } from '@gateway/messaging';

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
}

export type NewOrder = Pick<OrderRow, 'attempt_id' | 'session_id' | 'merchant_id' | 'livemode' | 'order_number' | 'amount' | 'card_brand' | 'card_last_four'>;

export type FinalOutcome =
  | { status: 'APPROVED'; feeAmount: string; netAmount: string }
  | { status: 'DECLINED'; failureCode: string; failureMessage: string };

const COLUMNS = `attempt_id, session_id, merchant_id, livemode, order_number, acquirer_order_id, amount, status,
  card_brand, card_last_four, failure_code, failure_message`;

export class OrderRepository {
  constructor(private readonly pool: Pool) {}

  /** Records a new order; false when the attempt already has one. */
  async insert(order: NewOrder): Promise<boolean> {
    const result = await this.pool.query({
      name: 'order-insert',
      text: `INSERT INTO orders (attempt_id, session_id, merchant_id, livemode, order_number, amount, status, card_brand, card_last_four)
             VALUES ($1, $2, $3, $4, $5, $6, 'STARTED', $7, $8) ON CONFLICT DO NOTHING`,
      values: [order.attempt_id, order.session_id, order.merchant_id, order.livemode, order.order_number, order.amount, order.card_brand, order.card_last_four],
    });
    return result.rowCount === 1;
  }

  async find(attemptId: string): Promise<OrderRow | undefined> {
    const result = await this.pool.query<OrderRow>({ name: 'order-by-attempt', text: `SELECT ${COLUMNS} FROM orders WHERE attempt_id = $1`, values: [attemptId] });
    return result.rows[0];
  }

  async setAcquirerOrder(attemptId: string, acquirerOrderId: string): Promise<void> {
    await this.pool.query({
      name: 'order-registered',
      text: 'UPDATE orders SET acquirer_order_id = $2, updated_at = now() WHERE attempt_id = $1',
      values: [attemptId, acquirerOrderId],
    });
  }

  /** Moves an unresolved order to CHALLENGED or UNKNOWN. */
  async mark(attemptId: string, status: 'CHALLENGED' | 'UNKNOWN'): Promise<void> {
    await this.pool.query({
      name: 'order-mark',
      text: `UPDATE orders SET status = $2, updated_at = now() WHERE attempt_id = $1 AND status IN ('STARTED', 'CHALLENGED', 'UNKNOWN')`,
      values: [attemptId, status],
    });
  }

  /** Records the final outcome with its event; false (and no event) when the order was already final. */
  async finish(attemptId: string, outcome: FinalOutcome, event: Envelope): Promise<boolean> {
    return withTransaction(this.pool, async (tx) => {
      const result =
        outcome.status === 'APPROVED'
          ? await tx.query({
              name: 'order-approve',
              text: `UPDATE orders SET status = 'APPROVED', fee_amount = $2, net_amount = $3, updated_at = now()
                     WHERE attempt_id = $1 AND status IN ('STARTED', 'CHALLENGED', 'UNKNOWN')`,
              values: [attemptId, outcome.feeAmount, outcome.netAmount],
            })
          : await tx.query({
              name: 'order-decline',
              text: `UPDATE orders SET status = 'DECLINED', failure_code = $2, failure_message = $3, updated_at = now()
                     WHERE attempt_id = $1 AND status IN ('STARTED', 'CHALLENGED', 'UNKNOWN')`,
              values: [attemptId, outcome.failureCode, outcome.failureMessage],
            });
      if (result.rowCount !== 1) return false;
      await enqueue(tx, [event]);
      return true;
    });
  }
}
