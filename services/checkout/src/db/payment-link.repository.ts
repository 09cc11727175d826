/**
 * Storage of payment links (D19): the links, the sessions made and paid through
 * them (once each), the slots of payment links that may be paid only so many times, and
 * the page's count of session requests per buyer address.
 */
import type { Locale, PaymentLink } from '@gateway/contracts';
import { isOwnRow, readPage, withTransaction, type Pool } from '@gateway/db';

/** A merchant and mode: every read and change of a link names its account. */
export interface Account {
  merchantId: string;
  livemode: boolean;
}

export interface PaymentLinkRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  code: string;
  merchant_name: string;
  order_prefix: string;
  description: string;
  /** Numeric(12,3) as text; written at the currency's precision when shown. */
  amount: string | null;
  currency: string;
  open_amount: boolean;
  amount_min: string | null;
  amount_max: string | null;
  items: PaymentLink['items'];
  metadata: Record<string, string>;
  return_url: string;
  locale: Locale;
  collect_phone: boolean;
  max_payments: number | null;
  expires_at: Date | null;
  active: boolean;
  payments_count: number;
  created_at: Date;
}

export type NewPaymentLink = Omit<PaymentLinkRow, 'active' | 'payments_count'>;

/** The link a session was made through, as its card step looks at it. */
export type SessionLink = Pick<PaymentLinkRow, 'id' | 'active' | 'expires_at' | 'max_payments' | 'payments_count'>;

/** A slot a session of a link holds while its attempt is under way. */
export interface HeldSlot {
  sessionId: string;
  attemptId: string;
  checkoutLinkId: string;
}

/**
 * Taking a link's slot for an attempt: `none` for a session of no limited
 * link (it needs none), `taken` when it took a free one, `kept` when the
 * session held one already (for an attempt that may still be under way,
 * `previous`), `full` when the link's slots are all paid or held.
 */
export type SlotClaim =
  | { outcome: 'none' }
  | { outcome: 'taken'; linkId: string }
  | { outcome: 'kept'; linkId: string; previous: { attemptId: string; checkoutLinkId: string; heldAt: Date } }
  | { outcome: 'full'; linkId: string; paid: boolean };

const COLUMNS = `id, merchant_id, livemode, code, merchant_name, order_prefix, description, amount::text, currency, open_amount,
  amount_min::text, amount_max::text, items, metadata, return_url, locale, collect_phone, max_payments, expires_at, active,
  payments_count, created_at`;

export class PaymentLinkRepository {
  constructor(private readonly pool: Pool) {}

  /** Inserts a new link; false when its random code is taken already. */
  async insert(link: NewPaymentLink): Promise<boolean> {
    const result = await this.pool.query(
      `INSERT INTO payment_links (id, merchant_id, livemode, code, merchant_name, order_prefix, description, amount, currency, open_amount,
         amount_min, amount_max, items, metadata, return_url, locale, collect_phone, max_payments, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
       ON CONFLICT (code) DO NOTHING`,
      [
        link.id,
        link.merchant_id,
        link.livemode,
        link.code,
        link.merchant_name,
        link.order_prefix,
        link.description,
        link.amount,
        link.currency,
        link.open_amount,
        link.amount_min,
        link.amount_max,
        JSON.stringify(link.items),
        JSON.stringify(link.metadata),
        link.return_url,
        link.locale,
        link.collect_phone,
        link.max_payments,
        link.expires_at,
        link.created_at,
      ],
    );
    return result.rowCount === 1;
  }

  /** The account's link `id`, if it has one. */
  async find(account: Account, id: string): Promise<PaymentLinkRow | undefined> {
    const result = await this.pool.query<PaymentLinkRow>(`SELECT ${COLUMNS} FROM payment_links WHERE id = $1 AND merchant_id = $2 AND livemode = $3`, [
      id,
      account.merchantId,
      account.livemode,
    ]);
    return result.rows[0];
  }

