#!/usr/bin/env node
// TypeORM versus hand-written SQL on the hottest write: creating a payment session.
//
// The stack lists TypeORM, but the services use `pg` with hand-written SQL. This
// script measures, on this machine, what that choice buys for one create, which
// writes three rows atomically: the session, its first checkout link and the
// `session.created` outbox row.
//
//   A  pg.Pool (max 10), ONE named prepared statement with data-modifying CTEs:
//      the SQL shape of SessionRepository.insertNew (services/session).
//   B  TypeORM 1.x DataSource (pool max 10), EntitySchema entities,
//      dataSource.transaction() with three manager.insert() calls.
//   C  as B, with manager.getRepository(X).save(entity) instead of insert.
//
// Each variant: tables truncated (and a CHECKPOINT, so every run starts from the
// same WAL state), a fresh pool, 2 s warm-up, then 15 s with 32 concurrent async
// workers in this process, each awaiting its own creates in a loop. Reported:
// creates/s, p50/p99 latency, CPU seconds per 1000 creates of this Node process
// (process.cpuUsage) and of all PostgreSQL processes (utime+stime from
// /proc/<pid>/stat of every process whose cmdline starts with "postgres:",
// background workers included), and the SQL statements one create sends,
// counted on pg.Client#query. Rows are built outside the timed call but inside
// the CPU window (same cost for every variant). The order A B C runs twice.
//
// The database `orm_bench` (tables from the services' migrations, in schema
// public) is created at start and dropped at the end, also on failure or Ctrl-C.
//
//   node bench/orm/orm-vs-sql.mjs                    (2 s warm-up, 15 s per run)
//   node bench/orm/orm-vs-sql.mjs --duration 3 --warmup 1   (a quick check)
//   DATABASE_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres (default)
import { Buffer } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import pg from 'pg';
import { DataSource, EntitySchema } from 'typeorm';
// Built code of the services (npm run build): variant A is the session service's own repository.
import { newId, orderNumberSuffix, randomString } from '@gateway/contracts';
import { SessionRepository } from '../../services/session/dist/src/db/session.repository.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const adminUrl = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'orm_bench';
const benchUrl = new URL(adminUrl);
benchUrl.pathname = `/${DATABASE}`;

const { values: args } = parseArgs({ options: { warmup: { type: 'string', default: '2' }, duration: { type: 'string', default: '15' } } });
const WARMUP_S = Number(args.warmup);
const DURATION_S = Number(args.duration);
const CONCURRENCY = 32;
const POOL_MAX = 10;
const ROUNDS = 2;
const CLOCK_TICKS = 100; // USER_HZ: /proc/<pid>/stat utime and stime are in 1/100 s

// ------------------------------------------------------------------ schema

