/**
 * Storage of a session's checkout links (D4): the signed URLs a buyer pays
 * through, the newest one copied on the session (checkout_url), and the
 * handling, once, of each that lapses.
 */
import type { Envelope } from '@gateway/contracts';
import { skipLocked, withTransaction, type Pool, type PoolClient } from '@gateway/db';
import { enqueue } from '@gateway/messaging';
import type { MintedCheckoutLink } from '../domain/checkout-links.js';
import type { SessionRow } from '../domain/session.js';
import { SESSION_COLUMNS } from './session-columns.js';

/**
 * Up to $2 checkout links lapsed by $1 and not handled yet, with their
 * session and whether the lapse is announced; links of a session being paid
 * wait. Only the links are locked, skipping those another transaction holds.
 */
const LAPSED = skipLocked({
  select: `l.id AS link_id, (s.status IN ('CREATED', 'PENDING') AND l.expires_at < s.expires_at) AS announce, ${SESSION_COLUMNS}`,
  from: 'checkout_links l JOIN sessions s ON s.id = l.session_id',
  where: "NOT l.lapse_handled AND l.expires_at <= $1 AND s.status <> 'PROCESSING'",
  orderBy: 'l.expires_at',
  limit: '$2',
  lockOf: 'l',
});

export class CheckoutLinkRepository {
  constructor(private readonly pool: Pool) {}

  /** Records a new checkout link as the session's newest (within the caller's transaction). */
  async add(tx: PoolClient, sessionId: string, link: MintedCheckoutLink, now: Date): Promise<void> {
    await tx.query('INSERT INTO checkout_links (id, session_id, expires_at, created_at) VALUES ($1, $2, $3, $4)', [link.id, sessionId, link.expiresAt, now]);
    await tx.query('UPDATE sessions SET checkout_link_id = $2, checkout_token = $3, checkout_expires_at = $4 WHERE id = $1', [
      sessionId,
      link.id,
      link.token,
      link.expiresAt,
    ]);
  }

  /** How many of the session's checkout links are still live at `now` (within the caller's transaction). */
  async countActive(tx: PoolClient, sessionId: string, now: Date): Promise<number> {
    const result = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM checkout_links WHERE session_id = $1 AND expires_at > $2', [sessionId, now]);
    return result.rows[0]?.n ?? 0;
  }

  /**
   * Handles up to `limit` checkout links that lapsed by `now`, each once: a
   * checkout link that lapsed while its session could still be paid, before
   * the session's own end, gets the event `announce` makes of the session;
   * the others (session paid, failed, canceled, or ending with the checkout
   * link) only get marked. Checkout links of a session being paid wait until
   * the payment resolves.
   */
  async handleLapsed(now: Date, limit: number, announce: (session: SessionRow) => Envelope): Promise<number> {
    return withTransaction(this.pool, async (tx) => {
      const lapsed = await tx.query<SessionRow & { link_id: string; announce: boolean }>(LAPSED, [now, limit]);
      if (lapsed.rows.length === 0) return 0;
      await tx.query('UPDATE checkout_links SET lapse_handled = true WHERE id = ANY($1::text[])', [lapsed.rows.map((r) => r.link_id)]);
      await enqueue(
        tx,
        lapsed.rows.filter((r) => r.announce).map(({ link_id: _link, announce: _announce, ...session }) => announce(session)),
      );
      return lapsed.rows.length;
    });
  }
}
