/**
 * Storage of customers and their saved cards (D24), each scoped to its
 * account (D2). A deleted customer stays, marked, for the sessions that name
 * it; no read here finds it again.
 */
import type { CardUsage, Envelope, SavedCard } from '@gateway/contracts';
import { isOwnRow, readPage, withTransaction, type Filter, type Pool, type PoolClient } from '@gateway/db';
import { enqueue } from '@gateway/messaging';
import type { Account } from '../domain/accounts.js';

export interface CustomerRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  external_id: string | null;
  email: string | null;
  name: string | null;
  phone: string | null;
  metadata: Record<string, string>;
  created_at: Date;
}

/** The events a saved card's attach makes of it: attached, or detached (its binding to be removed at the acquirer). */
export interface CardAnnouncements {
  attached: (row: PaymentMethodRow) => Envelope;
  detached: (row: PaymentMethodRow) => Envelope;
}

export interface PaymentMethodRow {
  id: string;
  customer_id: string;
  card_brand: string;
  card_last_four: string;
  exp_month: number;
  exp_year: number;
  usage: CardUsage;
  created_at: Date;
}

/** The exact-match filters of the customer list. */
export interface CustomerFilters {
  email?: string | undefined;
  externalId?: string | undefined;
}

const COLUMNS = 'id, merchant_id, livemode, external_id, email, name, phone, metadata, created_at';
const METHOD_COLUMNS = 'id, customer_id, card_brand, card_last_four, exp_month, exp_year, usage, created_at';
const LIVE = 'deleted_at IS NULL';

/** The list's conditions: the customers not deleted, narrowed by the filters given. */
function filtersOf(filters: CustomerFilters): Filter[] {
  return [
    ['(deleted_at IS NULL) = ?', true],
    ['email = ?', filters.email],
    ['external_id = ?', filters.externalId],
  ];
}

