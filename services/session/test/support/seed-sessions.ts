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
  /**
   * Why the FAILED sessions failed, spread over them by hash (a code listed
   * twice fails twice as often); card_declined alone when not given.
   */
  failures?: readonly SeedFailure[];
  /**
   * With a pricing, each SUCCEEDED and FAILED session gets its one attempt (a
   * success with its fee and net at this pricing, a failure with the session's
   * failure), counted in attempt_days as resolving an attempt counts it: what
   * a session's page, its payment and the Home page's stats read.
   */
  attemptPricing?: { percent: string; fixed: string };
}

/** A failure of a seeded FAILED session: its last_failure_code and last_failure_message. */
interface SeedFailure {
  code: string;
  message: string;
}

const CARD_DECLINED: readonly SeedFailure[] = [{ code: 'card_declined', message: 'The card was declined.' }];

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
  const failures = options.failures ?? CARD_DECLINED;
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
       CASE WHEN status = 'FAILED' THEN ($7::text[])[(1 + (h / 100) % cardinality($7::text[]))::integer] ELSE '' END,
       CASE WHEN status = 'FAILED' THEN ($8::text[])[(1 + (h / 100) % cardinality($8::text[]))::integer] ELSE '' END
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
         END AS status,
         h
       FROM (SELECT g, abs(hashtext($1 || ':' || g)::bigint) AS h FROM generate_series(1, $6::integer) g) numbered
     ) s`,
    [options.merchantId, options.livemode ?? false, prefix, now.toISOString(), spacingSeconds, count, failures.map((f) => f.code), failures.map((f) => f.message)],
  );
  if (options.attemptPricing) await seedAttempts(db, schema, options.merchantId, options.livemode ?? false, prefix, options.attemptPricing);
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

/**
 * One attempt per seeded SUCCEEDED and FAILED session (those of `prefix`),
 * made a minute after the session and finished with it; the fee as
 * computeFee takes it (percent of the amount plus fixed, half-up to millimes,
 * never above the amount). Then attempt_days counts them by Tunis day, outcome,
 * failure code and slot, as AttemptRepository.resolve does one by one.
 */
async function seedAttempts(db: SqlRunner, schema: string, merchantId: string, livemode: boolean, prefix: string, pricing: { percent: string; fixed: string }): Promise<void> {
  await db.query(
    `INSERT INTO ${schema}.attempts (id, session_id, attempt_number, status, card_brand, card_last_four, card_country, failure_code, failure_message,
       fee_amount, net_amount, created_at, completed_at)
     SELECT 'pa_' || substr(md5('attempt:' || id), 1, 24), id, 1, status,
       CASE WHEN hashtext(id) & 3 = 0 THEN 'mastercard' ELSE 'visa' END, CASE WHEN hashtext(id) & 3 = 0 THEN '4444' ELSE '4242' END, 'TN',
       last_failure_code, last_failure_message, fee, amount - fee, created_at + interval '1 minute', completed_at
     FROM (
       SELECT id, status, amount, created_at, completed_at, last_failure_code, last_failure_message,
         CASE WHEN status = 'SUCCEEDED' THEN least(amount, round(amount * $4::numeric / 100 + $5::numeric, 3)) END AS fee
       FROM ${schema}.sessions
       WHERE merchant_id = $1 AND livemode = $2 AND status IN ('SUCCEEDED', 'FAILED') AND left(merchant_reference, length($3)) = $3
     ) s`,
    [merchantId, livemode, prefix, pricing.percent, pricing.fixed],
  );
  await db.query(
    `INSERT INTO ${schema}.attempt_days AS d (merchant_id, livemode, day, status, failure_code, slot, attempts)
     SELECT $1, $2, (a.created_at AT TIME ZONE 'Africa/Tunis')::date, a.status, CASE WHEN a.status = 'FAILED' THEN a.failure_code ELSE '' END, hashtext(a.id) & 7, count(*)
     FROM ${schema}.attempts a JOIN ${schema}.sessions s ON s.id = a.session_id
     WHERE s.merchant_id = $1 AND s.livemode = $2 AND left(s.merchant_reference, length($3)) = $3
     GROUP BY 3, 4, 5, 6
     ON CONFLICT (merchant_id, livemode, day, status, failure_code, slot) DO UPDATE SET attempts = d.attempts + EXCLUDED.attempts`,
    [merchantId, livemode, prefix],
  );
  await db.query(`ANALYZE ${schema}.attempts`);
  await db.query(`ANALYZE ${schema}.attempt_days`);
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
