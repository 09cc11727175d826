/**
 * A fresh database per test system, bootstrapped like production (a schema
 * and a role per service) and migrated by each service's own migrate entry.
 * Tests isolate by data and by database, never by wiping shared state.
 *
 * Migrating takes a process per service; so the first database of a set of
 * services in a test process is made that way as a template, and every
 * database after it is a copy of that template (CREATE DATABASE ... TEMPLATE,
 * a file copy), with its connect privileges granted again.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { bootstrapDatabase, grantConnect, serviceDatabaseUrl, type SchemaOwner } from '@gateway/db';
import { testEnvironment } from './environment.js';

const run = promisify(execFile);

/** The repository root (packages/testkit/dist/src → ../../../..). */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** A short id for this test process, carried in database names and broker prefixes. */
export const runId = `${process.pid.toString(36)}_${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
let counter = 0;

/** A unique name for something of this run: `<kind>_<run>_<n>`. */
export function uniqueName(kind: string): string {
  counter += 1;
  return `${kind}_${runId}_${counter}`;
}

export interface TestDatabase {
  readonly name: string;
  /** Superuser URL on this database, for assertions on stored state. */
  readonly adminUrl: string;
  /** The URL a service connects with (its own role). */
  urlFor(service: SchemaOwner): string;
  /** Runs SQL as superuser on this database. */
  query<R extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

/** The migrated template of each set of services, made once per test process. */
const templates = new Map<string, Promise<string>>();

/** Bootstraps and migrates a database for `services` (each by its own migrate entry); its name. */
async function migratedDatabase(services: readonly SchemaOwner[]): Promise<string> {
  const env = await testEnvironment();
  const name = uniqueName('gwt');
  await bootstrapDatabase(env.adminUrl, name);
  const adminUrl = withDatabase(env.adminUrl, name);
  await Promise.all(
    services.map((service) =>
      run(process.execPath, [`${repoRoot}services/${service}/dist/src/migrate.js`], { env: { ...process.env, DATABASE_URL: serviceDatabaseUrl(adminUrl, service) } }),
    ),
  );
  return name;
}

/** Creates a new database for `services`, bootstrapped and migrated: a copy of this process's template for them. */
export async function createTestDatabase(services: readonly SchemaOwner[]): Promise<TestDatabase> {
  const env = await testEnvironment();
  const key = [...services].sort().join(',');
  let template = templates.get(key);
  if (!template) {
    template = migratedDatabase(services);
    templates.set(key, template);
  }
  const name = uniqueName('gwt');
  const admin = new pg.Client({ connectionString: env.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${await template}"`);
    await grantConnect(admin, name);
  } finally {
    await admin.end();
  }
  const adminUrl = withDatabase(env.adminUrl, name);
  const urlFor = (service: SchemaOwner) => serviceDatabaseUrl(adminUrl, service);
  const pool = new pg.Pool({ connectionString: adminUrl, max: 3 });
  // Dropping the database (WITH FORCE) ends every connection to it; an idle one must not crash the test run.
  pool.on('error', () => undefined);
  return {
    name,
    adminUrl,
    urlFor,
    async query(sql, params) {
      return (await pool.query(sql, params)).rows;
    },
    async drop() {
      await pool.end();
      const admin = new pg.Client({ connectionString: env.adminUrl });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