export class CustomerRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Inserts the customer unless the account already has one with its
   * external_id; either way answers the account's customer and whether it is
   * the new one. Concurrent creates with one external_id make one customer.
   */
  async insertOrFind(row: CustomerRow): Promise<{ customer: CustomerRow; created: boolean }> {
    for (;;) {
      const inserted = await this.pool.query<CustomerRow>(
        `INSERT INTO customers (id, merchant_id, livemode, external_id, email, name, phone, metadata, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (merchant_id, livemode, external_id) WHERE external_id IS NOT NULL AND deleted_at IS NULL DO NOTHING
         RETURNING ${COLUMNS}`,
        [row.id, row.merchant_id, row.livemode, row.external_id, row.email, row.name, row.phone, JSON.stringify(row.metadata), row.created_at],
      );
      if (inserted.rows[0]) return { customer: inserted.rows[0], created: true };
      const existing = await this.findByExternalId({ merchantId: row.merchant_id, livemode: row.livemode }, row.external_id ?? '');
      // Deleted between the conflict and the read: the external_id is free again.
      if (existing) return { customer: existing, created: false };
    }
  }

  async find(account: Account, id: string): Promise<CustomerRow | undefined> {
    const result = await this.pool.query<CustomerRow>(`SELECT ${COLUMNS} FROM customers WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND ${LIVE}`, [
      id,
      account.merchantId,
      account.livemode,
    ]);
    return result.rows[0];
  }

  private async findByExternalId(account: Account, externalId: string): Promise<CustomerRow | undefined> {
    const result = await this.pool.query<CustomerRow>(
      `SELECT ${COLUMNS} FROM customers WHERE merchant_id = $1 AND livemode = $2 AND external_id = $3 AND ${LIVE}`,
      [account.merchantId, account.livemode, externalId],
    );
    return result.rows[0];
  }

  /** One page of the account's customers, newest first (readPage): up to limit + 1 rows. */
  async page(account: Account, limit: number, cursor: { before?: string | undefined; after?: string | undefined }, filters: CustomerFilters): Promise<CustomerRow[]> {
    return readPage<CustomerRow>(this.pool, { table: 'customers', columns: COLUMNS, merchantId: account.merchantId, livemode: account.livemode, filters: filtersOf(filters), limit, cursor });
  }

  /** Whether `id` is one of the account's customers matching the filters: a list's cursor must be. */
  async exists(account: Account, id: string, filters: CustomerFilters): Promise<boolean> {
    return isOwnRow(this.pool, 'customers', account.merchantId, account.livemode, id, filtersOf(filters));
  }

  /**
   * Marks the account's customer deleted and detaches its saved cards, in one
   * transaction with the events `announce` makes of them; the cards it had,
   * or undefined when the account has no such customer (or it was deleted already).
   */
  async delete(account: Account, id: string, at: Date, announce: (detached: readonly PaymentMethodRow[]) => Envelope[]): Promise<PaymentMethodRow[] | undefined> {
    return withTransaction(this.pool, async (client) => {
      const deleted = await client.query(`UPDATE customers SET deleted_at = $4 WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND ${LIVE}`, [
        id,
        account.merchantId,
        account.livemode,
        at,
      ]);
      if (deleted.rowCount !== 1) return undefined;
      const detached = await client.query<PaymentMethodRow>(`UPDATE payment_methods SET detached_at = $2 WHERE customer_id = $1 AND detached_at IS NULL RETURNING ${METHOD_COLUMNS}`, [
        id,
        at,
      ]);
      await enqueue(client, announce(detached.rows));
      return detached.rows;
    });
  }

  /**
   * Attaches a card saved with a payment approved at `savedAt` to its customer
   * of the account (D24), in one transaction with the events it makes, the
   * customer's row locked so that its saves and its deletion go one at a time:
   * - the card attached already (its id is its binding's) stays as it is, its
   *   usage widened to off_session when asked (attached again);
   * - the card removed before this payment is attached again; an older
   *   payment's save (a redelivered event) changes nothing;
   * - another card of the same brand, last four and expiry attached before
   *   this payment is replaced by this one (the first announced detached, so its
   *   binding goes), one saved after it is kept;
   * - a card that is not attached (its customer deleted, or a later save kept)
   *   is announced detached at once: its binding must not stay at the acquirer.
   */
  async attach(account: Account, card: SavedCard, savedAt: Date, announce: CardAnnouncements): Promise<void> {
    const row: PaymentMethodRow = {
      id: card.payment_method_id,
      customer_id: card.customer_id,
      card_brand: card.card_brand,
      card_last_four: card.card_last_four,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      usage: card.usage,
      created_at: savedAt,
    };
    await withTransaction(this.pool, async (client) => enqueue(client, await this.attachIn(client, account, row)(announce)));
  }

  private attachIn(client: PoolClient, account: Account, card: PaymentMethodRow) {
    return async (announce: CardAnnouncements): Promise<Envelope[]> => {
      const customer = await client.query(`SELECT 1 FROM customers WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND ${LIVE} FOR UPDATE`, [
        card.customer_id,
        account.merchantId,
        account.livemode,
      ]);
      const own = (await client.query<PaymentMethodRow & { detached_at: Date | null }>(`SELECT ${METHOD_COLUMNS}, detached_at FROM payment_methods WHERE id = $1 FOR UPDATE`, [card.id])).rows[0];
      if (customer.rowCount !== 1) return own ? [] : [announce.detached(card)];
      if (own) {
        if (own.detached_at === null) {
          if (card.usage !== 'off_session' || own.usage === 'off_session') return [];
          const widened = await client.query<PaymentMethodRow>(`UPDATE payment_methods SET usage = 'off_session' WHERE id = $1 RETURNING ${METHOD_COLUMNS}`, [card.id]);
          return widened.rows.map(announce.attached);
        }
        if (own.detached_at >= card.created_at) return [];
        const again = await client.query<PaymentMethodRow>(`UPDATE payment_methods SET detached_at = NULL, usage = $2, created_at = $3 WHERE id = $1 RETURNING ${METHOD_COLUMNS}`, [
          card.id,
          card.usage,
          card.created_at,
        ]);
        return again.rows.map(announce.attached);
      }
      const same = (
        await client.query<PaymentMethodRow>(
          `SELECT ${METHOD_COLUMNS} FROM payment_methods
           WHERE customer_id = $1 AND card_brand = $2 AND card_last_four = $3 AND exp_month = $4 AND exp_year = $5 AND detached_at IS NULL FOR UPDATE`,
          [card.customer_id, card.card_brand, card.card_last_four, card.exp_month, card.exp_year],
        )
      ).rows[0];
      if (same && same.created_at > card.created_at) return [announce.detached(card)];
      const events: Envelope[] = [];
      if (same) {
        await client.query('UPDATE payment_methods SET detached_at = $2 WHERE id = $1', [same.id, card.created_at]);
        events.push(announce.detached(same));
      }
      await client.query(
        `INSERT INTO payment_methods (id, customer_id, merchant_id, livemode, card_brand, card_last_four, exp_month, exp_year, usage, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [card.id, card.customer_id, account.merchantId, account.livemode, card.card_brand, card.card_last_four, card.exp_month, card.exp_year, card.usage, card.created_at],
      );
      events.push(announce.attached(card));
      return events;
    };
  }

  /** The saved cards of each of `customerIds` still attached, oldest first. */
  async paymentMethods(customerIds: readonly string[]): Promise<Map<string, PaymentMethodRow[]>> {
    const byCustomer = new Map<string, PaymentMethodRow[]>(customerIds.map((id) => [id, []]));
    if (customerIds.length === 0) return byCustomer;
    const result = await this.pool.query<PaymentMethodRow>(
      `SELECT ${METHOD_COLUMNS} FROM payment_methods WHERE customer_id = ANY($1::text[]) AND detached_at IS NULL ORDER BY created_at, id`,
      [customerIds],
    );
    for (const row of result.rows) byCustomer.get(row.customer_id)?.push(row);
    return byCustomer;
  }

  /** The customer's saved card `id`, while attached. */
  async paymentMethod(customerId: string, id: string): Promise<PaymentMethodRow | undefined> {
    const result = await this.pool.query<PaymentMethodRow>(`SELECT ${METHOD_COLUMNS} FROM payment_methods WHERE id = $1 AND customer_id = $2 AND detached_at IS NULL`, [id, customerId]);
    return result.rows[0];
  }

  /**
   * Detaches the customer's saved card `id`, in one transaction with the
   * events `announce` makes of it; the card, or undefined when the customer
   * has no such card attached.
   */
  async detach(customerId: string, id: string, at: Date, announce: (detached: readonly PaymentMethodRow[]) => Envelope[]): Promise<PaymentMethodRow | undefined> {
    return withTransaction(this.pool, async (client) => {
      const result = await client.query<PaymentMethodRow>(
        `UPDATE payment_methods SET detached_at = $3 WHERE id = $1 AND customer_id = $2 AND detached_at IS NULL RETURNING ${METHOD_COLUMNS}`,
        [id, customerId, at],
      );
      await enqueue(client, announce(result.rows));
      return result.rows[0];
    });
  }
}
