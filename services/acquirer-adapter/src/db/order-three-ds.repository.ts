/**
 * An order's 3-D Secure steps (D30, migration 006): waiting for the buyer's
 * 3DS Method with the sealed card kept for the repeat (METHOD), claimed for
 * the repeat with that card taken in the same statement, and a challenge
 * taken for its one finish. Each claim is a single conditional update, so a
 * second return of the buyer's page, or a finish after reconciliation gave
 * up, finds nothing to take and sends nothing.
 */
import type { BuyerContact, Language } from '@gateway/contracts';
import type { Pool } from '@gateway/db';
import { WIPE_CARD } from './order.repository.js';

/**
 * What goes with the card when a METHOD order sends it again (kept, with the
 * sealed card, between the 3DS Method step and the repeat only).
 */
export interface RepeatFields {
  term_url: string;
  language: Language;
  buyer?: BuyerContact;
  /** D24: the saved card the order is paid with (the order then keeps its sealed security code, not a card). */
  payment_method_id?: string;
}

export class OrderThreeDSRepository {
  constructor(
    private readonly pool: Pool,
    /** How long after it is claimed an order is first looked at by reconciliation (the orders' first-check delay). */
    private readonly firstCheckAfterSeconds: number,
  ) {}

  /**
   * Moves a STARTED order, its card just answered with a 3-D Secure 2
   * transaction and a 3DS Method, to METHOD, keeping the sealed card and what
   * goes with it for the repeat. Reconciliation looks at it after the
   * first-check delay. False when it is no longer STARTED: nothing is kept.
   */
  async awaitMethod(attemptId: string, step: { acquirerOrderId: string; serverTransId: string; sealedCard: string; repeat: RepeatFields }): Promise<boolean> {
    const result = await this.pool.query({
      name: 'order-await-method',
      text: `UPDATE orders SET status = 'METHOD', acquirer_order_id = $2, three_ds_server_trans_id = $3, sealed_card = $4, repeat_fields = $5,
               updated_at = now(), next_check_at = now() + make_interval(secs => $6), checks = 0
             WHERE attempt_id = $1 AND status = 'STARTED'`,
      values: [attemptId, step.acquirerOrderId, step.serverTransId, step.sealedCard, JSON.stringify(step.repeat), this.firstCheckAfterSeconds],
    });
    return result.rowCount === 1;
  }

  /**
   * Claims a METHOD order for its repeat and takes the card it kept, in one
   * statement: from now its outcome is UNKNOWN until the acquirer's status
   * tells, the row holds the card no more, and only this caller sends it.
   * Undefined when it is no longer METHOD (the page's method return came
   * twice, reconciliation gave up on it, or it was finished meanwhile).
   */
  async takeForRepeat(attemptId: string): Promise<{ sealedCard: string; repeat: RepeatFields } | undefined> {
    const result = await this.pool.query<{ sealed_card: string | null; repeat_fields: RepeatFields | null }>({
      name: 'order-take-for-repeat',
      text: `WITH kept AS (SELECT attempt_id, sealed_card, repeat_fields FROM orders WHERE attempt_id = $1 AND status = 'METHOD' FOR UPDATE)
             UPDATE orders SET status = 'UNKNOWN', ${WIPE_CARD}, updated_at = now(), next_check_at = now() + make_interval(secs => $2), checks = 0
             FROM kept WHERE orders.attempt_id = kept.attempt_id AND orders.status = 'METHOD'
             RETURNING kept.sealed_card, kept.repeat_fields`,
      values: [attemptId, this.firstCheckAfterSeconds],
    });
    const row = result.rows[0];
    return row?.sealed_card && row.repeat_fields ? { sealedCard: row.sealed_card, repeat: row.repeat_fields } : undefined;
  }

  /**
   * Takes a CHALLENGED order for finishing its 3-D Secure: from now its
   * outcome is UNKNOWN until the acquirer's status tells, and only this caller
   * sends the finish. Reconciliation leaves it alone for the first-check
   * delay. False when it is no longer CHALLENGED: another finish took it (the
   * buyer's page posted twice) or reconciliation gave up on it first.
   */
  async takeChallenged(attemptId: string): Promise<boolean> {
    const result = await this.pool.query({
      name: 'order-take-challenged',
      text: `UPDATE orders SET status = 'UNKNOWN', updated_at = now(), next_check_at = now() + make_interval(secs => $2), checks = 0
             WHERE attempt_id = $1 AND status = 'CHALLENGED'`,
      values: [attemptId, this.firstCheckAfterSeconds],
    });
    return result.rowCount === 1;
  }
}
