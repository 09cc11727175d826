/**
 * A fresh database per test system, bootstrapped like production (a schema
 * and a role per service) and migrated by each service's own migrate entry.
 * Tests isolate by data and by database, never by wiping shared state.
 *
 * Migrating every schema takes seconds; so the first database of a test
 * process is made that way, as a template, and every database after it is a
 * copy of that template (CREATE DATABASE ... TEMPLATE), with its connect
 * privileges granted again. The template migrates every service's schema (by
 * the migrations each service's package exports, as its migrate entry runs
 * them): a test system using fewer services leaves the others' tables empty.
 */
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { bootstrapDatabase, grantConnect, migrate, serviceDatabaseUrl, type MigrationSource, type SchemaOwner } from '@gateway/db';
import { SCHEMA_OWNERS } from '@gateway/system';
import { testEnvironment } from './environment.js';

/** The repository root (packages/testkit/dist/src → ../../../..). */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** A short id for this test process, carried in database names and broker prefixes. */
const runId = `${process.pid.toString(36)}_${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
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

/** This test process's migrated template, made once. */
let template: Promise<string> | undefined;

/** Templates are named `gwt_template_<unix seconds>_<run>`: one outlives its test process (mocha --exit). */
const TEMPLATE_PREFIX = 'gwt_template_';
/** A template older than this belongs to no test run still going: dropped by the next one. */
const TEMPLATE_LIFETIME_SECONDS = 3 * 3600;

/** Bootstraps a database and applies every service's migrations to its schema; its name. */
async function migratedDatabase(): Promise<string> {
  const env = await testEnvironment();
  const now = Math.floor(Date.now() / 1000);
  await dropTemplatesBefore(env.adminUrl, now - TEMPLATE_LIFETIME_SECONDS);
  const name = uniqueName(`${TEMPLATE_PREFIX}${now}`);
  await bootstrapDatabase(env.adminUrl, name);
  const adminUrl = withDatabase(env.adminUrl, name);
  for (const service of SCHEMA_OWNERS) {
    // By package name, at run time: the services' tests depend on the testkit, so it cannot depend on them.
    const { SCHEMA, migrations } = (await import(`@gateway/${service}`)) as { SCHEMA: string; migrations: readonly MigrationSource[] };
    await migrate(serviceDatabaseUrl(adminUrl, service), SCHEMA, migrations);
  }
  return name;
}

/**
 * Creates a new database, bootstrapped and migrated: a copy of this process's
 * template. `_services` names the schema owners the caller will start; every
 * schema is there whatever it says.
 */
export async function createTestDatabase(_services: readonly SchemaOwner[]): Promise<TestDatabase> {
  const env = await testEnvironment();
  template ??= migratedDatabase();
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

/** Drops the templates earlier test runs left behind, made before `before` (unix seconds). */
async function dropTemplatesBefore(adminUrl: string, before: number): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [TEMPLATE_PREFIX]);
    for (const { datname } of rows) {
      const made = Number(datname.slice(TEMPLATE_PREFIX.length).split('_')[0]);
      if (Number.isInteger(made) && made < before) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