  /** The link a public page's code names, whoever's it is. */
  async findByCode(code: string): Promise<PaymentLinkRow | undefined> {
    const result = await this.pool.query<PaymentLinkRow>(`SELECT ${COLUMNS} FROM payment_links WHERE code = $1`, [code]);
    return result.rows[0];
  }

  /** One page of the account's links, newest first (readPage): up to limit + 1 rows. */
  async page(account: Account, limit: number, cursor: { before?: string | undefined; after?: string | undefined }): Promise<PaymentLinkRow[]> {
    return readPage<PaymentLinkRow>(this.pool, { table: 'payment_links', columns: COLUMNS, merchantId: account.merchantId, livemode: account.livemode, filters: [], limit, cursor });
  }

  /** Whether `id` is one of the account's links: a list's cursor must be. */
  async exists(account: Account, id: string): Promise<boolean> {
    return isOwnRow(this.pool, 'payment_links', account.merchantId, account.livemode, id, []);
  }

  /** Deactivates the account's link `id`; the link as it now stands, if the account has it. */
  async deactivate(account: Account, id: string): Promise<PaymentLinkRow | undefined> {
    const result = await this.pool.query<PaymentLinkRow>(
      `UPDATE payment_links SET active = false WHERE id = $1 AND merchant_id = $2 AND livemode = $3 RETURNING ${COLUMNS}`,
      [id, account.merchantId, account.livemode],
    );
    return result.rows[0];
  }

  /**
   * Links closed by their owner, their expiry or their last payment whose
   * open sessions have not been canceled yet (D29), oldest first, at most `limit`.
   */
  async closedWithOpenSessions(limit: number): Promise<PaymentLinkRow[]> {
    const result = await this.pool.query<PaymentLinkRow>(
      `SELECT ${COLUMNS} FROM payment_links
       WHERE sessions_closed_at IS NULL AND (NOT active OR expires_at <= now() OR (max_payments IS NOT NULL AND payments_count >= max_payments))
       ORDER BY created_at, id LIMIT $1`,
      [limit],
    );
    return result.rows;
  }

  /** Forgets the request counts of minutes before `before` (link pages and QR codes), which no limit reads any more. */
  async forgetRequestsBefore(before: Date): Promise<void> {
    await this.pool.query('WITH links AS (DELETE FROM payment_link_requests WHERE minute < $1) DELETE FROM qr_requests WHERE minute < $1', [before]);
  }

  /** Notes that the link's open sessions were canceled: the sweep passes it over from now on. */
  async markSessionsClosed(id: string): Promise<void> {
    await this.pool.query('UPDATE payment_links SET sessions_closed_at = now() WHERE id = $1 AND sessions_closed_at IS NULL', [id]);
  }

  /** The next number of the link's merchant references (`<id>-<n>`), taken once whatever happens after. */
  async nextReferenceNumber(linkId: string): Promise<number> {
    const result = await this.pool.query<{ n: number }>('UPDATE payment_links SET sessions_made = sessions_made + 1 WHERE id = $1 RETURNING sessions_made AS n', [linkId]);
    const n = result.rows[0]?.n;
    if (n === undefined) throw new Error('payment link vanished');
    return n;
  }

  /**
   * Counts one session request from `address` on the link in the minute
   * `minute` starts: the address's count so far in that minute, and the
   * link's across every address, each address counted up to `perAddress` (its
   * requests beyond are refused, and must not use up the link's budget for
   * other buyers). The link's earlier minutes are forgotten on the way.
   */
  async countRequest(linkId: string, address: string, minute: Date, perAddress: number): Promise<{ address: number; link: number }> {
    const result = await this.pool.query<{ address: number; link: number }>(
      `WITH forgotten AS (DELETE FROM payment_link_requests WHERE link_id = $1 AND minute < $3),
       counted AS (
         INSERT INTO payment_link_requests (link_id, address, minute, count) VALUES ($1, $2, $3, 1)
         ON CONFLICT (link_id, address, minute) DO UPDATE SET count = payment_link_requests.count + 1
         RETURNING count
       )
       SELECT counted.count AS address,
              (LEAST(counted.count, $4) + COALESCE((SELECT sum(LEAST(count, $4)) FROM payment_link_requests WHERE link_id = $1 AND minute = $3 AND address <> $2), 0))::int AS link
       FROM counted`,
      [linkId, address, minute, perAddress],
    );
    return result.rows[0] ?? { address: 1, link: 1 };
  }

