#!/usr/bin/env node
// `npm run migrate`: the database `gateway` (DATABASE_NAME) on DATABASE_ADMIN_URL with a
// schema and a role per service, and every service's migrations, without starting
// anything. Needs the build (`npm run build`); `npm run up` does this step itself.
// The roles log in with the passwords `make up` keeps (.local/database-passwords.json,
// or that file in GATEWAY_LOCAL_DIR), made there when missing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { keptDatabasePasswords, migrateDatabase } from './database.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { SCHEMA_OWNERS } = await import('@gateway/system').catch(() => ({ SCHEMA_OWNERS: undefined }));
if (!SCHEMA_OWNERS) {
  console.error('packages/system is not built; run npm run build first');
  process.exit(1);
}
const unbuilt = SCHEMA_OWNERS.filter((name) => !existsSync(path.join(root, 'services', name, 'dist', 'src', 'migrate.js')));
if (unbuilt.length > 0) {
  console.error(`not built: ${unbuilt.join(', ')}; run npm run build first`);
  process.exit(1);
}
const adminUrl = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = process.env.DATABASE_NAME ?? 'gateway';
const local = process.env.GATEWAY_LOCAL_DIR ? path.resolve(process.env.GATEWAY_LOCAL_DIR) : path.join(root, '.local');
const { privateFolder } = await import('@gateway/system');
privateFolder(local);
await migrateDatabase(adminUrl, database, { passwords: await keptDatabasePasswords(local) });
console.log(`database ${database}: every schema migrated`);