/** The statements of a migration, comments removed (they contain semicolons). */
function statements(file) {
  const text = readFileSync(path.join(root, file), 'utf8').replace(/--[^\n]*/g, '');
  return text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Exactly the services' DDL for the three tables (and their indexes), nothing else from those files. */
function schemaDdl() {
  const wanted = (s) => /^CREATE TABLE (sessions|checkout_links|outbox) /.test(s) || /^CREATE INDEX \w+ ON (sessions|checkout_links) /.test(s);
  const ddl = [...statements('services/session/migrations/001_sessions.sql'), ...statements('packages/messaging/migrations/001_outbox_inbox.sql')].filter(wanted);
  if (ddl.filter((s) => s.startsWith('CREATE TABLE')).length !== 3) throw new Error('could not find the three CREATE TABLE statements in the migrations');
  return ddl;
}

// ------------------------------------------------------------------ rows

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const MERCHANTS = Array.from({ length: 50 }, (_, i) => ({ id: newId('mer'), prefix: `M${i.toString(36).toUpperCase()}` }));

/** One create: the session row, its first link and the outbox row, as the session service builds them. */
function makeCreate() {
  const merchant = MERCHANTS[Math.floor(Math.random() * MERCHANTS.length)];
  const now = new Date();
  const expiresAt = new Date(now.getTime() + 30 * 60_000);
  const linkExpires = new Date(Math.floor((now.getTime() + 15 * 60_000) / 1000) * 1000);
  const id = newId('ps');
  const session = {
    id,
    merchant_id: merchant.id,
    livemode: false,
    merchant_reference: `order-${randomString(BASE62, 16)}`,
    order_number: `${merchant.prefix}-${orderNumberSuffix()}`,
    order_id: `WEB-${Math.floor(Math.random() * 1e9)}`,
    amount: '125.500',
    original_amount: '125.500',
    original_currency: 'TND',
    rate: '1.000000',
    description: 'Commande boutique en ligne : 2 articles, livraison Tunis',
    items: [
      { name: 'Casque audio sans fil', quantity: 1, unit_price: '99.000' },
      { name: 'Câble USB-C 2 m', quantity: 2, unit_price: '13.250' },
    ],
    metadata: { cart_id: randomString(BASE62, 12), channel: 'web', customer_id: `cus-${Math.floor(Math.random() * 1e6)}` },
    buyer_first_name: 'Amira',
    buyer_last_name: 'Ben Salah',
    buyer_email: 'amira.bensalah@example.tn',
    buyer_phone: '+21698123456',
    return_url: 'https://shop.example.tn/checkout/return',
    cancel_url: 'https://shop.example.tn/checkout/cancel',
    webhook_url: 'https://shop.example.tn/hooks/payments',
    max_attempts: 5,
    status: 'CREATED',
    expires_at: expiresAt,
    completed_at: null,
    created_at: now,
    checkout_link_id: newId('cl'),
    // The size of a compact EdDSA JWS over {sid, lid, exp}.
    checkout_token: `eyJhbGciOiJFZERTQSJ9.${randomString(BASE64URL, 110)}.${randomString(BASE64URL, 86)}`,
    checkout_expires_at: linkExpires,
    amount_refunded: '0.000',
  };
  const link = { id: session.checkout_link_id, session_id: id, expires_at: linkExpires, created_at: now };
  const envelope = {
    id: newId('evt'),
    type: 'session.created',
    version: 1,
    occurred_at: now.toISOString(),
    correlation_id: `req_${randomString(BASE62, 24)}`,
    data: {
      merchant_id: session.merchant_id,
      webhook_url: session.webhook_url,
      session: {
        id,
        order_number: session.order_number,
        merchant_reference: session.merchant_reference,
        order_id: session.order_id,
        amount: session.amount,
        currency: 'TND',
        description: session.description,
        status: session.status,
        livemode: session.livemode,
        buyer: { first_name: session.buyer_first_name, last_name: session.buyer_last_name, email: session.buyer_email, phone: session.buyer_phone },
        items: session.items,
        metadata: session.metadata,
        original: { amount: session.original_amount, currency: session.original_currency, rate: session.rate },
        expires_at: expiresAt.toISOString(),
        checkout_url: `https://pay.example.tn/c/${session.checkout_token}`,
      },
    },
  };
  const outbox = { message_id: envelope.id, routing_key: envelope.type, body: JSON.stringify(envelope) };
  return { session, link, outbox, envelope };
}

// ------------------------------------------------------------------ variant A: one statement

function variantSql() {
  let pool;
  let sessions;
  return {
    key: 'A',
    label: 'pg, 1 CTE statement',
    async open() {
      pool = new pg.Pool({ connectionString: benchUrl.href, max: POOL_MAX });
      sessions = new SessionRepository(pool);
    },
    // The session service's own insert: one named statement with data-modifying CTEs.
    // False (nothing written) when the reference or order number was taken.
    create: ({ session, envelope }) => sessions.insertNew(session, envelope),
    async close() {
      await pool?.end();
      pool = undefined;
    },
  };
}

// ------------------------------------------------------------------ variants B and C: TypeORM

// Property names are the column names, so the same row objects feed every variant.
const text = (extra = {}) => ({ type: 'text', ...extra });
const Session = new EntitySchema({
  name: 'Session',
  tableName: 'sessions',
  columns: {
    id: text({ primary: true }),
    merchant_id: text(),
    livemode: { type: 'boolean' },
    merchant_reference: text(),
    order_number: text(),
    order_id: text({ default: '' }),
    amount: { type: 'numeric', precision: 12, scale: 3 },
    original_amount: { type: 'numeric' },
    original_currency: { type: 'char', length: 3 },
    rate: { type: 'numeric', precision: 18, scale: 6 },
    description: text({ default: '' }),
    items: { type: 'json', default: () => "'[]'" },
    metadata: { type: 'json', default: () => "'{}'" },
    buyer_first_name: text(),
    buyer_last_name: text(),
    buyer_email: text(),
    buyer_phone: text({ default: '' }),
    return_url: text({ default: '' }),
    cancel_url: text({ default: '' }),
    webhook_url: text({ default: '' }),
    max_attempts: { type: 'smallint' },
    status: text(),
    expires_at: { type: 'timestamptz' },
    completed_at: { type: 'timestamptz', nullable: true },
    created_at: { type: 'timestamptz' },
    checkout_link_id: text(),
    checkout_token: text(),
    checkout_expires_at: { type: 'timestamptz' },
    amount_refunded: { type: 'numeric', precision: 12, scale: 3, default: 0 },
  },
});
const CheckoutLink = new EntitySchema({
  name: 'CheckoutLink',
  tableName: 'checkout_links',
  columns: {
    id: text({ primary: true }),
    session_id: text(),
    expires_at: { type: 'timestamptz' },
    created_at: { type: 'timestamptz' },
  },
});
const Outbox = new EntitySchema({
  name: 'Outbox',
  tableName: 'outbox',
  columns: {
    id: { type: 'bigint', primary: true, generated: 'increment' },
    message_id: text(),
    routing_key: text(),
    body: text(),
    created_at: { type: 'timestamptz', default: () => 'now()' },
  },
});

function variantOrm(key, label, write) {
  let dataSource;
  return {
    key,
    label,
    async open() {
      dataSource = new DataSource({
        type: 'postgres',
        url: benchUrl.href,
        schema: 'public',
        entities: [Session, CheckoutLink, Outbox],
        synchronize: false,
        logging: false,
        extra: { max: POOL_MAX },
      });
      await dataSource.initialize();
    },
    async create(rows) {
      await dataSource.transaction((manager) => write(manager, rows));
      return true;
    },
    async close() {
      if (dataSource?.isInitialized) await dataSource.destroy();
      dataSource = undefined;
    },
  };
}

const variantInsert = () =>
  variantOrm('B', 'TypeORM, tx + 3 insert()', async (manager, { session, link, outbox }) => {
    await manager.insert(Session, session);
    await manager.insert(CheckoutLink, link);
    await manager.insert(Outbox, outbox);
  });

const variantSave = () => ({
  ...variantOrm('C', 'TypeORM, tx + 3 save()', async (manager, { session, link, outbox }) => {
    await manager.getRepository(Session).save(session);
    await manager.getRepository(CheckoutLink).save(link);
    await manager.getRepository(Outbox).save(outbox);
  }),
  optional: true,
});

// ------------------------------------------------------------------ measuring

/** utime+stime ticks of every process whose cmdline starts with "postgres:", by pid. */
function postgresTicks() {
  const ticks = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'latin1').startsWith('postgres:')) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      // Fields after "(comm)": state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(entry, Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks;
}