  /** Counts one QR code request from `address` in the minute `minute` starts; the count so far in that minute. The address's earlier minutes are forgotten on the way. */
  async countQrRequest(address: string, minute: Date): Promise<number> {
    const result = await this.pool.query<{ count: number }>(
      `WITH forgotten AS (DELETE FROM qr_requests WHERE address = $1 AND minute < $2)
       INSERT INTO qr_requests (address, minute, count) VALUES ($1, $2, 1)
       ON CONFLICT (address, minute) DO UPDATE SET count = qr_requests.count + 1
       RETURNING count`,
      [address, minute],
    );
    return result.rows[0]?.count ?? 1;
  }

  /**
   * Counts a succeeded session on its link, once whatever the event's
   * deliveries (keyed on the session); the slot the session held becomes the
   * payment, in the same statement, so paid and held together never grow.
   * The link's new count, or undefined when it was counted already or names
   * no link of that merchant.
   */
  async recordPayment(payment: { sessionId: string; linkId: string; merchantId: string; at: Date }): Promise<number | undefined> {
    const result = await this.pool.query<{ payments_count: number }>(
      `WITH link AS (SELECT id FROM payment_links WHERE id = $2 AND merchant_id = $3),
       counted AS (
         INSERT INTO payment_link_payments (session_id, link_id, paid_at) SELECT $1, id, $4 FROM link
         ON CONFLICT (session_id) DO NOTHING RETURNING link_id
       ),
       freed AS (
         UPDATE payment_link_sessions SET attempt_id = NULL, checkout_link_id = NULL, held_at = NULL, checked_at = NULL
         FROM counted WHERE payment_link_sessions.session_id = $1 AND payment_link_sessions.link_id = counted.link_id
       )
       UPDATE payment_links SET payments_count = payments_count + 1 FROM counted WHERE payment_links.id = counted.link_id RETURNING payments_count`,
      [payment.sessionId, payment.linkId, payment.merchantId, payment.at],
    );
    return result.rows[0]?.payments_count;
  }

  /** Notes that `sessionId` was made through the link `linkId`: its card step looks at the link, and takes a slot of a limited one. */
  async recordSession(sessionId: string, linkId: string): Promise<void> {
    await this.pool.query('INSERT INTO payment_link_sessions (session_id, link_id) VALUES ($1, $2) ON CONFLICT (session_id) DO NOTHING', [sessionId, linkId]);
  }

  /** The link the session was made through, as its card step needs it: whether it is open, and whether it is limited. */
  async linkOfSession(sessionId: string): Promise<SessionLink | undefined> {
    const result = await this.pool.query<SessionLink>(
      'SELECT l.id, l.active, l.expires_at, l.max_payments, l.payments_count FROM payment_link_sessions s JOIN payment_links l ON l.id = s.link_id WHERE s.session_id = $1',
      [sessionId],
    );
    return result.rows[0];
  }

  /** How many slots the link's sessions hold now (attempts under way). */
  async heldSlots(linkId: string): Promise<number> {
    const result = await this.pool.query<{ held: number }>('SELECT count(*)::int AS held FROM payment_link_sessions WHERE link_id = $1 AND attempt_id IS NOT NULL', [linkId]);
    return result.rows[0]?.held ?? 0;
  }

