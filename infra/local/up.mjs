#!/usr/bin/env node
// Runs the whole system on this machine, in the foreground (`npm run up`):
//   1. PostgreSQL, RabbitMQ and Redis: started (or installed) when not running;
//   2. the build; the database `gateway` with a schema and a role per service,
//      and every service's migrations; the RabbitMQ definitions;
//   3. every service of the system's description (packages/system) as a child process
//      (logs in .local/logs/<service>.log); with REPLICAS=2 (`make up REPLICAS=2`), two
//      of each replicated worker, the second one on its service's port + 10 (8091-8095),
//      logging to <service>-2.log;
//   4. a demo merchant, seeded once and kept in .local/demo-merchant.json, whose
//      keys are printed with the URLs, with gateway-admin signing as the local
//      operator (its key made once, .local/operator-key.jwk); with it a dashboard
//      owner (demo@example.com) and a console operator (ops@example.com), whose
//      passwords are made once and kept in the same file.
// The dashboard signs its users' commands with its own key (.local/dashboard-key.jwk,
// made once), which every service trusts beside the operator's.
// Ctrl-C (SIGINT) or SIGTERM stops every service gracefully.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateDatabase } from './database.mjs';
import { deleteUndeclaredQueues, ensureServers } from './servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const local = path.join(root, '.local');
mkdirSync(path.join(local, 'logs'), { recursive: true });

const adminUrl = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = process.env.DATABASE_NAME ?? 'gateway';
const publicBaseUrl = process.env.PUBLIC_BASE_URL ?? 'http://localhost:8080';

/** Processes per replicated service (REPLICAS, default 1); replica n listens on the service's port + 10 × (n - 1). */
const replicas = Number(process.env.REPLICAS ?? '1');
if (!Number.isInteger(replicas) || replicas < 1 || replicas > 9) {
  console.error(`REPLICAS must be a whole number from 1 to 9, not ${process.env.REPLICAS}`);
  process.exit(2);
}

function step(message) {
  console.log(`\u25b8 ${message}`);
}

