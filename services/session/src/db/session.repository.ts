/**
 * Storage of sessions. Every state change commits together with the outbox
 * row announcing it. A session's attempts, checkout links, hold, refunds and
 * statistics have repositories of their own beside this one.
 */
import type { Envelope } from '@gateway/contracts';
import { isOwnRow, readPage, skipLocked, withTransaction, type Filter, type Pool, type PoolClient } from '@gateway/db';
import { enqueue } from '@gateway/messaging';
import type { Account } from '../domain/accounts.js';
import type { SessionRow } from '../domain/session.js';
import { NewSessionBatches, newSessionValues } from './new-session-batches.js';
import { COLUMNS, DETAIL_COLUMNS } from './session-columns.js';

/** Narrowing of the session list (issue 19); instants are RFC 3339 strings, compared by PostgreSQL as timestamptz. */
export interface SessionFilters {
  status?: string;
  createdGte?: string;
  createdLte?: string;
  merchantReference?: string;
  /** The payment link the sessions were made through (D19): the dashboard's filter, never the API's. */
  paymentLink?: string;
  /** The customer the sessions are for (D24): the dashboard's filter, likewise. */
  customerId?: string;
}

/** The filters as SQL conditions on `sessions`, their values appended to `params`. */
function filtersOf(filters: SessionFilters): Filter[] {
  return [
    ['status = ?', filters.status],
    ['created_at >= ?::timestamptz', filters.createdGte],
    ['created_at <= ?::timestamptz', filters.createdLte],
    ['merchant_reference = ?', filters.merchantReference],
    ['payment_link = ?', filters.paymentLink],
    ['customer_id = ?', filters.customerId],
  ];
}

/** Up to $2 CREATED or PENDING sessions whose lifetime ended by $1, locked, skipping those another transaction holds. */
const DUE_TO_EXPIRE = skipLocked({ select: COLUMNS, from: 'sessions', where: "status IN ('CREATED', 'PENDING') AND expires_at <= $1", orderBy: 'expires_at', limit: '$2' });

export class SessionRepository {
  private readonly newSessions: NewSessionBatches;

  constructor(private readonly pool: Pool) {
    this.newSessions = new NewSessionBatches(pool);
  }

  /**
   * Inserts a new session with its first checkout link, in one statement. Returns false, inserting
   * nothing, when the merchant reference or the order number is already
   * taken. The creates asked for in one pass of the event loop go together in
   * one statement and one commit (NewSessionBatches); each is answered only
   * once that commit is done.
   */
  async insertNew(row: SessionRow): Promise<boolean> {
    return this.newSessions.insert(newSessionValues(row));
  }

  /** The ids of the account's sessions made through `paymentLink` still open to payment (CREATED or PENDING, not yet expired) at `now`. */
  async openOfPaymentLink(account: Account, paymentLink: string, now: Date): Promise<string[]> {
    const result = await this.pool.query<{ id: string }>(
      `SELECT id FROM sessions WHERE merchant_id = $1 AND livemode = $2 AND payment_link = $3 AND status IN ('CREATED', 'PENDING') AND expires_at > $4`,
      [account.merchantId, account.livemode, paymentLink, now],
    );
    return result.rows.map((row) => row.id);
  }

  /** Whether the session service has heard that `merchantId` is suspended (merchant_standing). */
  async merchantSuspended(merchantId: string): Promise<boolean> {
    const result = await this.pool.query('SELECT 1 FROM merchant_standing WHERE merchant_id = $1 AND suspended', [merchantId]);
    return result.rowCount === 1;
  }

  async findByReference(account: Account, merchantReference: string): Promise<SessionRow | undefined> {
    const result = await this.pool.query<SessionRow>({
      name: 'session-by-reference',
      text: `SELECT ${DETAIL_COLUMNS} FROM sessions WHERE merchant_id = $1 AND livemode = $2 AND merchant_reference = $3`,
      values: [account.merchantId, account.livemode, merchantReference],
    });
    return result.rows[0];
  }

