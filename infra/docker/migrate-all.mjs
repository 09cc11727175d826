#!/usr/bin/env node
// The one-shot database job of docker-compose.yml (and of k8s' db-bootstrap Job):
//   1. bootstrapDatabase: the database, one role and one schema per service (@gateway/db);
//   2. unless --bootstrap-only: every schema-owning service's own migration entry,
//      `node services/<name>/dist/src/migrate.js`, connected as that service's role.
//
// Environment:
//   DATABASE_ADMIN_URL   a superuser (or CREATEROLE + CREATEDB) URL, e.g. postgres://postgres@postgres:5432/postgres
//   DATABASE_NAME        the application database (default gateway)
//   DB_PASSWORD_<SCHEMA> optional password given to role svc_<schema>, e.g. DB_PASSWORD_API_GATEWAY
//                        (and put into the URL each migration connects with)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrapDatabase, serviceDatabaseUrl, serviceSchemas } from '@gateway/db';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const adminUrl = process.env.DATABASE_ADMIN_URL;
if (!adminUrl) {
  console.error('migrate-all: DATABASE_ADMIN_URL is required');
  process.exit(2);
}
const database = process.env.DATABASE_NAME || 'gateway';
const bootstrapOnly = process.argv.includes('--bootstrap-only');

/**
 * The services that have a migration entry: the schema owners of packages/system's
 * description, the only ones the migrate image holds (checkout owns a schema but has no tables yet).
 */
const MIGRATED = readdirSync(path.join(root, 'services')).filter((service) => existsSync(path.join(root, 'services', service, 'dist', 'src', 'migrate.js')));

const passwords = {};
for (const [service, schema] of Object.entries(serviceSchemas)) {
  const password = process.env[`DB_PASSWORD_${schema.toUpperCase()}`];
  if (password) passwords[service] = password;
}

await bootstrapDatabase(adminUrl, database, passwords);
console.log(JSON.stringify({ bootstrap: database, schemas: Object.values(serviceSchemas) }));
if (bootstrapOnly) process.exit(0);

const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${database}`;
for (const service of MIGRATED) {
  const result = spawnSync(process.execPath, [path.join(root, 'services', service, 'dist', 'src', 'migrate.js')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: serviceDatabaseUrl(dbUrl.toString(), service, passwords[service]) },
  });
  if (result.status !== 0) {
    console.error(`migrate-all: ${service}'s migrations failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}
