#!/usr/bin/env node
// Runs the whole system on this machine, in the foreground (`npm run up`):
//   1. PostgreSQL, RabbitMQ and Redis: started (or installed) when not running;
//   2. the build; the system's keys, made once in .local/; a check that the database
//      `gateway`, if it exists, opens with this checkout's key-encryption key (it may
//      be another checkout's: then it says so and exits 3, starting nothing); the
//      database with a schema and a role per service, each role with a password made
//      once (.local/database-passwords.json), and every service's migrations;
//      the RabbitMQ definitions;
//   3. every service of the system's description (packages/system) as a child process
//      (logs in .local/logs/<service>.log), kept up by the supervisor (packages/system):
//      the gateway on every interface, every other service on 127.0.0.1 alone (D29:
//      checkout and the dashboard, behind the gateway, believe its X-Forwarded-For
//      entry and nobody else's), and each one's /metrics on 127.0.0.1 alone, on its
//      port + 100 (the gateway's 8180), not on its service port;
//      one that exits unasked is started again after 0.5 s, then longer while it keeps
//      failing (up to 10 s), with its exit and the last lines of its log printed; one
//      that fails at its start 5 times in a row is given up on, the others kept running.
//      With REPLICAS=2 (`make up REPLICAS=2`), two of each replicated worker, the second
//      one on its service's port + 10 (8091-8095), logging to <service>-2.log;
//   4. a demo merchant, seeded once and kept in .local/demo-merchant.json, whose
//      keys are printed with the URLs, with gateway-admin signing as the local
//      operator (its key made once, .local/operator-key.jwk); with it a dashboard
//      owner (demo@example.com) and a console operator (ops@example.com), whose
//      passwords are made once and kept in the same file. gateway-admin run in this
//      checkout finds the broker user and key to use in .local/gateway-admin.json.
// The dashboard signs its users' commands with its own key (.local/dashboard-key.jwk,
// made once), which every service trusts beside the operator's.
// Every mail goes to a local mail catcher on 127.0.0.1:1025 that keeps it in .local/mail/,
// unless SMTP_URL names a mail server (D20).
// Everything it writes in .local/ (keys, passwords, the demo merchant, logs, mails) is
// its user's alone: files 0600, folders 0700, on every write (D29).
// Ctrl-C (SIGINT) or SIGTERM stops every service gracefully.
//
// Besides the settings of the services, it reads DATABASE_ADMIN_URL, DATABASE_NAME
// (gateway), AMQP_URL, BROKER_PREFIX (gw), REDIS_URL, PUBLIC_BASE_URL, SMTP_URL, REPLICAS,
// PORT_BASE (8080: the gateway's port, every other service's shifted alike),
// GATEWAY_LOCAL_DIR (where the keys, passwords and logs are kept: the checkout's
// .local/) and SKIP_BUILD=true (the build is done already), so that a test can run
// a whole `make up` of its own beside a developer's.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { foreignDataKeys, nameCheckout } from './checkout-database.mjs';
import { keptDatabasePasswords, migrateDatabase } from './database.mjs';
import { deleteUndeclaredQueues, ensureServers } from './servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where this run keeps its keys, passwords and logs. */
const local = process.env.GATEWAY_LOCAL_DIR ? path.resolve(process.env.GATEWAY_LOCAL_DIR) : path.join(root, '.local');
/** A file of `local` as printed: relative to the checkout when inside it. */
const shown = (file) => (file.startsWith(`${root}${path.sep}`) ? path.relative(root, file) : file);
mkdirSync(path.join(local, 'logs'), { recursive: true, mode: 0o700 });