function runOrExit(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

step('servers');
await ensureServers({ log: (line) => console.log(`  ${line}`) });

step('build');
runOrExit('npm', ['run', 'build']);
// The system's description, keys and launcher (packages/system), built now.
const { keptKeys, Launcher, LOCAL_FOLDER, REPLICATED, replicaName, replicaPort, SERVICES, serviceEnvironment } = await import('@gateway/system');

step(`database ${database}: schemas, roles, migrations`);
const urlFor = await migrateDatabase(adminUrl, database);

step('broker definitions and users');
// Each service connects as its own broker user, allowed only its own queues (D17):
// the users of the prefix with passwords made once for this machine, imported with
// the definitions (infra/rabbitmq/definitions.json for prefix gw) in one go, since
// the definitions' permissions need the users.
const definitions = path.join(root, 'infra', 'rabbitmq', 'definitions.json');
const brokerPrefix = process.env.BROKER_PREFIX ?? 'gw';
const { brokerUser, brokerUsers, definitionsDocument, BROKER_PRINCIPALS } = await import('@gateway/messaging');
const usersFile = path.join(local, 'broker-users.json');
const brokerPasswords = existsSync(usersFile) ? JSON.parse(readFileSync(usersFile, 'utf8')) : {};
// A principal the file does not hold yet (all of them the first time, a service added since, such as the ledger) gets its password now; the others keep theirs.
const newPrincipals = BROKER_PRINCIPALS.filter((principal) => typeof brokerPasswords[principal] !== 'string');
if (newPrincipals.length > 0) {
  for (const principal of newPrincipals) brokerPasswords[principal] = randomBytes(16).toString('hex');
  writeFileSync(usersFile, JSON.stringify(brokerPasswords, null, 2), { mode: 0o600 });
}
// rabbitmqctl may run as the broker's own user: the file it reads must be readable to it.
const importFile = path.join(tmpdir(), `gateway-broker-definitions-${process.pid}.json`);
writeFileSync(importFile, JSON.stringify({ ...definitionsDocument(brokerPrefix), users: brokerUsers(brokerPrefix, brokerPasswords) }), { mode: 0o644 });
const imported = spawnSync('rabbitmqctl', ['-q', 'import_definitions', importFile], { stdio: 'ignore' });
rmSync(importFile, { force: true });
const sharedAmqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
/** The broker URL `principal` connects with: its own user where the users were imported, else the one shared URL. */
function amqpUrlOf(principal) {
  if (imported.status !== 0) return sharedAmqpUrl;
  const url = new URL(sharedAmqpUrl);
  url.username = brokerUser(brokerPrefix, principal);
  url.password = brokerPasswords[principal];
  return url.toString();
}
console.log(
  imported.status === 0
    ? `  imported the definitions of prefix ${brokerPrefix} and a broker user per service (passwords in .local/broker-users.json)`
    : '  rabbitmqctl not usable here; every service connects with AMQP_URL (BROKER_SHARED_USER: senders are not checked) and declares its own queues',
);
// The definitions are the queues of prefix gw; any other gw queue is an older version's, which nothing consumes.
if (brokerPrefix === 'gw') {
  const declared = new Set(JSON.parse(readFileSync(definitions, 'utf8')).queues.map((queue) => queue.name));
  for (const queue of deleteUndeclaredQueues('gw', declared)) console.log(`  deleted ${queue}: no service consumes it any more`);
}

// The system's keys, made once and kept in .local/ (packages/system/src/keys.mjs): with
// others, links, sealed card data and the secrets already stored could not be read.
// gateway-admin signs operator commands with the operator key (.local/operator-key.jwk);
// the dashboard signs its users' commands with its own (.local/dashboard-key.jwk).
const keys = keptKeys(local, LOCAL_FOLDER);
const operatorKeyFile = path.join(local, 'operator-key.jwk');
/** The operators' keys given in OPERATOR_PUBLIC_KEYS (a JWKS, an array or one JWK), which replace this machine's operator key. */
function operatorKeysGiven() {
  if (!process.env.OPERATOR_PUBLIC_KEYS) return undefined;
  const given = JSON.parse(process.env.OPERATOR_PUBLIC_KEYS);
  return Array.isArray(given) ? given : Array.isArray(given?.keys) ? given.keys : [given];
}
const adminEnv = { ...process.env, AMQP_URL: amqpUrlOf('gateway-admin'), OPERATOR_KEY_FILE: process.env.OPERATOR_KEY_FILE ?? operatorKeyFile };

/** The system on this machine: each service on its usual port, the gateway on PUBLIC_BASE_URL's. */
const wiring = {
  keys,
  ports: Object.fromEntries(SERVICES.map((service) => [service.name, service.name === 'api-gateway' ? Number(new URL(publicBaseUrl).port || 8080) : service.port])),
  publicBaseUrl,
  // What the buyer's browser opens (the 3-D Secure page).
  sandboxPublicUrl: 'http://localhost:8086',
  databaseUrl: urlFor,
  brokerUrl: amqpUrlOf,
  brokerPrefix,
  redisUrl: process.env.REDIS_URL,
  operators: operatorKeysGiven(),
};
// A local run is for development: webhooks may go to receivers on this machine (D11's
// address rule is lifted) and operators sign in without a second factor, unless the environment says otherwise.
const extra = { env: { WEBHOOK_ALLOW_PRIVATE: 'true', OPS_TOTP_REQUIRED: 'false', ...(imported.status !== 0 && { BROKER_SHARED_USER: 'true' }), ...process.env } };
/** The processes to start: each service once, the replicated ones `replicas` times (`session`, `session-2`...). */
const PROCESSES = SERVICES.flatMap((service) =>
  Array.from({ length: service.replicated ? replicas : 1 }, (_, i) => ({ name: replicaName(service.name, i), service: service.name, port: replicaPort(wiring.ports[service.name], i) })),
);

step('services');
let stopping = false;
const launcher = new Launcher({
  logDir: path.join(local, 'logs'),
  onStderr: (name, chunk) => process.stderr.write(`[${name}] ${chunk}`),
  onExit: (name, code) => {
    console.log(`  ${name} exited (${code ?? 'killed'})`);
    if (!stopping) stopAll(1);
  },
});
function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping every service…');
  launcher.stopAll().then(() => process.exit(code));
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

await Promise.all(
  PROCESSES.map(({ name, service, port }) =>
    launcher.start({ name, service, port, env: serviceEnvironment(service, wiring, extra) }).catch((err) => {
      if (stopping) return;
      console.error(`${name} did not become ready: ${err.message}`);
      stopAll(1);
    }),
  ),
);

step('demo merchant');
const demoFile = path.join(local, 'demo-merchant.json');
let demo = existsSync(demoFile) ? JSON.parse(readFileSync(demoFile, 'utf8')) : undefined;
if (demo) {
  const probe = await fetch(`${publicBaseUrl}/api/v1/gateway/sessions/list/?limit=1`, { headers: { authorization: `Bearer ${demo.test_secret_key}` } });
  if (probe.status !== 200) demo = undefined;
}
const admin = path.join(root, 'node_modules', '.bin', 'gateway-admin');
if (!demo) {
  const created = spawnSync(admin, ['merchant', 'create', '--name', 'Demo Shop', '--order-prefix', 'DMO'], { env: adminEnv, encoding: 'utf8' });
  if (created.status !== 0) {
    console.error(created.stderr);
    stopAll(1);
  } else {
    demo = JSON.parse(created.stdout);
    writeFileSync(demoFile, JSON.stringify(demo, null, 2), { mode: 0o600 });
  }
}

/**
 * Runs `gateway-admin <args>` for one demo sign-in, whose password is made
 * here (16+ characters) and kept with the demo merchant once the person exists.
 * A failure is shown and the system keeps running, without that sign-in.
 */
function seedPerson(field, what, args) {
  if (!demo || stopping || demo[field]) return;
  const password = randomBytes(18).toString('base64url');
  const created = spawnSync(admin, [...args, '--password', password], { env: adminEnv, encoding: 'utf8' });
  if (created.status !== 0) {
    console.error(`  could not create the ${what}: ${created.stderr.split('\n')[0]}`);
    return;
  }
  demo = { ...demo, [field]: { ...JSON.parse(created.stdout), email: args[args.indexOf('--email') + 1], password } };
  writeFileSync(demoFile, JSON.stringify(demo, null, 2), { mode: 0o600 });
}
seedPerson('dashboard_owner', 'demo dashboard owner', ['user', 'create', demo?.merchant_id ?? '', '--email', 'demo@example.com', '--role', 'owner']);
seedPerson('ops_operator', 'demo console operator', ['operator', 'create', '--email', 'ops@example.com']);

/** How to sign in as a demo person, or why one cannot. */
function signInLine(door, url, person) {
  return person ? `${door}: ${url} sign in as ${person.email} / ${person.password}` : `${door}: ${url} (no demo sign-in: its creation failed, see above)`;
}

if (demo && !stopping) {
  console.log(`
The gateway is running.
  API            ${publicBaseUrl}/api/v1
  OpenAPI        ${publicBaseUrl}/api/v1/openapi.json
  Checkout       ${publicBaseUrl}/checkout/<token>  (the checkout_url of a session)
  Dashboard      ${publicBaseUrl}/dashboard/  (merchants)
  Ops console    ${publicBaseUrl}/ops/  (operators)
  Sandbox        http://localhost:8086  (test-mode acquirer and its 3-D Secure page)
  Logs           .local/logs/<service>.log${replicas > 1 ? `
  Replicas       ${replicas} of ${REPLICATED.join(', ')} (replica n on its port + 10 × (n - 1); logs <service>-n.log)` : ''}

Demo merchant ${demo.merchant_id}
  test secret key       ${demo.test_secret_key}
  test webhook secret   ${demo.test_webhook_secret}
${signInLine('Dashboard', `${publicBaseUrl}/dashboard/`, demo.dashboard_owner)}
${signInLine('Ops console', `${publicBaseUrl}/ops/`, demo.ops_operator)}

Try:
  curl -s -X POST ${publicBaseUrl}/api/v1/gateway/sessions/ \\
    -H "Authorization: Bearer ${demo.test_secret_key}" -H "Content-Type: application/json" \\
    -d '{"amount":"125.500","merchant_reference":"order-1","first_name":"Amina","last_name":"Ben Salah","email":"amina@example.tn"}'

Open the checkout_url it answers and pay with 4242 4242 4242 4242, any future
expiry, any security code (the page lists every test card).

Operator commands are signed with this machine's operator key (.local/operator-key.jwk):
  OPERATOR_KEY_FILE=.local/operator-key.jwk OPERATOR_NAME=$USER npx gateway-admin audit list

Ctrl-C stops everything.`);
}
