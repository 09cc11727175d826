/**
 * Acquirer orders, one per payment attempt. The final outcome and the event
 * announcing it commit together, and only once: a second outcome for an
 * order already final changes nothing. An unresolved order carries when
 * reconciliation next looks at it (next_check_at). A two-phase order's hold
 * (order-hold.repository.ts) and its 3-D Secure steps (order-three-ds.repository.ts)
 * have repositories of their own.
 */
import type { CardUsage, Envelope, PaymentMethodType, SavedCard } from '@gateway/contracts';
import { leaseClaim, type Pool } from '@gateway/db';
import { outboxInsert, outboxJson, outboxRows } from '@gateway/messaging';

/**
 * METHOD: a 3-D Secure 2 transaction waits for the buyer's 3DS Method before
 * the card goes again (migration 006). REDIRECTED: the buyer is on a wallet's
 * page (D26, migration 008). AUTHORIZED: a two-phase order's approved
 * payment, held (D22); APPROVED once deposited.
 */
type OrderStatus = 'STARTED' | 'METHOD' | 'CHALLENGED' | 'REDIRECTED' | 'UNKNOWN' | 'AUTHORIZED' | 'APPROVED' | 'DECLINED';

/** What the buyer's return from a challenge brings: the paRes of 3-D Secure 1, or the cres of 3-D Secure 2. */
export type ChallengeReturn = 'pa_res' | 'cres';

/** What is done with a two-phase order's hold, once (migration 005). */
type HoldState = 'HELD' | 'CAPTURING' | 'CAPTURED' | 'VOIDING' | 'VOIDED' | 'VOID_REFUSED';

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
  /** Known once APPROVED. */
  fee_amount: string | null;
  net_amount: string | null;
  /** When the order was recorded, before anything was sent to the acquirer. */
  created_at: Date;
  /** When the order last changed: for a final order, when it was finished. */
  updated_at: Date;
  /** The merchant's own pricing when it has one (read with the order, to spare a query). */
  pricing_percent: string | null;
  pricing_fixed: string | null;
  /** D22: `manual` is a two-phase order (registerPreAuth.do). */
  capture_method: 'automatic' | 'manual';
  /** A two-phase order's hold, once approved; null otherwise. */
  hold: HoldState | null;
  /** The session's claim the last capture was made for (payment.capture's capture_id). */
  capture_id: string | null;
  /** Every capture id that ended without capturing: none is sent again. */
  ended_captures: string[];
  /** What the deposit took, and when (CAPTURED). */
  captured_amount: string | null;
  captured_at: Date | null;
  /** The 3-D Secure 2 transaction the acquirer opened for the card, once it did. */
  three_ds_server_trans_id: string | null;
  /** A CHALLENGED order's expected return; null for one challenged before 3-D Secure 2 (3-D Secure 1 then). */
  challenge_return: ChallengeReturn | null;
  /** D24: the customer the card is to be saved for with this order, and for which use; null when it is not. */
  save_customer: string | null;
  save_usage: CardUsage | null;
  /** D24: what was saved with the approval, once approved. */
  saved_card: SavedCard | null;
  /** D26: by card, or with a wallet (whose payment id is then acquirer_order_id). */
  payment_method_type: PaymentMethodType;
  /** D26: the merchant's live Flouci application a live wallet payment was started with; null otherwise. */
  wallet_account_id: string | null;
}

export type NewOrder = Pick<
  OrderRow,
  | 'attempt_id'
  | 'session_id'
  | 'merchant_id'
  | 'livemode'
  | 'order_number'
  | 'amount'
  | 'card_brand'
  | 'card_last_four'
  | 'capture_method'
  | 'save_customer'
  | 'save_usage'
  | 'payment_method_type'
>;

/** An unresolved order the reconciliation sweep has claimed. */
export interface ClaimedOrder extends OrderRow {
  status: 'STARTED' | 'METHOD' | 'CHALLENGED' | 'REDIRECTED' | 'UNKNOWN';
  /** Checks since the order last changed, this one included. */
  checks: number;
  /** Seconds since the order last changed, by the database's clock. */
  age_seconds: number;
}

export type FinalOutcome =
  | { status: 'APPROVED'; feeAmount: string; netAmount: string; savedCard?: SavedCard }
  | { status: 'AUTHORIZED'; savedCard?: SavedCard }
  /** `giveBack`: what a wallet took for it is owed back (D26), written with the decline for the sweep to give back. */
  | { status: 'DECLINED'; failureCode: string; failureMessage: string; giveBack?: GiveBack };