const adminUrl = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = process.env.DATABASE_NAME ?? 'gateway';
/** The gateway's port; every other service listens on its usual port shifted alike (8080: 8080-8088). */
const portBase = Number(process.env.PORT_BASE ?? '8080');
if (!Number.isInteger(portBase) || portBase < 1024 || portBase > 65_000) {
  console.error(`PORT_BASE must be a port from 1024 to 65000, not ${process.env.PORT_BASE}`);
  process.exit(2);
}
const publicBaseUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${portBase}`;

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

if (process.env.SKIP_BUILD === 'true') step('build: skipped (SKIP_BUILD=true)');
else {
  step('build');
  runOrExit('npm', ['run', 'build']);
}
// The system's description, keys and supervisor (packages/system), built now.
const { describeEvent, descriptionOf, keptKeys, LOCAL_FOLDER, privateFolder, REPLICATED, replicaName, replicaPort, SECRET_KEEPERS, SERVICES, serviceEnvironment, Supervisor, writePrivateFile } =
  await import('@gateway/system');
for (const folder of [local, path.join(local, 'logs')]) privateFolder(folder);

// The system's keys, made once and kept in .local/ (packages/system/src/keys.mjs): with
// others, links, sealed card data and the secrets already stored could not be read.
// gateway-admin signs operator commands with the operator key (.local/operator-key.jwk);
// the dashboard signs its users' commands with its own (.local/dashboard-key.jwk).
const keys = keptKeys(local, LOCAL_FOLDER);
const operatorKeyFile = path.join(local, 'operator-key.jwk');

step(`database ${database}: this checkout's?`);
await refuseAnotherCheckoutsDatabase();

step(`database ${database}: schemas, roles, migrations`);
const urlFor = await migrateDatabase(adminUrl, database, { passwords: await keptDatabasePasswords(local) });
// The database opens with this run's keys: it is theirs (the comment names them for a later run with others).
await nameCheckout(adminUrl, database, local);

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
}
writePrivateFile(usersFile, JSON.stringify(brokerPasswords, null, 2));
// rabbitmqctl may run as the broker's own user: the file it reads must be readable to it.
const importFile = path.join(tmpdir(), `gateway-broker-definitions-${process.pid}.json`);
writeFileSync(importFile, JSON.stringify({ ...definitionsDocument(brokerPrefix), users: brokerUsers(brokerPrefix, brokerPasswords) }), { mode: 0o644 });
const imported = spawnSync('rabbitmqctl', ['-q', 'import_definitions', importFile], { stdio: 'ignore' });
rmSync(importFile, { force: true });
const sharedAmqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
/** The broker URL `principal` connects with: its own user where the users were imported, else the one shared URL. */
function amqpUrlOf(principal) {
  if (imported.status !== 0) return sharedAmqpUrl;
  // AMQP_URL may list a cluster's nodes (D23): each gets the principal's user.
  return sharedAmqpUrl
    .split(',')
    .map((node) => {
      const url = new URL(node.trim());
      url.username = brokerUser(brokerPrefix, principal);
      url.password = brokerPasswords[principal];
      return url.toString();
    })
    .join(',');
}
console.log(
  imported.status === 0
    ? `  imported the definitions of prefix ${brokerPrefix} and a broker user per service (passwords in ${shown(usersFile)})`
    : '  rabbitmqctl not usable here; every service connects with AMQP_URL (BROKER_SHARED_USER: senders are not checked) and declares its own queues',
);
// The definitions are the queues of prefix gw; any other gw queue is an older version's, which nothing consumes.
if (brokerPrefix === 'gw') {
  const declared = new Set(JSON.parse(readFileSync(definitions, 'utf8')).queues.map((queue) => queue.name));
  for (const queue of deleteUndeclaredQueues('gw', declared)) console.log(`  deleted ${queue}: no service consumes it any more`);
}

