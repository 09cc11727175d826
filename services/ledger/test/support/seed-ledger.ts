/**
 * Many balance transactions of one account, written straight into the ledger
 * schema in one statement, with the daily and available totals they add to:
 * a year of a busy merchant in seconds, for the report benchmarks (`npm run
 * bench -- --only daily-report-year,home-100k`). The totals move as
 * LedgerRepository.record moves them (each new entry added to its Africa/Tunis
 * day and to its available date, an entry already there adding nothing), so
 * the report still equals the entries.
 */

/** What runs SQL: a pg Pool or Client. */
export interface SqlRunner {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
}

/** The payments to write, one element per payment in each array (TND amounts as decimal strings). */
interface SeedPayments {
  sessionIds: readonly string[];
  amounts: readonly string[];
  fees: readonly string[];
  /** When each was paid: its entry's created_at, whose Tunis date is its day. */
  paidAt: readonly Date[];
}

export interface SeedLedgerOptions {
  merchantId: string;
  livemode?: boolean;
  payments: SeedPayments;
  /** Days from an entry's day to its available date (the ledger's SETTLEMENT_DELAY_DAYS). */
  settlementDelayDays?: number;
  /** The ledger service's schema. */
  schema?: string;
}

/** Writes a payment entry per payment (its id derived from the session), adds them to the totals, then analyzes the tables; answers how many were new. */
export async function seedLedger(db: SqlRunner, options: SeedLedgerOptions): Promise<number> {
  const schema = options.schema ?? 'ledger';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`unexpected schema ${schema}`);
  const { sessionIds, amounts, fees, paidAt } = options.payments;
  if (amounts.length !== sessionIds.length || fees.length !== sessionIds.length || paidAt.length !== sessionIds.length) {
    throw new Error('every payment needs its session, amount, fee and time');
  }
  const result = await db.query(
    `WITH written AS (
       INSERT INTO ${schema}.balance_transactions (id, merchant_id, livemode, type, session_id, source, amount, fee, net, created_at, day, available_on)
       SELECT 'txn_' || substr(md5('txn:' || p.session_id), 1, 24), $1, $2, 'payment', p.session_id, p.session_id, p.amount, p.fee, p.amount - p.fee,
         p.paid_at, (p.paid_at AT TIME ZONE 'Africa/Tunis')::date, (p.paid_at AT TIME ZONE 'Africa/Tunis')::date + $7::integer
       FROM unnest($3::text[], $4::numeric[], $5::numeric[], $6::timestamptz[]) AS p (session_id, amount, fee, paid_at)
       ON CONFLICT (type, source) DO NOTHING
       RETURNING type, amount, fee, net, day, available_on
     ), days AS (
       INSERT INTO ${schema}.daily_totals AS t (merchant_id, livemode, day, payments_count, gross, fees, refunds, net)
       SELECT $1, $2, day, count(*) FILTER (WHERE type = 'payment'), COALESCE(sum(amount) FILTER (WHERE type = 'payment'), 0), sum(fee),
         COALESCE(sum(amount) FILTER (WHERE type <> 'payment'), 0), sum(net)
       FROM written GROUP BY day
       ON CONFLICT (merchant_id, livemode, day) DO UPDATE SET
         payments_count = t.payments_count + EXCLUDED.payments_count, gross = t.gross + EXCLUDED.gross,
         fees = t.fees + EXCLUDED.fees, refunds = t.refunds + EXCLUDED.refunds, net = t.net + EXCLUDED.net
     ), available AS (
       INSERT INTO ${schema}.available_totals AS t (merchant_id, livemode, available_on, net)
       SELECT $1, $2, available_on, sum(net) FROM written GROUP BY available_on
       ON CONFLICT (merchant_id, livemode, available_on) DO UPDATE SET net = t.net + EXCLUDED.net
     )
     SELECT count(*)::int AS written FROM written`,
    [options.merchantId, options.livemode ?? false, sessionIds, amounts, fees, paidAt, options.settlementDelayDays ?? 2],
  );
  for (const table of ['balance_transactions', 'daily_totals', 'available_totals']) await db.query(`ANALYZE ${schema}.${table}`);
  return Number(result.rows[0]?.['written'] ?? 0);
}