/** What a declined wallet payment owes the buyer: its hold released, or `amount` (TND, what the wallet took) refunded. */
export interface GiveBack {
  kind: 'release' | 'refund';
  amount: string;
}

/** A declined order whose give-back is due, as the sweep claims it. */
export type OwedOrder = OrderRow & { give_back: GiveBack['kind']; give_back_amount: string; give_back_checks: number };

/** Every column of an order row (OrderRow), with the merchant's pricing. */
export const COLUMNS = `attempt_id, session_id, merchant_id, livemode, order_number, acquirer_order_id, amount, status,
  card_brand, card_last_four, failure_code, failure_message, fee_amount::text, net_amount::text, created_at, updated_at,
  (SELECT percent::text FROM pricing p WHERE p.merchant_id = orders.merchant_id) AS pricing_percent,
  (SELECT fixed::text FROM pricing p WHERE p.merchant_id = orders.merchant_id) AS pricing_fixed,
  capture_method, hold, capture_id, ended_captures, captured_amount::text, captured_at, three_ds_server_trans_id, challenge_return,
  save_customer, save_usage, saved_card, payment_method_type, wallet_account_id::text`;

const UNRESOLVED = `('STARTED', 'METHOD', 'CHALLENGED', 'REDIRECTED', 'UNKNOWN')`;

/** Leaving the METHOD state, the order forgets the card it kept for the repeat (migration 006's constraint holds it to that). */
export const WIPE_CARD = 'sealed_card = NULL, repeat_fields = NULL';

/** Up to $1 unresolved orders whose check has come, that check put $2 seconds on. */
const CLAIM_DUE_ORDERS = leaseClaim({
  table: 'orders',
  key: 'attempt_id',
  where: `status IN ${UNRESOLVED} AND next_check_at <= now()`,
  orderBy: 'next_check_at',
  limit: '$1',
  set: 'next_check_at = now() + make_interval(secs => $2), checks = checks + 1',
  returning: `${COLUMNS}, checks, extract(epoch FROM now() - updated_at)::float8 AS age_seconds`,
});

/** Up to $1 declined orders owing a give-back whose try has come, that try put $2 seconds on. */
const CLAIM_DUE_GIVE_BACKS = leaseClaim({
  table: 'orders',
  key: 'attempt_id',
  where: 'give_back_due_at <= now()',
  orderBy: 'give_back_due_at',
  limit: '$1',
  set: 'give_back_due_at = now() + make_interval(secs => $2), give_back_checks = give_back_checks + 1',
  returning: `${COLUMNS}, give_back, give_back_amount::text, give_back_checks`,
});

export class OrderRepository {
  constructor(
    private readonly pool: Pool,
    /**
     * How long after it is recorded, or waits for 3-D Secure, an order is
     * first looked at by reconciliation: longer than its payment's acquirer
     * calls can take, so a payment in flight is left alone.
     */
    private readonly firstCheckAfterSeconds: number,
  ) {}

  /** Records a new order and reads it back; undefined when the attempt already has one. */
  async insert(order: NewOrder): Promise<OrderRow | undefined> {
    const result = await this.pool.query<OrderRow>({
      name: 'order-insert',
      text: `INSERT INTO orders (attempt_id, session_id, merchant_id, livemode, order_number, amount, status, card_brand, card_last_four, next_check_at, capture_method,
               save_customer, save_usage, payment_method_type)
             VALUES ($1, $2, $3, $4, $5, $6, 'STARTED', $7, $8, now() + make_interval(secs => $9), $10, $11, $12, $13) ON CONFLICT (attempt_id) DO NOTHING
             RETURNING ${COLUMNS}`,
      values: [
        order.attempt_id,
        order.session_id,
        order.merchant_id,
        order.livemode,
        order.order_number,
        order.amount,
        order.card_brand,
        order.card_last_four,
        this.firstCheckAfterSeconds,
        order.capture_method,
        order.save_customer,
        order.save_usage,
        order.payment_method_type,
      ],
    });
    return result.rows[0];
  }

  async find(attemptId: string): Promise<OrderRow | undefined> {
    const result = await this.pool.query<OrderRow>({ name: 'order-by-attempt', text: `SELECT ${COLUMNS} FROM orders WHERE attempt_id = $1`, values: [attemptId] });
    return result.rows[0];
  }

