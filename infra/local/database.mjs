// The database step shared by `npm run up`, `npm run migrate` and `npm run bench`: the
// database with a schema and a role per service, then the own migrations of every
// service that owns a schema (packages/system's description; each service's
// dist/src/migrate.js, as its container's migration Job runs it). Needs the build.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Creates `database` (when missing) with its schemas and roles, each role given its
 * password from `passwords` (by service) when there is one, and runs every owner's
 * migrations; returns the URL each service connects with, its password in it. Exits
 * the process when a migration fails (its own output says why; `quiet` keeps the
 * output of those that pass).
 */
export async function migrateDatabase(adminUrl, database, { quiet = false, passwords = {} } = {}) {
  const [{ bootstrapDatabase, serviceDatabaseUrl }, { SCHEMA_OWNERS }] = await Promise.all([import('@gateway/db'), import('@gateway/system')]);
  await bootstrapDatabase(adminUrl, database, passwords);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${database}`;
  const urlFor = (service) => serviceDatabaseUrl(dbUrl.toString(), service, passwords[service]);
  for (const name of SCHEMA_OWNERS) {
    const result = spawnSync(process.execPath, [path.join(root, 'services', name, 'dist', 'src', 'migrate.js')], {
      cwd: root,
      stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
      env: { ...process.env, DATABASE_URL: urlFor(name) },
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  return urlFor;
}

/**
 * The password each service's database role logs in with (D29), by service: made
 * once for this machine and kept in `local`/database-passwords.json (0600), so that
 * the roles `make up` sets them on keep them from one run to the next. A service
 * added since gets one now. The roles are the cluster's: two checkouts on one
 * PostgreSQL share them, and the last `make up` sets their passwords.
 */
export async function keptDatabasePasswords(local) {
  const { SCHEMA_OWNERS, writePrivateFile } = await import('@gateway/system');
  const file = path.join(local, 'database-passwords.json');
  const kept = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  for (const service of SCHEMA_OWNERS) if (typeof kept[service] !== 'string') kept[service] = randomBytes(18).toString('base64url');
  writePrivateFile(file, JSON.stringify(kept, null, 2));
  return kept;
}