/** CPU seconds used between two snapshots; a process born meanwhile counts whole, one that ended is lost. */
function postgresSeconds(before, after) {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks / CLOCK_TICKS;
}

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

let aborted = false;

/** CONCURRENCY workers, each awaiting its own creates in a loop, for `seconds`. */
async function drive(variant, seconds) {
  const latencies = [];
  let ok = 0;
  let failed = 0;
  let firstError;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline && !aborted) {
      const rows = makeCreate();
      const t0 = performance.now();
      try {
        if (await variant.create(rows)) {
          latencies.push(performance.now() - t0);
          ok += 1;
        } else failed += 1;
      } catch (error) {
        failed += 1;
        firstError ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { ok, failed, firstError, latencies, elapsed: (performance.now() - start) / 1000 };
}

/** The SQL statements one create sends, as seen by pg.Client#query (the client TypeORM loads too). */
async function statementsOfOneCreate(variant) {
  const Client = require('pg').Client;
  if (Client !== pg.Client) throw new Error('TypeORM and this script would load two different copies of pg');
  const original = Client.prototype.query;
  const seen = [];
  Client.prototype.query = function (config, ...rest) {
    const sql = typeof config === 'string' ? config : config?.text;
    if (sql) seen.push(sql.replace(/\s+/g, ' ').trim());
    return original.call(this, config, ...rest);
  };
  try {
    await variant.create(makeCreate());
  } finally {
    Client.prototype.query = original;
  }
  return seen;
}

async function resetTables(admin) {
  await admin.query('TRUNCATE sessions, checkout_links, outbox RESTART IDENTITY');
  await admin.query('CHECKPOINT');
}

async function runOne(admin, variant, round) {
  await resetTables(admin);
  await variant.open();
  try {
    const statements = await statementsOfOneCreate(variant);
    await drive(variant, WARMUP_S);
    if (aborted) throw new Error('interrupted');
    const cpu0 = process.cpuUsage();
    const pg0 = postgresTicks();
    const run = await drive(variant, DURATION_S);
    const pg1 = postgresTicks();
    const cpu = process.cpuUsage(cpu0);
    if (aborted) throw new Error('interrupted');
    if (run.ok === 0) throw run.firstError ?? new Error('no create succeeded');
    const counts = await admin.query(
      'SELECT (SELECT count(*) FROM sessions)::int AS s, (SELECT count(*) FROM checkout_links)::int AS l, (SELECT count(*) FROM outbox)::int AS o',
    );
    run.latencies.sort((a, b) => a - b);
    const nodeSeconds = (cpu.user + cpu.system) / 1e6;
    const pgSeconds = postgresSeconds(pg0, pg1);
    return {
      round,
      variant,
      statements,
      creates: run.ok,
      failed: run.failed,
      firstError: run.firstError,
      rate: run.ok / run.elapsed,
      p50: quantile(run.latencies, 0.5),
      p99: quantile(run.latencies, 0.99),
      nodePer1000: (nodeSeconds / run.ok) * 1000,
      pgPer1000: (pgSeconds / run.ok) * 1000,
      rows: counts.rows[0],
    };
  } finally {
    await variant.close();
  }
}

// ------------------------------------------------------------------ report

function machine() {
  let nproc;
  try {
    nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    nproc = String(os.availableParallelism());
  }
  const model = /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  return { nproc, model };
}

function table(results) {
  const header = ['round', 'variant', 'stmts/create', 'creates', 'creates/s', 'p50 ms', 'p99 ms', 'node CPU s/1000', 'pg CPU s/1000'];
  const rows = results.map((r) => [
    String(r.round),
    `${r.variant.key} ${r.variant.label}`,
    String(r.statements.length),
    String(r.creates),
    r.rate.toFixed(0),
    r.p50.toFixed(2),
    r.p99.toFixed(2),
    r.nodePer1000.toFixed(3),
    r.pgPer1000.toFixed(3),
  ]);
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map((h) => '-'.repeat(h.length))), ...rows.map(line)].join('\n');
}

