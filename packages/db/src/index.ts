/**
 * PostgreSQL access shared by every service: a pool bound to the service's own
 * schema, transactions, and migrations from plain SQL files; beside them,
 * claims of due rows and the sweep loop (claims.ts), group commits and list
 * pages.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { tracingOn } from '@gateway/observability';
import { traceQueries } from './query-tracing.js';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

export interface PoolOptions {
  url: string;
  /** The service's schema; unqualified table names resolve to it. */
  schema: string;
  max?: number;
  applicationName?: string;
}

/** A pool whose connections use `schema` as their search path. */
export function createPool({ url, schema, max = 10, applicationName }: PoolOptions): pg.Pool {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max,
    options: `-c search_path=${schema}`,
    application_name: applicationName ?? schema,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Decided once: with tracing off a query costs nothing more.
  if (tracingOn()) traceQueries(pool, databaseName(url) ?? schema);
  return pool;
}

/** The database a connection URL names, for spans; undefined when it names none or is no URL. */
function databaseName(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).pathname.slice(1)) || undefined;
  } catch {
    return undefined;
  }
}

/** Runs `work` in one transaction; commits on success, rolls back on any error. */
export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withClient(pool, async (client) => {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  });
}

const ignore = () => undefined;

/**
 * Runs `work` with a client checked out of the pool. A checked-out client
 * between queries (awaiting the broker's confirms, say) has no listener of
 * its own, so a connection the server ends (a restart, an administrator)
 * would be an uncaught error that ends the process; here it is ignored, the
 * next query on it fails instead, and the broken client is destroyed, not
 * returned to the pool.
 */
async function withClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  client.on('error', ignore);
  let failure: Error | undefined;
  try {
    return await work(client);
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
    throw err;
  } finally {
    client.removeListener('error', ignore);
    client.release(failure);
  }
}

/** True when the database answers, for readiness probes. */
export async function ping(pool: pg.Pool, timeoutMs = 1_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      pool.query('SELECT 1').then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export interface MigrationSource {
  /** Namespace of the versions recorded, so shared and own migrations never collide. */
  readonly name: string;
  readonly dir: string;
}

/**
 * Applies every `NNN_description.sql` of each source not yet recorded in
 * `<schema>.schema_migrations`, each in its own transaction, under an advisory
 * lock so that concurrent migrators (several pods starting) apply each once.
 * Returns the versions applied.
 */
export async function migrate(url: string, schema: string, sources: readonly MigrationSource[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`migrate:${schema}`]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await client.query<{ version: string }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
    for (const source of sources) {
      const files = (await readdir(source.dir)).filter((f) => /^\d+_[\w-]+\.sql$/.test(f)).sort();
      for (const file of files) {
        const version = `${source.name}/${file}`;
        if (done.has(version)) continue;
        const sql = await readFile(join(source.dir, file), 'utf8');
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${version} failed: ${(err as Error).message}`, { cause: err });
        }
        applied.push(version);
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]).catch(() => undefined);
    await client.end();
  }
  return applied;
}

export * from './bootstrap.js';
export * from './claims.js';
export * from './group-commit.js';
export * from './list-pages.js';

/** Entry of a migration job: applies `sources` to `schema` at DATABASE_URL and prints what it applied. */
export async function migrateFromEnv(service: string, schema: string, sources: readonly MigrationSource[]): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) {
    console.error('DATABASE_URL is required');
    process.exit(2);
  }
  const applied = await migrate(url, schema, sources);
  console.log(JSON.stringify({ service, schema, applied }));
}

/** Node's codes of a connection that could not be made or was lost. */
const LOST_CONNECTION = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * SQLSTATEs that say the work itself is wrong, so that no retry will change
 * the answer: by class, a cardinality violation (21), a data exception (22),
 * a constraint the work breaks (23), a feature not supported (0A), a program
 * limit (54), an exception raised on purpose (P0), an internal error (XX);
 * and, of class 42, a syntax error or a type mismatch. The other refusals of
 * class 42 (a missing privilege, relation, column or function) are what a
 * deploy whose migration has not run yet answers, and pass.
 */
const PERMANENT_CLASSES = ['21', '22', '23', '0A', '54', 'P0', 'XX'];
const PERMANENT_CODES = new Set(['42601', '42804', '42846', '08P01']);

/**
 * Whether `err` says the database (or another server) cannot do the work now
 * but may later, rather than that the work itself is wrong: no connection
 * (refused, reset, timed out, ended), or a refusal PostgreSQL gives for its
 * own state — shutting down or starting (57P0x), read-only (25006: a primary
 * just demoted), too many connections, a serialization failure or deadlock,
 * a missing privilege or relation (a deploy whose migration has not run yet).
 * The refusals above are the work's own fault, and so is any error that is
 * not the database's (Node's own codes, E..., are not SQLSTATEs).
 */
export function transientFailure(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (LOST_CONNECTION.has(code)) return true;
    // A SQLSTATE: five characters, digits and upper-case letters; no class begins with E.
    if (/^[0-9A-DF-Z][0-9A-Z]{4}$/.test(code)) return !PERMANENT_CODES.has(code) && !PERMANENT_CLASSES.some((cls) => code.startsWith(cls));
  }
  // pg's own words for a connection it lost or could not get from the pool.
  return typeof message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(message);
}
