// The database step shared by `npm run up` and `npm run migrate`: the database with a
// schema and a role per service, then every service's own migrations (each service's
// dist/src/migrate.js, as its container's migration Job runs it).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The services that own a schema, in the order their migrations run. */
export const SCHEMA_OWNERS = ['session', 'acquirer-adapter', 'webhook-dispatcher', 'refund', 'dashboard', 'api-gateway'];

/**
 * Creates `database` (when missing) with its schemas and roles, and runs every owner's
 * migrations; returns the URL each service connects with. Exits the process when a
 * migration fails (its own output says why).
 */
export async function migrateDatabase(adminUrl, database) {
  const { bootstrapDatabase, serviceDatabaseUrl } = await import('@gateway/db');
  await bootstrapDatabase(adminUrl, database);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${database}`;
  const urlFor = (service) => serviceDatabaseUrl(dbUrl.toString(), service);
  for (const name of SCHEMA_OWNERS) {
    const result = spawnSync(process.execPath, [path.join(root, 'services', name, 'dist', 'src', 'migrate.js')], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: urlFor(name) },
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  return urlFor;
}
