#!/usr/bin/env node
// `make reset` (`npm run reset`): drops what `make up` made on this machine's servers,
// once confirmed, so that the next `make up` starts afresh:
//   - the database DATABASE_NAME (gateway): every merchant, payment and person in it;
//   - the broker users, queues and exchanges of BROKER_PREFIX (gw), which the next
//     `make up` makes again (their passwords stay in .local/broker-users.json);
//   - .local/demo-merchant.json (GATEWAY_LOCAL_DIR's), whose merchant was in that database.
// The keys in .local/ stay: the next `make up` makes a new database with them.
// It asks y/N on a terminal; `--yes` answers for a script (npm run reset -- --yes).
// Without a terminal and without --yes it drops nothing and exits 1. A running
// `make up` should be stopped first: its database connections are closed.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import amqp from 'amqplib';
import pg from 'pg';
import { quoteIdent } from './checkout-database.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const local = process.env.GATEWAY_LOCAL_DIR ? path.resolve(process.env.GATEWAY_LOCAL_DIR) : path.join(root, '.local');
const adminUrl = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The broker's first node, when AMQP_URL lists a cluster's. */
const amqpUrl = (process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672').split(',')[0].trim();
const database = process.env.DATABASE_NAME ?? 'gateway';
const prefix = process.env.BROKER_PREFIX ?? 'gw';
if (!/^[A-Za-z0-9_-]+$/.test(prefix)) {
  console.error(`BROKER_PREFIX must be letters, digits, _ and -, not ${prefix}`);
  process.exit(2);
}

/** The names of the broker's `kind` (users, queues, exchanges) that belong to the prefix; undefined when rabbitmqctl cannot tell. */
function brokerNames(kind, column) {
  const listed = spawnSync('rabbitmqctl', ['-q', `list_${kind}`, '--no-table-headers', ...(column ? [column] : [])], { encoding: 'utf8' });
  if (listed.status !== 0) return undefined;
  return listed.stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
    .filter((name) => name.startsWith(`${prefix}.`));
}

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const found = await admin.query('SELECT (SELECT count(*)::int FROM pg_stat_activity WHERE datname = $1) AS connections FROM pg_database WHERE datname = $1', [database]);
const users = brokerNames('users');
const queues = brokerNames('queues', 'name');
const exchanges = brokerNames('exchanges', 'name');

const plan = [
  found.rowCount === 0
    ? `database ${database}: there is none`
    : `database ${database}, with every merchant, payment and person in it${found.rows[0].connections > 0 ? ` (${found.rows[0].connections} connections to it are closed: stop \`make up\` first)` : ''}`,
  users === undefined
    ? 'broker: none (rabbitmqctl cannot be used here)'
    : `broker prefix ${prefix}: ${users.length} users, ${queues?.length ?? 0} queues, ${exchanges?.length ?? 0} exchanges`,
  `${path.join(local, 'demo-merchant.json')} (the keys in that folder stay)`,
];
console.log(`make reset drops, on this machine's servers:\n${plan.map((line) => `  - ${line}`).join('\n')}`);

if (!process.argv.includes('--yes')) {
  if (!process.stdin.isTTY) {
    console.error('Nothing dropped: confirm in a terminal (make reset), or pass --yes (npm run reset -- --yes).');
    await admin.end();
    process.exit(1);
  }
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await prompt.question('Drop them? [y/N] ');
  prompt.close();
  if (!/^y(es)?$/i.test(answer.trim())) {
    console.log('Nothing dropped.');
    await admin.end();
    process.exit(0);
  }
}

try {
  if (found.rowCount > 0) await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
} finally {
  await admin.end();
}

if (users !== undefined) {
  if (users.length > 0) {
    const names = users.map((user) => `<<"${user}">>`).join(',');
    spawnSync('rabbitmqctl', ['-q', 'eval', `[rabbit_auth_backend_internal:delete_user(U, <<"make-reset">>) || U <- [${names}]].`], { stdio: 'ignore' });
  }
  const connection = await amqp.connect(amqpUrl);
  connection.on('error', () => undefined);
  try {
    for (const [names, remove] of [
      [queues ?? [], (channel, name) => channel.deleteQueue(name)],
      [exchanges ?? [], (channel, name) => channel.deleteExchange(name)],
    ]) {
      for (const name of names) {
        // A failed delete closes its channel: one channel each.
        const channel = await connection.createChannel();
        channel.on('error', () => undefined);
        await remove(channel, name).catch(() => undefined);
        await channel.close().catch(() => undefined);
      }
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
}
rmSync(path.join(local, 'demo-merchant.json'), { force: true });
console.log('Dropped: the next `make up` starts afresh.');
