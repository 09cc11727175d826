/**
 * Storage of sessions, their checkout links and the merchants' exchange rates.
 * Every state change commits together with the outbox row announcing it.
 */
import type { Envelope } from '@gateway/contracts';
import { withTransaction, type Pool, type PoolClient } from '@gateway/db';
import { enqueue, outboxRow } from '@gateway/messaging';
import type { MintedLink } from '../domain/checkout-links.js';
import type { SessionRow } from '../domain/session.js';

const COLUMNS = `id, merchant_id, livemode, merchant_reference, order_number, order_id, amount, original_amount,
  original_currency, rate, description, items, metadata, buyer_first_name, buyer_last_name, buyer_email,
  buyer_phone, return_url, cancel_url, webhook_url, max_attempts, status, expires_at, completed_at, created_at,
  checkout_link_id, checkout_token, checkout_expires_at, amount_refunded`;

export interface Account {
  merchantId: string;
  livemode: boolean;
}

export class SessionRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Inserts a new session with its first link and its `session.created` event,
   * in one statement. Returns false, inserting nothing, when the merchant
   * reference or the order number is already taken.
   */
  async insertNew(row: SessionRow, event: Envelope): Promise<boolean> {
    const outbox = outboxRow(event);
    // Named, so each connection parses and plans this statement once.
    const result = await this.pool.query({
      name: 'session-insert',
      text: `WITH inserted AS (
         INSERT INTO sessions (id, merchant_id, livemode, merchant_reference, order_number, order_id, amount, original_amount,
           original_currency, rate, description, items, metadata, buyer_first_name, buyer_last_name, buyer_email, buyer_phone,
           return_url, cancel_url, webhook_url, max_attempts, status, expires_at, created_at, checkout_link_id, checkout_token,
           checkout_expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27)
         ON CONFLICT DO NOTHING
         RETURNING id
       ), link AS (
         INSERT INTO checkout_links (id, session_id, expires_at, created_at)
         SELECT $25::text, id, $27::timestamptz, $24::timestamptz FROM inserted
       ), event AS (
         INSERT INTO outbox (message_id, routing_key, body) SELECT $28::text, $29::text, $30::text FROM inserted
       )
       SELECT id FROM inserted`,
      values: [
        row.id,
        row.merchant_id,
        row.livemode,
        row.merchant_reference,
        row.order_number,
        row.order_id,
        row.amount,
        row.original_amount,
        row.original_currency,
        row.rate,
        row.description,
        JSON.stringify(row.items),
        JSON.stringify(row.metadata),
        row.buyer_first_name,
        row.buyer_last_name,
        row.buyer_email,
        row.buyer_phone,
        row.return_url,
        row.cancel_url,
        row.webhook_url,
        row.max_attempts,
        row.status,
        row.expires_at,
        row.created_at,
        row.checkout_link_id,
        row.checkout_token,
        row.checkout_expires_at,
        outbox.messageId,
        outbox.routingKey,
        outbox.body,
      ],
    });
    return result.rowCount === 1;
  }

  async findByReference(account: Account, merchantReference: string): Promise<SessionRow | undefined> {
    const result = await this.pool.query<SessionRow>({
      name: 'session-by-reference',
      text: `SELECT ${COLUMNS} FROM sessions WHERE merchant_id = $1 AND livemode = $2 AND merchant_reference = $3`,
      values: [account.merchantId, account.livemode, merchantReference],
    });
    return result.rows[0];
  }

  /** The session, when it exists and belongs to this merchant in this mode. */
  async find(account: Account, sessionId: string): Promise<SessionRow | undefined> {
    const result = await this.pool.query<SessionRow>({
      name: 'session-by-id',
      text: `SELECT ${COLUMNS} FROM sessions WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      values: [sessionId, account.merchantId, account.livemode],
    });
    return result.rows[0];
  }

  /**
   * Runs `work` with the account's session locked (FOR UPDATE) in a
   * transaction; `work` gets undefined when there is no such session.
   */
  async withLockedSession<T>(account: Account, sessionId: string, work: (row: SessionRow | undefined, tx: PoolClient) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, async (tx) => {
      const result = await tx.query<SessionRow>(`SELECT ${COLUMNS} FROM sessions WHERE id = $1 AND merchant_id = $2 AND livemode = $3 FOR UPDATE`, [
        sessionId,
        account.merchantId,
        account.livemode,
      ]);
      return work(result.rows[0], tx);
    });
  }

  /** Records a new link as the session's newest (within the caller's transaction). */
  async addLink(tx: PoolClient, sessionId: string, link: MintedLink, now: Date): Promise<void> {
    await tx.query('INSERT INTO checkout_links (id, session_id, expires_at, created_at) VALUES ($1, $2, $3, $4)', [link.id, sessionId, link.expiresAt, now]);
    await tx.query('UPDATE sessions SET checkout_link_id = $2, checkout_token = $3, checkout_expires_at = $4 WHERE id = $1', [
      sessionId,
      link.id,
      link.token,
      link.expiresAt,
    ]);
  }

  async countActiveLinks(tx: PoolClient, sessionId: string, now: Date): Promise<number> {
    const result = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM checkout_links WHERE session_id = $1 AND expires_at > $2', [sessionId, now]);
    return result.rows[0]?.n ?? 0;
  }

  /** Moves the session to a terminal status and enqueues the event, within the caller's transaction. */
  async finish(tx: PoolClient, sessionId: string, status: SessionRow['status'], completedAt: Date, events: readonly Envelope[]): Promise<void> {
    await tx.query('UPDATE sessions SET status = $2, completed_at = $3 WHERE id = $1', [sessionId, status, completedAt]);
    await enqueue(tx, events);
  }

  /** Whether `sessionId` is one of the account's sessions (a valid list cursor). */
  async exists(account: Account, sessionId: string): Promise<boolean> {
    const result = await this.pool.query('SELECT 1 FROM sessions WHERE id = $1 AND merchant_id = $2 AND livemode = $3', [
      sessionId,
      account.merchantId,
      account.livemode,
    ]);
    return result.rowCount === 1;
  }

  /**
   * One page of the account's sessions, newest first, keyed on (created_at, id)
   * so that sessions sharing a timestamp are neither skipped nor repeated.
   * `before`: sessions older than that one; `after`: the nearest newer ones.
   * Returns up to limit + 1 rows, newest first, so the caller can tell whether more remain.
   */
  async page(account: Account, limit: number, cursor: { before?: string; after?: string }): Promise<SessionRow[]> {
    const params: unknown[] = [account.merchantId, account.livemode, limit + 1];
    let where = '';
    let order = 'DESC';
    const anchor = cursor.before ?? cursor.after;
    if (anchor !== undefined) {
      params.push(anchor);
      const op = cursor.before !== undefined ? '<' : '>';
      where = `AND (created_at, id) ${op} (SELECT created_at, id FROM sessions WHERE id = $4 AND merchant_id = $1 AND livemode = $2)`;
      if (cursor.after !== undefined) order = 'ASC';
    }
    const result = await this.pool.query<SessionRow>(
      `SELECT ${COLUMNS} FROM sessions WHERE merchant_id = $1 AND livemode = $2 ${where}
       ORDER BY created_at ${order}, id ${order} LIMIT $3`,
      params,
    );
    return result.rows;
  }

  async findRate(account: Account, currency: string): Promise<string | undefined> {
    const result = await this.pool.query<{ rate: string }>('SELECT rate FROM exchange_rates WHERE merchant_id = $1 AND livemode = $2 AND currency = $3', [
      account.merchantId,
      account.livemode,
      currency,
    ]);
    return result.rows[0]?.rate;
  }

  async setRate(account: Account, currency: string, rate: string): Promise<string> {
    const result = await this.pool.query<{ rate: string }>(
      `INSERT INTO exchange_rates (merchant_id, livemode, currency, rate) VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_id, livemode, currency) DO UPDATE SET rate = EXCLUDED.rate, updated_at = now()
       RETURNING rate`,
      [account.merchantId, account.livemode, currency, rate],
    );
    return result.rows[0]?.rate ?? rate;
  }

  async removeRate(account: Account, currency: string): Promise<boolean> {
    const result = await this.pool.query('DELETE FROM exchange_rates WHERE merchant_id = $1 AND livemode = $2 AND currency = $3', [
      account.merchantId,
      account.livemode,
      currency,
    ]);
    return result.rowCount === 1;
  }
}