  /** The session, when it exists and belongs to this merchant in this mode. */
  async find(account: Account, sessionId: string): Promise<SessionRow | undefined> {
    const result = await this.pool.query<SessionRow>({
      name: 'session-by-id',
      text: `SELECT ${DETAIL_COLUMNS} FROM sessions WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      values: [sessionId, account.merchantId, account.livemode],
    });
    return result.rows[0];
  }

  /**
   * Runs `work` with the session locked (FOR UPDATE) in a transaction; `work`
   * gets undefined when there is no such session. With an account, only that
   * account's sessions are found; without one (a buyer holding a signed
   * checkout link), any.
   */
  async withLockedSession<T>(account: Account | undefined, sessionId: string, work: (row: SessionRow | undefined, tx: PoolClient) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, async (tx) => {
      const result = account
        ? await tx.query<SessionRow>(`SELECT ${DETAIL_COLUMNS} FROM sessions WHERE id = $1 AND merchant_id = $2 AND livemode = $3 FOR UPDATE`, [
            sessionId,
            account.merchantId,
            account.livemode,
          ])
        : await tx.query<SessionRow>(`SELECT ${DETAIL_COLUMNS} FROM sessions WHERE id = $1 FOR UPDATE`, [sessionId]);
      return work(result.rows[0], tx);
    });
  }

  /**
   * The session a buyer's checkout link names, whether the session issued that
   * checkout link, whether its merchant is suspended, and whether the
   * merchant's live Flouci is connected (D26: `flouciLive`, whatever the
   * session's mode; test mode always has the sandbox's).
   */
  async findForCheckout(sessionId: string, checkoutLinkId: string): Promise<{ row: SessionRow; checkoutLinkKnown: boolean; merchantSuspended: boolean; flouciLive: boolean } | undefined> {
    const result = await this.pool.query<SessionRow & { link_known: boolean; merchant_suspended: boolean; flouci_live: boolean }>({
      name: 'session-for-checkout',
      text: `SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM checkout_links l WHERE l.id = $2 AND l.session_id = sessions.id) AS link_known,
                    EXISTS (SELECT 1 FROM merchant_standing m WHERE m.merchant_id = sessions.merchant_id AND m.suspended) AS merchant_suspended,
                    EXISTS (SELECT 1 FROM merchant_wallets w WHERE w.merchant_id = sessions.merchant_id AND w.flouci_live) AS flouci_live
             FROM sessions WHERE id = $1`,
      values: [sessionId, checkoutLinkId],
    });
    const row = result.rows[0];
    return row ? { row, checkoutLinkKnown: row.link_known, merchantSuspended: row.merchant_suspended, flouciLive: row.flouci_live } : undefined;
  }

  /** Moves the session to a terminal status and enqueues the event, within the caller's transaction. */
  async finish(tx: PoolClient, sessionId: string, status: SessionRow['status'], completedAt: Date, events: readonly Envelope[]): Promise<void> {
    await tx.query('UPDATE sessions SET status = $2, completed_at = $3 WHERE id = $1', [sessionId, status, completedAt]);
    await enqueue(tx, events);
  }

  /**
   * Records as EXPIRED up to `limit` CREATED or PENDING sessions whose
   * lifetime ended by `now`, each with the event `announce` makes of it, in
   * one transaction. Sessions another replica is sweeping, or that a buyer is
   * starting to pay, are locked and skipped. Answers how many it expired.
   */
  async expireDue(now: Date, limit: number, announce: (expired: SessionRow) => Envelope): Promise<number> {
    return withTransaction(this.pool, async (tx) => {
      const due = await tx.query<SessionRow>(DUE_TO_EXPIRE, [now, limit]);
      if (due.rows.length === 0) return 0;
      await tx.query(`UPDATE sessions SET status = 'EXPIRED', completed_at = expires_at WHERE id = ANY($1::text[])`, [due.rows.map((r) => r.id)]);
      await enqueue(
        tx,
        due.rows.map((row) => announce({ ...row, status: 'EXPIRED', completed_at: row.expires_at })),
      );
      return due.rows.length;
    });
  }

  /** Whether `sessionId` is one of the account's sessions matching `filters` (a valid list cursor). */
  async exists(account: Account, sessionId: string, filters: SessionFilters): Promise<boolean> {
    return isOwnRow(this.pool, 'sessions', account.merchantId, account.livemode, sessionId, filtersOf(filters));
  }

  /** One page of the account's sessions matching `filters`, newest first (readPage): up to limit + 1 rows. */
  async page(account: Account, limit: number, cursor: { before?: string; after?: string }, filters: SessionFilters): Promise<SessionRow[]> {
    return readPage<SessionRow>(this.pool, { table: 'sessions', columns: COLUMNS, merchantId: account.merchantId, livemode: account.livemode, filters: filtersOf(filters), limit, cursor });
  }
}
