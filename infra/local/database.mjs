// The database step shared by `npm run up`, `npm run migrate` and `npm run bench`: the
// database with a schema and a role per service, then the own migrations of every
// service that owns a schema (packages/system's description; each service's
// dist/src/migrate.js, as its container's migration Job runs it). Needs the build.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Creates `database` (when missing) with its schemas and roles, and runs every owner's
 * migrations; returns the URL each service connects with. Exits the process when a
 * migration fails (its own output says why; `quiet` keeps the output of those that pass).
 */
export async function migrateDatabase(adminUrl, database, { quiet = false } = {}) {
  const [{ bootstrapDatabase, serviceDatabaseUrl }, { SCHEMA_OWNERS }] = await Promise.all([import('@gateway/db'), import('@gateway/system')]);
  await bootstrapDatabase(adminUrl, database);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${database}`;
  const urlFor = (service) => serviceDatabaseUrl(dbUrl.toString(), service);
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