  /**
   * Takes a slot of the session's link for `attemptId`, started with the
   * checkout link `checkoutLinkId`. Claims of one link take turns on its row
   * lock, and each counts paid and held afresh once it has the lock: two
   * buyers can never both have the last slot.
   */
  async claimSlot(sessionId: string, attemptId: string, checkoutLinkId: string, now: Date): Promise<SlotClaim> {
    return withTransaction(this.pool, async (client) => {
      const link = await client.query<{ link_id: string; max_payments: number | null; payments_count: number }>(
        `SELECT l.id AS link_id, l.max_payments, l.payments_count FROM payment_link_sessions s JOIN payment_links l ON l.id = s.link_id
         WHERE s.session_id = $1 FOR UPDATE OF l`,
        [sessionId],
      );
      const row = link.rows[0];
      if (!row || row.max_payments === null) return { outcome: 'none' };
      // Read after the lock: what an earlier claim of this session wrote is seen.
      const mine = await client.query<{ attempt_id: string | null; checkout_link_id: string | null; held_at: Date | null }>(
        'SELECT attempt_id, checkout_link_id, held_at FROM payment_link_sessions WHERE session_id = $1',
        [sessionId],
      );
      const held = mine.rows[0];
      const take = () =>
        client.query('UPDATE payment_link_sessions SET attempt_id = $2, checkout_link_id = $3, held_at = $4, checked_at = NULL WHERE session_id = $1', [
          sessionId,
          attemptId,
          checkoutLinkId,
          now,
        ]);
      if (held?.attempt_id && held.checkout_link_id && held.held_at) {
        await take();
        return { outcome: 'kept', linkId: row.link_id, previous: { attemptId: held.attempt_id, checkoutLinkId: held.checkout_link_id, heldAt: held.held_at } };
      }
      if (row.payments_count >= row.max_payments) return { outcome: 'full', linkId: row.link_id, paid: true };
      const count = await client.query<{ held: number }>('SELECT count(*)::int AS held FROM payment_link_sessions WHERE link_id = $1 AND attempt_id IS NOT NULL', [row.link_id]);
      if (row.payments_count + (count.rows[0]?.held ?? 0) >= row.max_payments) return { outcome: 'full', linkId: row.link_id, paid: false };
      await take();
      return { outcome: 'taken', linkId: row.link_id };
    });
  }

  /** Gives back the slot `attemptId` holds; false when the session's slot is another attempt's now, or none. */
  async releaseSlot(sessionId: string, attemptId: string): Promise<boolean> {
    const result = await this.pool.query(
      'UPDATE payment_link_sessions SET attempt_id = NULL, checkout_link_id = NULL, held_at = NULL, checked_at = NULL WHERE session_id = $1 AND attempt_id = $2',
      [sessionId, attemptId],
    );
    return result.rowCount === 1;
  }

  /** Hands the session's slot back from `attemptId` (which never started) to the attempt that held it before. */
  async restoreSlot(sessionId: string, attemptId: string, previous: { attemptId: string; checkoutLinkId: string; heldAt: Date }): Promise<void> {
    await this.pool.query('UPDATE payment_link_sessions SET attempt_id = $3, checkout_link_id = $4, held_at = $5 WHERE session_id = $1 AND attempt_id = $2', [
      sessionId,
      attemptId,
      previous.attemptId,
      previous.checkoutLinkId,
      previous.heldAt,
    ]);
  }

  /** The link's slots taken before `heldBefore` and not found still paying since `checkedBefore`. */
  async staleSlots(linkId: string, heldBefore: Date, checkedBefore: Date): Promise<HeldSlot[]> {
    const result = await this.pool.query<{ session_id: string; attempt_id: string; checkout_link_id: string }>(
      `SELECT session_id, attempt_id, checkout_link_id FROM payment_link_sessions
       WHERE link_id = $1 AND attempt_id IS NOT NULL AND held_at < $2 AND (checked_at IS NULL OR checked_at < $3)`,
      [linkId, heldBefore, checkedBefore],
    );
    return result.rows.map((r) => ({ sessionId: r.session_id, attemptId: r.attempt_id, checkoutLinkId: r.checkout_link_id }));
  }

  /** Notes that the slot of `attemptId` was found still paying at `now`. */
  async markChecked(sessionId: string, attemptId: string, now: Date): Promise<void> {
    await this.pool.query('UPDATE payment_link_sessions SET checked_at = $3 WHERE session_id = $1 AND attempt_id = $2', [sessionId, attemptId, now]);
  }
}
