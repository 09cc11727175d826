/**
 * Storage of payment links (D19): the links, the sessions paid through them
 * (once each) and the page's count of session requests per buyer address.
 */
import type { Locale, PaymentLink } from '@gateway/contracts';
import { isOwnRow, readPage, type Pool } from '@gateway/db';

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

  /** The next number of the link's merchant references (`<id>-<n>`), taken once whatever happens after. */
  async nextReferenceNumber(linkId: string): Promise<number> {
    const result = await this.pool.query<{ n: number }>('UPDATE payment_links SET sessions_made = sessions_made + 1 WHERE id = $1 RETURNING sessions_made AS n', [linkId]);
    const n = result.rows[0]?.n;
    if (n === undefined) throw new Error('payment link vanished');
    return n;
  }

  /**
   * Counts one session request from `address` on the link in the minute
   * `minute` starts; the count so far in that minute. The link's earlier
   * minutes are forgotten on the way.
   */
  async countRequest(linkId: string, address: string, minute: Date): Promise<number> {
    const result = await this.pool.query<{ count: number }>(
      `WITH forgotten AS (DELETE FROM payment_link_requests WHERE link_id = $1 AND minute < $3)
       INSERT INTO payment_link_requests (link_id, address, minute, count) VALUES ($1, $2, $3, 1)
       ON CONFLICT (link_id, address, minute) DO UPDATE SET count = payment_link_requests.count + 1
       RETURNING count`,
      [linkId, address, minute],
    );
    return result.rows[0]?.count ?? 1;
  }

  /**
   * Counts a succeeded session on its link, once whatever the event's
   * deliveries (keyed on the session); the link's new count, or undefined
   * when it was counted already or names no link of that merchant.
   */
  async recordPayment(payment: { sessionId: string; linkId: string; merchantId: string; at: Date }): Promise<number | undefined> {
    const result = await this.pool.query<{ payments_count: number }>(
      `WITH link AS (SELECT id FROM payment_links WHERE id = $2 AND merchant_id = $3),
       counted AS (
         INSERT INTO payment_link_payments (session_id, link_id, paid_at) SELECT $1, id, $4 FROM link
         ON CONFLICT (session_id) DO NOTHING RETURNING link_id
       )
       UPDATE payment_links SET payments_count = payments_count + 1 FROM counted WHERE payment_links.id = counted.link_id RETURNING payments_count`,
      [payment.sessionId, payment.linkId, payment.merchantId, payment.at],
    );
    return result.rows[0]?.payments_count;
  }
}