  /**
   * Moves an unresolved order to CHALLENGED, REDIRECTED or UNKNOWN, with the acquirer's
   * order id when it has one (3-D Secure finishes by it; reconciliation finds
   * the order by its number), and, for a challenge, what its return must
   * bring and the 3-D Secure 2 transaction it finishes. Reconciliation looks
   * at an UNKNOWN order at once, at a CHALLENGED one after the first-check
   * delay, with fresh backoff. A card kept for a repeat is forgotten.
   */
  async mark(
    attemptId: string,
    status: 'CHALLENGED' | 'REDIRECTED' | 'UNKNOWN',
    acquirerOrderId: string | undefined,
    challenge?: { returns: ChallengeReturn; serverTransId?: string },
  ): Promise<void> {
    await this.pool.query({
      name: 'order-mark',
      text: `UPDATE orders SET status = $2, acquirer_order_id = coalesce($3, acquirer_order_id), updated_at = now(),
               next_check_at = now() + make_interval(secs => $4), checks = 0, ${WIPE_CARD},
               challenge_return = coalesce($5, challenge_return), three_ds_server_trans_id = coalesce($6, three_ds_server_trans_id)
             WHERE attempt_id = $1 AND status IN ${UNRESOLVED}`,
      values: [attemptId, status, acquirerOrderId ?? null, status === 'UNKNOWN' ? 0 : this.firstCheckAfterSeconds, challenge?.returns ?? null, challenge?.serverTransId ?? null],
    });
  }

  /**
   * Records the acquirer's id of a STARTED order just registered, just before
   * its card is sent: reconciliation can then find and refund it by that id,
   * and, as the order counts as changed now, cannot give up on it while the
   * card is on its way. False when it is no longer STARTED (reconciliation
   * gave up on it first): then the card must not be sent.
   */
  async registered(attemptId: string, acquirerOrderId: string, walletAccountId?: string): Promise<boolean> {
    const result = await this.pool.query({
      name: 'order-registered',
      text: `UPDATE orders SET acquirer_order_id = $2, wallet_account_id = $3, updated_at = now() WHERE attempt_id = $1 AND status = 'STARTED'`,
      values: [attemptId, acquirerOrderId, walletAccountId ?? null],
    });
    return result.rowCount === 1;
  }

  /** Claims up to `limit` declined orders whose give-back is due (D26), putting their next try `leaseSeconds` on. */
  async claimDueGiveBacks(limit: number, leaseSeconds: number): Promise<OwedOrder[]> {
    const result = await this.pool.query<OwedOrder>({ name: 'order-claim-give-backs', text: CLAIM_DUE_GIVE_BACKS, values: [limit, leaseSeconds] });
    return result.rows;
  }

  /** Claims `attemptId`'s give-back when it is due, putting its next try `leaseSeconds` on; undefined when it is not due (or owes none). */
  async claimGiveBack(attemptId: string, leaseSeconds: number): Promise<OwedOrder | undefined> {
    const result = await this.pool.query<OwedOrder>({
      name: 'order-claim-give-back',
      text: `UPDATE orders SET give_back_due_at = now() + make_interval(secs => $2), give_back_checks = give_back_checks + 1
             WHERE attempt_id = $1 AND give_back_due_at <= now()
             RETURNING ${COLUMNS}, give_back, give_back_amount::text, give_back_checks`,
      values: [attemptId, leaseSeconds],
    });
    return result.rows[0];
  }

  /** The give-back is over (given back, or left to an operator): the sweep asks no more. */
  async endGiveBack(attemptId: string): Promise<void> {
    await this.pool.query({ name: 'order-end-give-back', text: 'UPDATE orders SET give_back_due_at = NULL WHERE attempt_id = $1', values: [attemptId] });
  }

  /** The give-back is tried again `delaySeconds` from now. */
  async rescheduleGiveBack(attemptId: string, delaySeconds: number): Promise<void> {
    await this.pool.query({
      name: 'order-reschedule-give-back',
      text: 'UPDATE orders SET give_back_due_at = now() + make_interval(secs => $2) WHERE attempt_id = $1 AND give_back_due_at IS NOT NULL',
      values: [attemptId, delaySeconds],
    });
  }

  /**
   * Claims up to `limit` unresolved orders whose next check has come, and
   * puts that check `leaseSeconds` on, so that no other replica asks about
   * them meanwhile; a replica that dies holding one only delays it.
   */
  async claimDue(limit: number, leaseSeconds: number): Promise<ClaimedOrder[]> {
    const result = await this.pool.query<ClaimedOrder>({ name: 'order-claim-due', text: CLAIM_DUE_ORDERS, values: [limit, leaseSeconds] });
    return result.rows;
  }

