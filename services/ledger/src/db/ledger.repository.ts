/**
 * Balance transactions and the totals kept beside them (D21). An entry is
 * written once, keyed on what moved the money (type, source); the day's
 * totals and the available-on totals move in the same statement, only when
 * the entry was new, so a redelivered event changes nothing and the report
 * always equals the entries.
 */
import { isOwnRow, readPage, type Filter, type Pool } from '@gateway/db';
import { newId, type BalanceTransactionPaymentMethod, type BalanceTransactionType } from '@gateway/contracts';
import type { Movement } from '../domain/movements.js';

/** A movement as written: with its id, its Africa/Tunis day and the date it becomes available. */
export interface Entry extends Movement {
  id: string;
  day: string;
  availableOn: string;
}

export interface EntryRow {
  id: string;
  type: BalanceTransactionType;
  session_id: string;
  source: string;
  amount: string;
  fee: string;
  net: string;
  livemode: boolean;
  created_at: Date;
  available_on: string;
  payment_method: BalanceTransactionPaymentMethod;
}

export interface Account {
  merchantId: string;
  livemode: boolean;
}

export interface EntryFilters {
  type?: BalanceTransactionType;
  sessionId?: string;
  createdGte?: string;
  createdLte?: string;
}

/** One day's sums, numbers of TND as numeric text. */
export interface DayTotals {
  date: string;
  payments_count: number;
  gross: string;
  fees: string;
  refunds: string;
  net: string;
}

/** The entries ($1..$13, one array per column), those new written, and the new ones added to their totals. */
const RECORD = `WITH written AS (
    INSERT INTO balance_transactions (id, merchant_id, livemode, type, session_id, source, amount, fee, net, created_at, day, available_on, payment_method)
    SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::numeric[], $9::numeric[], $10::timestamptz[], $11::date[], $12::date[], $13::text[])
    ON CONFLICT (type, source) DO NOTHING
    RETURNING id, merchant_id, livemode, type, amount, fee, net, day, available_on
  ), days AS (
    INSERT INTO daily_totals AS t (merchant_id, livemode, day, payments_count, gross, fees, refunds, net)
    SELECT merchant_id, livemode, day, count(*) FILTER (WHERE type = 'payment'), COALESCE(sum(amount) FILTER (WHERE type = 'payment'), 0),
           sum(fee), COALESCE(sum(amount) FILTER (WHERE type <> 'payment'), 0), sum(net)
      FROM written GROUP BY merchant_id, livemode, day ORDER BY day
    ON CONFLICT (merchant_id, livemode, day) DO UPDATE SET
      payments_count = t.payments_count + EXCLUDED.payments_count, gross = t.gross + EXCLUDED.gross,
      fees = t.fees + EXCLUDED.fees, refunds = t.refunds + EXCLUDED.refunds, net = t.net + EXCLUDED.net
  ), available AS (
    INSERT INTO available_totals AS t (merchant_id, livemode, available_on, net)
    SELECT merchant_id, livemode, available_on, sum(net) FROM written GROUP BY merchant_id, livemode, available_on ORDER BY available_on
    ON CONFLICT (merchant_id, livemode, available_on) DO UPDATE SET net = t.net + EXCLUDED.net
  )
  SELECT id FROM written`;

const ROW = `id, type, session_id, source, amount::text, fee::text, net::text, livemode, created_at, to_char(available_on, 'YYYY-MM-DD') AS available_on, payment_method`;

export class LedgerRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Writes the entries that are not written yet and adds each new one to its
   * day's and its available date's totals, in one statement (atomic, one round
   * trip); answers the ids written, or undefined when every entry was there
   * already. The totals rows are upserted one per key, in one order (days,
   * then available dates, ascending), so two writers never wait on each other
   * in a circle.
   */
  async record(entries: readonly Entry[]): Promise<string[] | undefined> {
    if (entries.length === 0) return undefined;
    const column = <K extends keyof Entry>(key: K) => entries.map((entry) => entry[key]);
    const result = await this.pool.query<{ id: string }>({
      name: 'entries-record',
      text: RECORD,
      values: [
        column('id'),
        column('merchantId'),
        column('livemode'),
        column('type'),
        column('sessionId'),
        column('source'),
        column('amount'),
        column('fee'),
        column('net'),
        column('createdAt'),
        column('day'),
        column('availableOn'),
        column('paymentMethod'),
      ],
    });
    return result.rows.length === 0 ? undefined : result.rows.map((row) => row.id);
  }

  /** Whether `id` is one of the account's entries matching `filters` (a list's cursor). */
  async exists(account: Account, id: string, filters: EntryFilters): Promise<boolean> {
    return isOwnRow(this.pool, 'balance_transactions', account.merchantId, account.livemode, id, conditions(filters));
  }

  /** Whether the account has any entry of `sessionId`. */
  async hasSession(account: Account, sessionId: string): Promise<boolean> {
    const result = await this.pool.query('SELECT 1 FROM balance_transactions WHERE merchant_id = $1 AND livemode = $2 AND session_id = $3 LIMIT 1', [
      account.merchantId,
      account.livemode,
      sessionId,
    ]);
    return result.rowCount === 1;
  }

  /** One page of the account's entries, newest first (readPage): up to limit + 1 rows. */
  async page(account: Account, limit: number, cursor: { before?: string; after?: string }, filters: EntryFilters): Promise<EntryRow[]> {
    return readPage<EntryRow>(this.pool, { table: 'balance_transactions', columns: ROW, merchantId: account.merchantId, livemode: account.livemode, filters: conditions(filters), limit, cursor });
  }

  /** Net sums whose available date is `today` or before, and after it. */
  async balance(account: Account, today: string): Promise<{ available: string; pending: string }> {
    const result = await this.pool.query<{ available: string; pending: string }>(
      `SELECT COALESCE(SUM(net) FILTER (WHERE available_on <= $3), 0)::numeric(18,3)::text AS available,
              COALESCE(SUM(net) FILTER (WHERE available_on > $3), 0)::numeric(18,3)::text AS pending
         FROM available_totals WHERE merchant_id = $1 AND livemode = $2`,
      [account.merchantId, account.livemode, today],
    );
    const row = result.rows[0];
    return { available: row?.available ?? '0.000', pending: row?.pending ?? '0.000' };
  }

  /** Every day from `from` to `to`, oldest first, with its totals (zero on a day without entries). */
  async days(account: Account, from: string, to: string): Promise<DayTotals[]> {
    const result = await this.pool.query<DayTotals>(
      `SELECT to_char(d, 'YYYY-MM-DD') AS date, COALESCE(t.payments_count, 0) AS payments_count,
              COALESCE(t.gross, 0)::numeric(18,3)::text AS gross, COALESCE(t.fees, 0)::numeric(18,3)::text AS fees,
              COALESCE(t.refunds, 0)::numeric(18,3)::text AS refunds, COALESCE(t.net, 0)::numeric(18,3)::text AS net
         FROM generate_series($3::date, $4::date, interval '1 day') AS d
         LEFT JOIN daily_totals t ON t.merchant_id = $1 AND t.livemode = $2 AND t.day = d::date
        ORDER BY d`,
      [account.merchantId, account.livemode, from, to],
    );
    return result.rows;
  }
}

/** A new entry's id. */
export function newEntryId(): string {
  return newId('txn');
}

function conditions(filters: EntryFilters): Filter[] {
  return [
    ['type = ?', filters.type],
    ['session_id = ?', filters.sessionId],
    ['created_at >= ?::timestamptz', filters.createdGte],
    ['created_at <= ?::timestamptz', filters.createdLte],
  ];
}
