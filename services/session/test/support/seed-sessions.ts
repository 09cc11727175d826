/**
 * Many sessions of one merchant, written straight into the session schema in
 * one INSERT ... SELECT over generate_series: 100,000 in a few seconds. For
 * list benchmarks (`npm run bench -- --only lists-100k`, and a later page
 * benchmark) and for the tests that check the list's plans on a realistic
 * table. Session n (1 = newest) was created n × spacing before `now`, with a
 * little jitter; statuses are spread as a shop sees them, the open ones
 * (CREATED, PENDING) only among the newest, and never due to expire while a
 * benchmark runs, so no sweep touches the seeded rows.
 */

/** What runs SQL: a pg Pool or Client. */
export interface SqlRunner {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
}

export interface SeedOptions {
  merchantId: string;
  livemode?: boolean;
  count?: number;
  /** Over how many days before `now` the sessions were created. */
  days?: number;
  now?: Date;
  /**
   * merchant_reference of session n is `${referencePrefix}${n}`; its order
   * number the prefix's first three letters, upper case, a dash and n in six
   * hex digits (order numbers are unique per merchant, both modes together).
   */
  referencePrefix?: string;
  /** The session service's schema. */
  schema?: string;
}

export interface SeededSessions {
  count: number;
  /** The merchant_reference of session n (1 = newest). */
  reference(n: number): string;
  /** When session n was created, give or take the jitter (under one spacing). */
  createdAround(n: number): Date;
  /** How many there are of each status. */
  statuses: Record<string, number>;
}

/** Seeds the sessions, then analyzes the table so the planner knows its new size. */
export async function seedSessions(db: SqlRunner, options: SeedOptions): Promise<SeededSessions> {
  const count = options.count ?? 100_000;
  const days = options.days ?? 180;
  const now = options.now ?? new Date();
  const prefix = options.referencePrefix ?? 'seed-';
  const schema = options.schema ?? 'session';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`unexpected schema ${schema}`);
  const spacingSeconds = (days * 86_400) / count;
  await db.query(
    `INSERT INTO ${schema}.sessions (id, merchant_id, livemode, merchant_reference, order_number, amount, original_amount, original_currency, rate,
       description, buyer_first_name, buyer_last_name, buyer_email, max_attempts, status, expires_at, completed_at, created_at,
       checkout_link_id, checkout_token, checkout_expires_at, merchant_name, attempts_count, last_failure_code, last_failure_message)
     SELECT 'ps_' || substr(md5($1 || ':' || $2::boolean::text || ':' || g), 1, 24), $1, $2::boolean, $3 || g, upper(substr($3, 1, 3)) || '-' || lpad(upper(to_hex(g)), 6, '0'),
       amount, amount, 'TND', 1,
       'Seeded order', 'Amina', 'Ben Salah', 'amina@example.tn', 3,
       status,
       CASE WHEN status IN ('CREATED', 'PENDING') THEN $4::timestamptz + interval '2 days' ELSE created + interval '1 day' END,
       CASE WHEN status IN ('SUCCEEDED', 'FAILED', 'CANCELED') THEN created + interval '2 minutes' WHEN status = 'EXPIRED' THEN created + interval '1 day' END,
       created,
       'cl_' || substr(md5('link:' || $1 || ':' || g), 1, 24), '', created + interval '30 minutes', 'Seeded Shop',
       CASE WHEN status IN ('SUCCEEDED', 'FAILED') THEN 1 ELSE 0 END,
       CASE WHEN status = 'FAILED' THEN 'card_declined' ELSE '' END,
       CASE WHEN status = 'FAILED' THEN 'The card was declined.' ELSE '' END
     FROM (
       SELECT g,
         round((5 + (h % 2000) + (h % 1000) / 1000.0)::numeric, 3) AS amount,
         $4::timestamptz - make_interval(secs => ((g - (h % 1000) / 1000.0) * $5::float8)::float8) AS created,
         CASE
           WHEN g <= greatest(1, $6 * 0.003) THEN CASE WHEN h % 2 = 0 THEN 'CREATED' ELSE 'PENDING' END
           WHEN h % 100 < 72 THEN 'SUCCEEDED'
           WHEN h % 100 < 84 THEN 'EXPIRED'
           WHEN h % 100 < 93 THEN 'FAILED'
           ELSE 'CANCELED'
         END AS status
       FROM (SELECT g, abs(hashtext($1 || ':' || g)::bigint) AS h FROM generate_series(1, $6::integer) g) numbered
     ) s`,
    [options.merchantId, options.livemode ?? false, prefix, now.toISOString(), spacingSeconds, count],
  );
  await db.query(`ANALYZE ${schema}.sessions`);
  const counted = await db.query(`SELECT status, count(*)::int AS n FROM ${schema}.sessions WHERE merchant_id = $1 AND livemode = $2 GROUP BY status`, [
    options.merchantId,
    options.livemode ?? false,
  ]);
  return {
    count,
    reference: (n) => `${prefix}${n}`,
    createdAround: (n) => new Date(now.getTime() - n * spacingSeconds * 1000),
    statuses: Object.fromEntries(counted.rows.map((row) => [String(row['status']), Number(row['n'])])),
  };
}

/** The id of the session at `position` (0 = newest) of the merchant's list in one mode: a cursor that deep. */
export async function sessionAt(db: SqlRunner, merchantId: string, livemode: boolean, position: number, schema = 'session'): Promise<string> {
  const result = await db.query(`SELECT id FROM ${schema}.sessions WHERE merchant_id = $1 AND livemode = $2 ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT 1`, [
    merchantId,
    livemode,
    position,
  ]);
  const id = result.rows[0]?.['id'];
  if (typeof id !== 'string') throw new Error(`no session at position ${position}`);
  return id;
}