/** The operators' keys given in OPERATOR_PUBLIC_KEYS (a JWKS, an array or one JWK), which replace this machine's operator key. */
function operatorKeysGiven() {
  if (!process.env.OPERATOR_PUBLIC_KEYS) return undefined;
  const given = JSON.parse(process.env.OPERATOR_PUBLIC_KEYS);
  return Array.isArray(given) ? given : Array.isArray(given?.keys) ? given.keys : [given];
}
const adminEnv = { ...process.env, AMQP_URL: amqpUrlOf('gateway-admin'), BROKER_PREFIX: brokerPrefix, OPERATOR_KEY_FILE: process.env.OPERATOR_KEY_FILE ?? operatorKeyFile };
// What gateway-admin run in this checkout uses when AMQP_URL, BROKER_PREFIX or OPERATOR_KEY_FILE
// are not set (packages/gateway-admin): this run's broker user for it and the operator key.
writePrivateFile(path.join(local, 'gateway-admin.json'), JSON.stringify({ AMQP_URL: amqpUrlOf('gateway-admin'), BROKER_PREFIX: brokerPrefix, OPERATOR_KEY_FILE: operatorKeyFile }, null, 2));

// D20: every mail goes to SMTP_URL when it is set, else to a local mail catcher (a real SMTP
// server, infra/local/mail-catcher.mjs) on 127.0.0.1:1025 (shifted by PORT_BASE) that keeps each
// message in .local/mail/.
const mailDir = path.join(local, 'mail');
const catcherPort = 1025 + portBase - 8080;
/** The running mail catcher, once started; stopped with the services, or when this process exits. */
let mailCatcher;
process.on('exit', () => mailCatcher?.kill('SIGTERM'));

/** Starts the mail catcher and resolves once it listens (or has failed: then the notifier's mails wait in its mail queue). */
function startMailCatcher() {
  const child = spawn(process.execPath, [path.join(root, 'infra', 'local', 'mail-catcher.mjs'), '--port', String(catcherPort), '--dir', mailDir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve) => {
    let listening = false;
    child.stdout.on('data', (chunk) => {
      const text = String(chunk);
      if (!listening && text.includes('listening')) {
        listening = true;
        resolve(child);
        return;
      }
      process.stdout.write(`[mail] ${text}`);
    });
    child.stderr.on('data', (chunk) => process.stderr.write(`[mail] ${chunk}`));
    child.on('exit', (code) => {
      if (!listening) {
        console.log(`  the mail catcher did not start on 127.0.0.1:${catcherPort} (exit ${code}): mails wait in the notifier's mail queue until one listens there`);
        resolve(undefined);
      }
    });
  });
}