// ------------------------------------------------------------------ main

async function main() {
  const { nproc, model } = machine();
  const typeormVersion = JSON.parse(readFileSync(path.join(root, 'node_modules/typeorm/package.json'), 'utf8')).version;
  const pgVersion = JSON.parse(readFileSync(path.join(root, 'node_modules/pg/package.json'), 'utf8')).version;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  let benchAdmin;
  let created = false;
  const stop = () => {
    if (aborted) process.exit(130);
    aborted = true;
    console.error('\ninterrupted: stopping and dropping the database (again to quit at once)');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const server = (await admin.query('SHOW server_version')).rows[0].server_version;
    console.log(`machine: nproc ${nproc}, ${model}; node ${process.version}; PostgreSQL ${server}; pg ${pgVersion}; typeorm ${typeormVersion}`);
    console.log(`each run: ${WARMUP_S} s warm-up, ${DURATION_S} s at concurrency ${CONCURRENCY}, pool max ${POOL_MAX}`);
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    created = true;
    benchAdmin = new pg.Client({ connectionString: benchUrl.href });
    await benchAdmin.connect();
    await benchAdmin.query('SET search_path TO public');
    for (const statement of schemaDdl()) await benchAdmin.query(statement);
    const sample = makeCreate();
    console.log(`outbox body: ${Buffer.byteLength(sample.outbox.body)} bytes`);

    const variants = [variantSql(), variantInsert(), variantSave()];
    const results = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const variant of variants) {
        try {
          const r = await runOne(benchAdmin, variant, round);
          results.push(r);
          console.log(
            `round ${round} ${variant.key}: ${r.rate.toFixed(0)} creates/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ` +
              `node ${r.nodePer1000.toFixed(3)} s/1000, pg ${r.pgPer1000.toFixed(3)} s/1000, ${r.statements.length} statements/create, ` +
              `rows ${r.rows.s}/${r.rows.l}/${r.rows.o}` +
              (r.failed ? `, ${r.failed} FAILED (${r.firstError?.message ?? 'conflict'})` : ''),
          );
        } catch (error) {
          if (aborted || !variant.optional) throw error;
          console.log(`round ${round} ${variant.key}: skipped, it does not work with this schema: ${error.message}`);
        }
      }
    }
    console.log('\nstatements per create (first round):');
    for (const r of results.filter((x) => x.round === 1)) {
      console.log(`  ${r.variant.key}:`);
      for (const s of r.statements) console.log(`    ${s.length > 110 ? `${s.slice(0, 107)}...` : s}`);
    }
    console.log(`\nnproc ${nproc}, ${model}\n`);
    console.log(table(results));
  } finally {
    await benchAdmin?.end().catch(() => {});
    if (created) await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(aborted ? 'interrupted; the database was dropped' : error);
  process.exitCode = 1;
});
