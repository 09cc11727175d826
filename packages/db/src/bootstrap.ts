/**
 * Per-service schemas and roles: each service owns one schema and connects as a
 * role that can use no other. Run with a superuser (or a role with CREATEROLE
 * and CREATEDB) before migrations.
 */
import { SCHEMA_OWNERS, schemaOf, type SchemaOwner } from '@gateway/contracts';
import pg from 'pg';

export type { SchemaOwner } from '@gateway/contracts';

/** The schema each service owns, by service (the list of services, @gateway/contracts). */
export const serviceSchemas: Readonly<Record<SchemaOwner, string>> = Object.fromEntries(SCHEMA_OWNERS.map((service) => [service, schemaOf(service)])) as Record<SchemaOwner, string>;

/** The login role of a service: `svc_<schema>`. */
function roleOf(service: SchemaOwner): string {
  return `svc_${schemaOf(service)}`;
}

/** `url` with its user replaced by the service's role (and its password, when given). */
export function serviceDatabaseUrl(url: string, service: SchemaOwner, password?: string): string {
  const parsed = new URL(url);
  parsed.username = roleOf(service);
  parsed.password = password ?? '';
  return parsed.toString();
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected identifier ${name}`);
  return `"${name}"`;
}

/**
 * Creates `database` when missing, then for every service its role (LOGIN, no
 * other privilege) and its schema owned by that role. PUBLIC loses every right
 * on the database's public schema, so no role can share tables by accident.
 */
export async function bootstrapDatabase(adminUrl: string, database: string, passwords: Partial<Record<SchemaOwner, string>> = {}): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${quoteIdent(database)}`);
    for (const service of SCHEMA_OWNERS) {
      const role = roleOf(service);
      // Roles are cluster-wide; concurrent bootstraps may race to create one.
      await admin
        .query(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${role}') THEN CREATE ROLE ${quoteIdent(role)} LOGIN; END IF; END $$`)
        .catch((err: { code?: string }) => {
          if (err.code !== '23505' && err.code !== '42710') throw err;
        });
      const password = passwords[service];
      if (password !== undefined) await admin.query(`ALTER ROLE ${quoteIdent(role)} PASSWORD '${password.replaceAll("'", "''")}'`);
    }
  } finally {
    await admin.end();
  }

  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${database}`;
  const db = new pg.Client({ connectionString: dbUrl.toString() });
  await db.connect();
  try {
    await db.query('SELECT pg_advisory_lock(hashtext($1))', ['bootstrap']);
    await grantConnect(db, database);
    await db.query('REVOKE ALL ON SCHEMA public FROM PUBLIC');
    for (const service of SCHEMA_OWNERS) {
      const schema = quoteIdent(schemaOf(service));
      await db.query(`CREATE SCHEMA IF NOT EXISTS ${schema} AUTHORIZATION ${quoteIdent(roleOf(service))}`);
      await db.query(`REVOKE ALL ON SCHEMA ${schema} FROM PUBLIC`);
    }
  } finally {
    await db.query('SELECT pg_advisory_unlock(hashtext($1))', ['bootstrap']).catch(() => undefined);
    await db.end();
  }
}

/**
 * Who may connect to `database`: each service's role, and nobody else. A
 * database's own privileges are not part of its contents, so a copy of a
 * bootstrapped database (CREATE DATABASE ... TEMPLATE) needs them again.
 */
export async function grantConnect(client: Pick<pg.Client, 'query'>, database: string): Promise<void> {
  await client.query(`REVOKE ALL ON DATABASE ${quoteIdent(database)} FROM PUBLIC`);
  for (const service of SCHEMA_OWNERS) await client.query(`GRANT CONNECT ON DATABASE ${quoteIdent(database)} TO ${quoteIdent(roleOf(service))}`);
}