  /**
   * Reconciliation's backlog: unresolved orders by status, and holds whose
   * capture or release is unknown (CAPTURING, VOIDING, D22) or that the
   * acquirer would not release (VOID_REFUSED, an operator's), and how long the
   * most overdue one has been due for its check (0 when none is due).
   */
  async reconciliationBacklog(): Promise<{ byStatus: Map<string, number>; oldestDueSeconds: number }> {
    const result = await this.pool.query<{ status: string; orders: number; oldest_due_seconds: number }>({
      name: 'order-reconciliation-backlog',
      text: `SELECT status, count(*)::int AS orders,
               coalesce(max(extract(epoch FROM now() - next_check_at)) FILTER (WHERE next_check_at <= now()), 0)::float8 AS oldest_due_seconds
             FROM orders WHERE status IN ${UNRESOLVED} GROUP BY status
             UNION ALL
             SELECT hold, count(*)::int,
               coalesce(max(extract(epoch FROM now() - hold_next_check_at)) FILTER (WHERE hold_next_check_at <= now() AND hold <> 'VOID_REFUSED'), 0)::float8
             FROM orders WHERE hold IN ('CAPTURING', 'VOIDING', 'VOID_REFUSED') GROUP BY hold`,
    });
    return {
      byStatus: new Map(result.rows.map((r) => [r.status, r.orders])),
      oldestDueSeconds: Math.max(0, ...result.rows.map((r) => r.oldest_due_seconds)),
    };
  }

  /**
   * Puts the next check of an order reconciliation could not resolve
   * `delaySeconds` on; nothing when the order changed since it was claimed
   * (its new state set its own next check).
   */
  async reschedule(attemptId: string, checks: number, delaySeconds: number): Promise<void> {
    await this.pool.query({
      name: 'order-reschedule',
      text: `UPDATE orders SET next_check_at = now() + make_interval(secs => $3)
             WHERE attempt_id = $1 AND checks = $2 AND status IN ${UNRESOLVED}`,
      values: [attemptId, checks, delaySeconds],
    });
  }

  /**
   * Records the final outcome and its event in one statement; false (and no
   * event) when the order was already final, or, with `unchangedForSeconds`,
   * when it changed more recently than that (its payment is moving again).
   */
  async finish(attemptId: string, acquirerOrderId: string | undefined, outcome: FinalOutcome, event: Envelope, unchangedForSeconds?: number): Promise<boolean> {
    const approved = outcome.status === 'APPROVED';
    const declined = outcome.status === 'DECLINED';
    const result = await this.pool.query({
      name: 'order-finish',
      text: `WITH finished AS (
               UPDATE orders SET status = $2, acquirer_order_id = coalesce($3, acquirer_order_id), fee_amount = $4, net_amount = $5,
                 failure_code = $6, failure_message = $7, updated_at = now(), ${WIPE_CARD},
                 hold = CASE WHEN $2 = 'AUTHORIZED' THEN 'HELD' END, hold_changed_at = CASE WHEN $2 = 'AUTHORIZED' THEN now() END,
                 saved_card = $10,
                 give_back = $11, give_back_amount = $12, give_back_due_at = CASE WHEN $11::text IS NULL THEN NULL ELSE now() END
               WHERE attempt_id = $1 AND status IN ${UNRESOLVED}
                 AND ($9::float8 IS NULL OR updated_at <= now() - make_interval(secs => $9::float8))
               RETURNING attempt_id
             )
             ${outboxInsert(`${outboxRows('$8')} WHERE EXISTS (SELECT 1 FROM finished)`)}`,
      values: [
        attemptId,
        outcome.status,
        acquirerOrderId ?? null,
        approved ? outcome.feeAmount : null,
        approved ? outcome.netAmount : null,
        declined ? outcome.failureCode : '',
        declined ? outcome.failureMessage : '',
        outboxJson([event]),
        unchangedForSeconds ?? null,
        outcome.status !== 'DECLINED' && outcome.savedCard ? JSON.stringify(outcome.savedCard) : null,
        declined && outcome.giveBack ? outcome.giveBack.kind : null,
        declined && outcome.giveBack ? outcome.giveBack.amount : null,
      ],
    });
    return result.rowCount === 1;
  }
}
