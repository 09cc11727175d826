/**
 * The delivery history: an account's attempts as the API and the dashboard
 * read them (INTERFACE 4.7, 4.8; D14), and their retention (issue 19).
 */
import { purgeBatch, type Pool } from '@gateway/db';
import type { Account } from '../domain/accounts.js';

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  session_id: string;
  event_type: string;
  event_id: string;
  url: string;
  attempt_number: number;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  http_status_code: number | null;
  response_time_ms: number | null;
  error_message: string;
  next_retry_at: Date | null;
  created_at: Date;
}

/** An attempt with what was sent and what came back (the dashboard's view of one attempt, D14). */
export interface AttemptDetailRow extends DeliveryRow {
  /** The event's body: the exact bytes signed and sent, as text. */
  payload: string;
  response_body: string | null;
}

/** Narrowing of an account's attempts: one session's, one status's. */
export interface DeliveryFilters {
  sessionId?: string;
  status?: DeliveryRow['status'];
}

const ROW_COLUMNS = `id, endpoint_id, session_id, event_type, event_id, url, attempt_number, status, http_status_code,
  response_time_ms, error_message, next_retry_at, created_at`;

/** Up to $2 delivery records created before $1, but those still PENDING or whose automatic retry is still to come. */
const PURGE_DELIVERIES = purgeBatch({
  table: 'deliveries',
  key: 'id',
  where: "created_at < $1 AND status <> 'PENDING' AND NOT (status = 'FAILED' AND NOT retried AND next_retry_at IS NOT NULL)",
  limit: '$2',
});

/** Up to $2 events created before $1 that no delivery record names any more. */
const PURGE_EVENTS = purgeBatch({
  table: 'events e',
  key: 'id',
  where: 'created_at < $1 AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)',
  limit: '$2',
});

export class DeliveryHistoryRepository {
  constructor(private readonly pool: Pool) {}

  /** Whether the dispatcher has had any event of this session of the account's. */
  async knowsSession(account: Account, sessionId: string): Promise<boolean> {
    const result = await this.pool.query('SELECT 1 FROM events WHERE session_id = $1 AND merchant_id = $2 AND livemode = $3 LIMIT 1', [
      sessionId,
      account.merchantId,
      account.livemode,
    ]);
    return (result.rowCount ?? 0) > 0;
  }

  /** Whether `deliveryId` is one of the account's deliveries matching `filters` (of a session, in a status): a valid cursor. */
  async exists(account: Account, deliveryId: string, filters: DeliveryFilters = {}): Promise<boolean> {
    const result = await this.pool.query(
      `SELECT 1 FROM deliveries WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND ($4::text IS NULL OR session_id = $4) AND ($5::text IS NULL OR status = $5)`,
      [deliveryId, account.merchantId, account.livemode, filters.sessionId ?? null, filters.status ?? null],
    );
    return result.rowCount === 1;
  }

  /**
   * One page of the account's attempts matching `filters` (of one session, in
   * one status), newest first by creation order. `before`: older than that
   * attempt; `after`: the nearest newer ones, read oldest first. Up to
   * limit + 1 rows. Each filter is written into the statement only when given,
   * so the planner sees which index serves it (deliveries_account,
   * deliveries_account_status, deliveries_session).
   */
  async page(account: Account, limit: number, cursor: { before?: string; after?: string } & DeliveryFilters): Promise<DeliveryRow[]> {
    const params: unknown[] = [account.merchantId, account.livemode, limit + 1];
    let where = '';
    if (cursor.sessionId !== undefined) {
      params.push(cursor.sessionId);
      where += ` AND session_id = $${params.length}`;
    }
    if (cursor.status !== undefined) {
      params.push(cursor.status);
      where += ` AND status = $${params.length}`;
    }
    let order = 'DESC';
    const anchor = cursor.before ?? cursor.after;
    if (anchor !== undefined) {
      params.push(anchor);
      where += ` AND seq ${cursor.before !== undefined ? '<' : '>'} (SELECT seq FROM deliveries WHERE id = $${params.length} AND merchant_id = $1 AND livemode = $2)`;
      if (cursor.after !== undefined) order = 'ASC';
    }
    const result = await this.pool.query<DeliveryRow>(
      `SELECT ${ROW_COLUMNS} FROM deliveries WHERE merchant_id = $1 AND livemode = $2${where} ORDER BY seq ${order} LIMIT $3`,
      params,
    );
    return result.rows;
  }

  /**
   * One attempt of merchant `merchantId` (either mode) with the exact body
   * that was signed and sent and the start of the answer; undefined when there
   * is no such attempt of that merchant.
   */
  async attempt(merchantId: string, deliveryId: string): Promise<AttemptDetailRow | undefined> {
    const result = await this.pool.query<AttemptDetailRow>(
      `SELECT ${ROW_COLUMNS.split(',').map((column) => `d.${column.trim()}`).join(', ')}, e.body AS payload, d.response_body
       FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = $1 AND d.merchant_id = $2`,
      [deliveryId, merchantId],
    );
    return result.rows[0];
  }

  /**
   * Deletes up to `limit` delivery records created before `before`, then up
   * to `limit` events created before it that no record names any more:
   * short statements on rows no sweep holds (locked rows skipped), so replicas
   * share the work and no lock is held long. A record whose automatic retry
   * is still to come is kept. Returns how many of each went.
   */
  async deleteOlderThan(before: Date, limit: number): Promise<{ deliveries: number; events: number }> {
    const deliveries = await this.pool.query(PURGE_DELIVERIES, [before, limit]);
    const events = await this.pool.query(PURGE_EVENTS, [before, limit]);
    return { deliveries: deliveries.rowCount ?? 0, events: events.rowCount ?? 0 };
  }
}
