/**
 * Storage of the refunds a session counts in amount_refunded (D16): each
 * refund once, by its id, held or failed.
 */
import { withTransaction, type Pool } from '@gateway/db';

export class RefundRecordRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Counts a refund in the session's amount_refunded (`held`) or stops
   * counting it (`failed`), once per refund: a refund seen again changes
   * nothing, a failed one is never counted again, and one first seen as
   * failed never counts. Resolves with the session's new total when this call
   * changed what is recorded of the refund, undefined when it found it so.
   */
  async record(refund: { sessionId: string; refundId: string; amount: string; outcome: 'held' | 'failed' }): Promise<string | undefined> {
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
}