/** The system on this machine: each service on its usual port, the gateway on PUBLIC_BASE_URL's. */
const wiring = {
  smtpUrl: process.env.SMTP_URL ?? `smtp://127.0.0.1:${catcherPort}`,
  keys,
  ports: Object.fromEntries(SERVICES.map((service) => [service.name, service.name === 'api-gateway' ? Number(new URL(publicBaseUrl).port || portBase) : service.port + portBase - 8080])),
  publicBaseUrl,
  // What the buyer's browser opens (the 3-D Secure page).
  sandboxPublicUrl: `http://localhost:${8086 + portBase - 8080}`,
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
/** How far above its port a process serves /metrics, on loopback. */
const METRICS_PORT_OFFSET = 100;
/**
 * Where a process listens, whatever the environment says (D29): the gateway, the one door, on
 * every interface; every other service on 127.0.0.1 alone, so that checkout and the dashboard,
 * which the gateway passes pages to, may believe the X-Forwarded-For entry it appends (one proxy
 * of ours in front) and nobody else can write one; and /metrics on loopback, port + 100.
 */
function bindingOf(service, port) {
  return {
    ...(service !== 'api-gateway' && { LISTEN_HOST: '127.0.0.1' }),
    ...((service === 'checkout' || service === 'dashboard') && { TRUST_PROXY_HOPS: '1' }),
    METRICS_PORT: String(port + METRICS_PORT_OFFSET),
  };
}

step('services');
if (!process.env.SMTP_URL) mailCatcher = await startMailCatcher();
let stopping = false;
// Each service is kept up: one that exits unasked is told and started again, or given up on (packages/system's supervisor).
const supervisor = new Supervisor({
  logDir: path.join(local, 'logs'),
  onStderr: (name, chunk) => process.stderr.write(`[${name}] ${chunk}`),
  onEvent: (event) => {
    for (const line of describeEvent(event, shown)) console.log(line);
  },
});
function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping every service…');
  supervisor.stopAll().then(() => {
    mailCatcher?.kill('SIGTERM');
    process.exit(code);
  });
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

const ready = await Promise.all(PROCESSES.map(({ name, service, port }) => supervisor.start({ name, service, port, env: { ...serviceEnvironment(service, wiring, extra), ...bindingOf(service, port) } })));
const givenUp = PROCESSES.filter((_, i) => !ready[i]).map(({ name }) => name);
if (givenUp.length > 0 && !stopping) console.log(`  not running: ${givenUp.join(', ')} (see above); the others are.`);

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
    writePrivateFile(demoFile, JSON.stringify(demo, null, 2));
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
  // As one argument: a password may start with a dash, which the CLI would read as an option.
  const created = spawnSync(admin, [...args, `--password=${password}`], { env: adminEnv, encoding: 'utf8' });
  if (created.status !== 0) {
    console.error(`  could not create the ${what}: ${created.stderr.split('\n')[0]}`);
    return;
  }
  demo = { ...demo, [field]: { ...JSON.parse(created.stdout), email: args[args.indexOf('--email') + 1], password } };
  writePrivateFile(demoFile, JSON.stringify(demo, null, 2));
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
  Sandbox        ${wiring.sandboxPublicUrl}  (test-mode acquirer and its 3-D Secure page)
  Mail           ${process.env.SMTP_URL ? 'sent through SMTP_URL' : `${shown(mailDir)}/<time>-<id>.eml  (every mail the system sends, caught on 127.0.0.1:${catcherPort})`}
  Logs           ${shown(path.join(local, 'logs'))}/<service>.log${replicas > 1 ? `
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

Operator commands, run in this checkout, go as this run's broker user and are signed
with this machine's operator key (${shown(operatorKeyFile)}); the audit log names you by OPERATOR_NAME:
  OPERATOR_NAME=$USER npx gateway-admin audit list

A service that stops is started again; Ctrl-C stops everything.`);
}

/**
 * Exits 3, starting nothing, when the database holds data keys wrapped under a
 * key-encryption key this run does not give the services (another checkout's,
 * most likely): its secret keepers could not start. Names the keys folder whose
 * run set the database up, when the database's comment says.
 */
async function refuseAnotherCheckoutsDatabase() {
  const { kekId } = await import('@gateway/secrets');
  const keks = [keys.secretsKek, process.env.SECRETS_KEK_PREVIOUS].filter(Boolean).map((kek) => kekId(Buffer.from(kek.trim(), 'base64')));
  const schemas = SECRET_KEEPERS.map((service) => descriptionOf(service).schema);
  const { foreign, madeBy } = await foreignDataKeys(adminUrl, database, schemas, keks);
  if (foreign.length === 0) return;
  const services = foreign.map(({ schema }) => SECRET_KEEPERS[schemas.indexOf(schema)]);
  const under = [...new Set(foreign.flatMap(({ kekIds }) => kekIds))].join(', ');
  console.error(`
The database ${database} is not this checkout's: ${madeBy && madeBy !== local ? `\`make up\` with the keys in ${madeBy} set it up, and ` : ''}the secrets
of ${services.join(', ')} there are wrapped under key-encryption key ${under}, while this
checkout's (${shown(path.join(local, LOCAL_FOLDER.secretsKek))}) is ${keks[0]}: its services could not read them.
Nothing was started, and the database is as it was. Either:
  - start this checkout on a database of its own:   DATABASE_NAME=gateway_2 make up
    (while the other runs, give it its own ports and broker prefix too: PORT_BASE=9080 BROKER_PREFIX=gw2)
  - or drop the database and start afresh:         make reset && make up
    (every merchant, payment and person in it is lost)
  - or use the other checkout's keys: copy its .local/ here.`);
  process.exit(3);
}
