#!/usr/bin/env node
// The benchmark (`npm run bench`): session create and session get through the
// gateway, and whole test-mode payments (create, page, pay, session.succeeded),
// on this machine, with everything on it (servers, services and the
// load generator). It starts its own system on a fresh database, spreads the
// load over many merchants whose limits are raised so the limiter does not cap
// it, and reports requests/s and latency percentiles over several runs.
//
//   npm run bench                      all scenarios, 3 runs each
//   npm run bench -- --runs 5 --duration 20
//   npm run bench -- --only refund-open-rate,create-open-rate --refund-rate 50
//   npm run bench -- --profile         also CPU-profile every service
//   npm run bench -- --only resources --runs 1   memory and CPU of each service, idle then under payments (k8s/ sizes)
//   npm run bench -- --only create-session-replicas   saturated creates with one and with two
//                                      session replicas (the second on port 18192), interleaved
//   npm run bench -- --only lists-100k  the dashboard's Payments page: session lists of one merchant with
//                                      100,000 sessions (--list-sessions), first page, filters, search, page 500
//   npm run bench -- --only home-100k,daily-report-year,export-sessions-100k   the money pages (issue 29) on one
//                                      merchant with 100,000 sessions over a year (--report-sessions), seeded in each
//                                      owner's tables: the dashboard's Home page and the daily report of 366 days,
//                                      closed loop (--report-requests, --report-concurrency); one CSV export of every
//                                      session, timed to its last byte, with each service's memory sampled
//   npm run bench -- --only slow-payments --duration 10   creates and gets while 300 slow-card payments
//                                      (--slow-payments) are in flight: p50/p99 and 5xx of each
//   npm run bench -- --only capture-vs-refund --refund-rate 50   captures of held payments (D22) and
//                                      PARTIAL refunds at the same rate: throughput and p99 of each
//   npm run bench -- --only create-vs-reference   saturated creates through the system and through
//                                      ../shared/perf/reference-create.mjs (one process doing the same
//                                      durable work) in turn, same generator, body and connections:
//                                      the ratio system/reference (--reference PATH to name another)
//   npm run bench -- --port-base 18280 ports 18280-18300, database gateway_bench_18280 and broker
//                                      prefix bench18280: beside another benchmark running on the defaults
//   npm run bench -- --only link-page-to-checkout --link-rate 50   buyers of payment links (D19) at a
//                                      fixed rate, each: the link's page, its form (a session; 303), the
//                                      checkout page; p50/p95/p99 of the whole and of each step (target:
//                                      p99 under 100 ms at 50 buyers/s); the page's per-address limit raised
//   npm run bench -- --only mail-queue --mail-count 2000   buyer receipts (D20) through the notifier's
//                                      mail queue to a real SMTP catcher started by the bench, default
//                                      notifier settings: mails/s from the first written to the last caught
//   npm run bench -- --only one-click-vs-typed --payment-rate 60   whole payments with a saved card (D24:
//                                      its security code alone) against typed ones, CPU per payment of each
//   npm run bench -- --only off-session-beside-creates --charge-rate 50   charges of saved cards without
//                                      the buyer (D24) beside plain creates at the same rate, each's p99
//   npm run bench -- --only wallet-payments --wallet-rate 50   whole Flouci payments (D26: page, hand-off,
//                                      the sandbox's Flouci page, return, session.succeeded) and card
//                                      payments at the same rate, in turn: p50/p99 and CPU per payment of
//                                      each, and the wallet:card CPU ratio
//
// The system is packages/system's description, wired by its environment function and
// started by its launcher, as `make up` and the tests start it.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { openLoad, quantile } from './open-load.mjs';
import { cpuWindow, perUnit, rssWindow } from './process-cpu.mjs';
import { paymentLoad } from './payment-load.mjs';
import { chargesBesideCreates, saveCards } from './saved-card-load.mjs';
import { walletLoad } from './wallet-load.mjs';
import { captureLoad, paidSessions, refundLoad } from './refund-load.mjs';
import { webhookBench } from './webhook-load.mjs';
import { listsBench } from './lists-load.mjs';
import { reportsBench } from './reports-load.mjs';
import { slowPaymentsLoad } from './slow-payments-load.mjs';
import { linkLoad, mailQueue, makeLinks, succeededTemplate } from './link-load.mjs';
import { budgetReport, readBudget } from './cpu-budget.mjs';
import { migrateDatabase } from './database.mjs';
import { deleteUndeclaredQueues, ensureServers } from './servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '15' },
    merchants: { type: 'string', default: '50' },
    connections: { type: 'string', default: '64' },
    rate: { type: 'string', default: '1000' },
    'payment-rate': { type: 'string', default: '150' },
    'refund-rate': { type: 'string', default: '50' },
    'webhook-rate': { type: 'string', default: '500' },
    'webhook-backlog': { type: 'string', default: '20000' },
    profile: { type: 'boolean', default: false },
    only: { type: 'string' },
    'port-base': { type: 'string', default: '18180' },
    'replica-warm-up': { type: 'string', default: '10' },
    'list-sessions': { type: 'string', default: '100000' },
    'list-requests': { type: 'string', default: '300' },
    'list-concurrency': { type: 'string', default: '1' },
    'report-sessions': { type: 'string', default: '100000' },
    'report-requests': { type: 'string', default: '300' },
    'report-concurrency': { type: 'string', default: '1' },
    'slow-payments': { type: 'string', default: '300' },
    'slow-clients': { type: 'string', default: '8' },
    'link-rate': { type: 'string', default: '50' },
    'mail-count': { type: 'string', default: '2000' },
    'charge-rate': { type: 'string', default: '50' },
    'wallet-rate': { type: 'string', default: '50' },
    reference: { type: 'string', default: path.join('..', 'shared', 'perf', 'reference-create.mjs') },
  },
});
const runs = Number(args.runs);
const duration = Number(args.duration);
const adminUrl = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const portBase = Number(args['port-base']);
/** The port at `offset` from the port base: the reference's (20); the services' are 0-9, their second replicas 10-19 (replicaPort). */
const portAt = (offset) => portBase + offset;
const database = portBase === 18180 ? 'gateway_bench' : `gateway_bench_${portBase}`;
const prefix = portBase === 18180 ? 'bench' : `bench${portBase}`;
const gatewayPort = portAt(0);
const local = path.join(root, '.local', 'bench');
const profileDir = path.join(local, 'profiles');
rmSync(local, { recursive: true, force: true });
mkdirSync(profileDir, { recursive: true });

const log = (line) => console.error(line);

await ensureServers({ log: () => undefined });
spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });

// Queues of this prefix that the system no longer declares (an older version's) would collect events nobody takes.
const { declarationsFor } = await import('@gateway/messaging');
const stale = deleteUndeclaredQueues(prefix, new Set(declarationsFor(prefix).queues.map((queue) => queue.name)));
if (stale.length > 0) log(`deleted queues no service consumes any more: ${stale.join(', ')}`);

const pg = (await import('pg')).default;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
await admin.end();
const urlFor = await migrateDatabase(adminUrl, database, { quiet: true });
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${database}`;

const { descriptionOf, freshKeys, Launcher, privateAppendStream, replicaPort, SERVICES, serviceEnvironment, writePrivateFile } = await import('@gateway/system');
// mail-queue's SMTP server, started before the notifier so it sends there: a real catcher (packages/testkit), counting what it takes.
const mailCatcher = !args.only || args.only.includes('mail-queue')
  ? await (await import('@gateway/testkit/mail-catcher')).MailCatcher.start({ port: 0 })
  : undefined;
/** Each service on the port base plus its usual port's offset from the gateway's (8080): the gateway on the base, the dashboard on base + 7. */
const ports = Object.fromEntries(SERVICES.map((service) => [service.name, portBase + service.port - descriptionOf('api-gateway').port]));
// The benchmark's database is its own: fresh keys of its own encrypt its secrets and sign its operator commands (D17).
const systemKeys = freshKeys({ operator: `${prefix}-operator`, dashboard: `${prefix}-dashboard` });
const wiring = {
  keys: systemKeys,
  ports,
  databaseUrl: urlFor,
  // One broker user for every service (no per-service users here), so no sender checks (D17).
  brokerUrl: () => amqpUrl,
  brokerPrefix: prefix,
  redisKeyPrefix: prefix,
  ...(mailCatcher && { smtpUrl: mailCatcher.url }),
};
const extra = {
  env: { BROKER_SHARED_USER: 'true', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
  serviceEnv: {
    dashboard: { OPS_TOTP_REQUIRED: 'false' },
    // The benchmark's receivers listen on loopback.
    'webhook-dispatcher': { WEBHOOK_ALLOW_PRIVATE: 'true' },
    // Every buyer of link-page-to-checkout comes from this one address: the page's per-address limit (D19) must not be what is measured.
    checkout: { PAYMENT_LINK_BUYER_LIMIT_PER_MINUTE: '10000' },
  },
};
const launcher = new Launcher({
  logDir: local,
  readyTimeoutMs: 30_000,
  nodeArgs: (name) => (args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`] : []),
});
/** Starts process `name` of `service` (a replica has a name of its own, `session-2`) on `port`, and waits until it is ready. */
function startProcess({ name, service = name, port = ports[service] }) {
  return launcher.start({ name, service, port, env: serviceEnvironment(service, wiring, extra) });
}

/** The reference of create-vs-reference, once started (startReference). */
let reference;

async function stopAll() {
  await Promise.all([launcher.stopAll(), reference?.child.exitCode === null && new Promise((resolve) => { reference.child.once('exit', resolve); reference.child.kill('SIGTERM'); })]);
}
process.on('SIGINT', () => stopAll().then(() => process.exit(130)));

await Promise.all(SERVICES.map(({ name }) => startProcess({ name })));

/** Every process of the benchmark that `keep` keeps (the services' and, once started, the reference's), by pid. */
function processIds(keep = () => true) {
  const all = [...launcher.running.values(), ...(reference ? [{ name: 'reference', pid: reference.pid }] : [])];
  return new Map(all.filter(keep).map(({ name, pid }) => [pid, name]));
}

/** The second session replica of create-session-replicas: its own process on the session's port + 10, the same database and queues. */
const sessionReplica = { name: 'session-2', service: 'session', port: replicaPort(ports.session, 1) };
async function setSessionReplicas(count) {
  const running = launcher.running.has(sessionReplica.name);
  if (count === 2 && !running) {
    await startProcess(sessionReplica);
  } else if (count === 1 && running) {
    // A graceful stop: its commands in flight are answered, the rest go back to the queue for the first replica.
    await launcher.stop(sessionReplica.name);
  }
}

// Merchants with limits far above what this machine can serve.
const { Broker, OperatorSigner, RpcClient } = await import('@gateway/messaging');
const { createLogger } = await import('@gateway/observability');
const broker = new Broker({ url: amqpUrl, prefix, log: createLogger({ service: 'bench', level: 'silent' }) });
await broker.start();
const rpc = await broker.register(new RpcClient(broker, 10_000, await OperatorSigner.fromJwk(JSON.parse(systemKeys.operator.privateJwk), 'bench')));
const keys = [];
const merchantIds = [];
for (let i = 0; i < Number(args.merchants); i += 1) {
  const { body } = await rpc.call('merchant.create', { name: `Bench Shop ${i}` });
  await rpc.call('limits.set', { merchant_id: body.merchant_id, mode: 'test', account: 100_000, create: 100_000, refund: 100_000 });
  keys.push(body.test_secret_key);
  merchantIds.push(body.merchant_id);
}
// Webhook scenarios give the merchants endpoints (and so every later payment a webhook): set up only when asked for.
const webhooks = !args.only || args.only.includes('webhook-') || args.only.includes('resources')
  ? await webhookBench({ rpc, merchants: merchantIds, dbUrl: dbUrl.toString(), amqpUrl, prefix })
  : undefined;
// The list scenario's merchant; its 100,000 sessions are seeded on its first run, so other scenarios run on the usual tables.
const lists = !args.only || args.only.includes('lists-')
  ? await listsBench({ rpc, sessionDbUrl: urlFor('session'), baseUrl: `http://127.0.0.1:${gatewayPort}`, count: Number(args['list-sessions']) })
  : undefined;
// The money pages' merchant (issue 29): its sessions and ledger are seeded on the first run of any of its scenarios.
const reports = !args.only || /home-|daily-report|export-/.test(args.only)
  ? await reportsBench({
    rpc,
    sessionDbUrl: urlFor('session'),
    ledgerDbUrl: urlFor('ledger'),
    baseUrl: `http://127.0.0.1:${gatewayPort}`,
    count: Number(args['report-sessions']),
    processes: () => processIds(({ name }) => name !== 'reference'),
  })
  : undefined;
await broker.stop();
log(`seeded ${keys.length} merchants`);

const autocannon = (await import('autocannon')).default;
const base = `http://127.0.0.1:${gatewayPort}/api/v1`;
let sequence = 0;
let paymentsWarm = false;
let oneClickWarm = false;
let chargesWarm = false;
let walletWarm = false;
/** wallet-payments' runs so far: the order of its two windows alternates by run. */
let walletRuns = 0;
/** Each merchant's customer with a saved card (D24), made once for the scenarios that need them. */
let savedCards;
const savedCardsOnce = async () => (savedCards ??= await saveCards({ baseUrl: `http://127.0.0.1:${gatewayPort}`, checkoutUrl: `http://127.0.0.1:${ports.checkout}`, keys }));
let refundable;
/** link-page-to-checkout's links (one per merchant) and mail-queue's event template, made on first use. */
let linkPaths;
let linksWarm = false;
let mailTemplate;

// autocannon calls setupRequest(req, context): the keys are bound by the caller, never defaulted from a second argument.
function createRequest(req) {
  return createRequestWith(req, keys);
}

function createRequestWith(req, bearerKeys) {
  sequence += 1;
  const key = bearerKeys[sequence % bearerKeys.length];
  return {
    ...req,
    headers: { ...req.headers, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: '125.500',
      merchant_reference: `bench-${process.pid}-${sequence}`,
      first_name: 'Amina',
      last_name: 'Ben Salah',
      email: 'amina@example.tn',
      description: 'Two books',
      metadata: { cart: String(sequence) },
    }),
  };
}

/**
 * The reference of create-vs-reference (../shared/perf/reference-create.mjs, one
 * process doing the create's durable work): started on first use from the project
 * root, on port base + 9 with a database of its own, and warmed up like the system.
 */
async function startReference() {
  if (reference) return reference;
  const port = portAt(20);
  const db = new URL(adminUrl);
  db.pathname = `/ref_${database}`;
  const child = spawn(process.execPath, [path.resolve(root, args.reference), '--port', String(port), '--db', db.toString()], {
    cwd: root,
    env: { ...process.env, AMQP_URL: amqpUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = privateAppendStream(path.join(local, 'reference.log'));
  child.stderr.pipe(out);
  const ready = await new Promise((resolve, reject) => {
    let text = '';
    child.once('exit', (code) => reject(new Error(`the reference ended (${code}); see ${local}/reference.log`)));
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
  });
  child.stdout.pipe(out);
  reference = { port, keys: ready.keys, pid: child.pid, child };
  await load({ url: `http://127.0.0.1:${port}`, duration: 3, requests: [{ method: 'POST', path: '/', setupRequest: (req) => createRequestWith(req, reference.keys) }] });
  return reference;
}

function load(options) {
  return new Promise((resolve, reject) => {
    autocannon({ url: base, connections: Number(args.connections), duration, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

// Sessions to read, spread over the merchants.
const readable = [];
for (let i = 0; i < 500; i += 1) {
  const req = createRequest({ headers: {} });
  const res = await fetch(`${base}/gateway/sessions/`, { method: 'POST', headers: req.headers, body: req.body });
  readable.push({ key: req.headers.authorization, id: (await res.json()).id });
}

function fromAutocannon(r) {
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

const createPath = '/api/v1/gateway/sessions/';
let scenarioRun = 0;
const replicaWarmUp = Number(args['replica-warm-up']);
const scenarios = {
  'create-saturated': async () =>
    fromAutocannon(await load({ requests: [{ method: 'POST', path: createPath, setupRequest: createRequest }], url: `http://127.0.0.1:${gatewayPort}` })),
  // The target's own model: requests due every 1/rate s, latency from when each was due.
  'create-open-rate': async () => {
    const r = await openLoad({
      url: `http://127.0.0.1:${gatewayPort}`,
      rate: Number(args.rate),
      seconds: duration,
      next: () => ({ method: 'POST', path: createPath, ...createRequest({ headers: {} }) }),
    });
    const round = (v) => Math.round(v * 10) / 10;
    return {
      rps: Math.round(r.latencies.length / r.seconds),
      p50: round(quantile(r.latencies, 0.5)),
      p90: round(quantile(r.latencies, 0.9)),
      p99: round(quantile(r.latencies, 0.99)),
      max: round(r.latencies.at(-1) ?? NaN),
      non2xx: [...r.statuses].filter(([status]) => status < 200 || status > 299).reduce((n, [, c]) => n + c, 0),
      errors: r.errors,
    };
  },
  // autocannon -R, for comparison: a per-connection quota spent at the start of each second.
  'create-autocannon-R': async () =>
    fromAutocannon(
      await load({
        requests: [{ method: 'POST', path: createPath, setupRequest: createRequest }],
        url: `http://127.0.0.1:${gatewayPort}`,
        connections: 200,
        overallRate: Number(args.rate),
      }),
    ),
  // Whole payments at a fixed rate (the issue-3 target: 150/s, p99 under 250 ms), after a warm-up.
  'payment-open-rate': async () => {
    const payments = (rate, seconds, bySecond = false) =>
      paymentLoad({
        baseUrl: `http://127.0.0.1:${gatewayPort}`,
        checkoutUrl: `http://127.0.0.1:${ports.checkout}`,
        keys,
        rate,
        seconds,
        amqpUrl,
        eventsExchange: `${prefix}.events`,
        processes: processIds(),
        bySecond,
      });
    // A running system is warm: its code compiled and its pools grown to the load. The first run starts from there too.
    const rate = Number(args['payment-rate']);
    if (!paymentsWarm) {
      const warm = await payments(rate, 10, true);
      log(`payment warm-up (${rate}/s for 10 s, not counted): ${JSON.stringify(warm)}`);
      paymentsWarm = true;
    }
    const calibrationMs = calibration();
    const result = { ...(await payments(rate, duration)), calibrationMs };
    for (const line of budgetReport(result.cpuMsPerPayment, readBudget(path.join(root, 'bench', 'payment-cpu-budget.json')), rate)) log(line);
    return result;
  },
  // D24: a one-click payment (a saved card and its security code) against a typed one, at --payment-rate,
  // one after the other in each run, after a warm-up of each.
  'one-click-vs-typed': async () => {
    const cards = await savedCardsOnce();
    const rate = Number(args['payment-rate']);
    const payments = (seconds, savedCards) =>
      paymentLoad({ baseUrl: `http://127.0.0.1:${gatewayPort}`, checkoutUrl: `http://127.0.0.1:${ports.checkout}`, keys, rate, seconds, amqpUrl, eventsExchange: `${prefix}.events`, processes: processIds(), ...(savedCards && { savedCards }) });
    if (!oneClickWarm) {
      log(`typed warm-up: ${JSON.stringify(await payments(10))}`);
      log(`one-click warm-up: ${JSON.stringify(await payments(10, cards))}`);
      oneClickWarm = true;
    }
    const calibrationMs = calibration();
    const typed = await payments(duration);
    const oneClick = await payments(duration, cards);
    return { rps: oneClick.rps, p50: oneClick.p50, p99: oneClick.p99, typed, oneClick, cpuRatio: Math.round((oneClick.cpuMsPerPayment.total / typed.cpuMsPerPayment.total) * 1000) / 1000, calibrationMs };
  },
  // D24: charges without the buyer at --charge-rate beside plain creates at the same rate.
  'off-session-beside-creates': async () => {
    const cards = await savedCardsOnce();
    const rate = Number(args['charge-rate']);
    const run = (seconds) => chargesBesideCreates({ baseUrl: `http://127.0.0.1:${gatewayPort}`, keys, cards, rate, seconds, processes: processIds() });
    if (!chargesWarm) {
      log(`off-session warm-up: ${JSON.stringify(await run(5))}`);
      chargesWarm = true;
    }
    return { ...(await run(duration)), calibrationMs: calibration() };
  },
  /**
   * D26: whole Flouci payments and whole card payments at --wallet-rate, one
   * window of each per run, their order alternating by run (so drift on a
   * shared host falls on both), after a warm-up of each and a short settle
   * before each window (the previous window's events and webhooks).
   * The wallet:card ratio is of CPU per payment over every process; the
   * sandbox stands in for Flouci on one side and for the bank on the other,
   * so the ratio without it and without the load generator is given too.
   */
  'wallet-payments': async () => {
    const rate = Number(args['wallet-rate']);
    const common = { baseUrl: `http://127.0.0.1:${gatewayPort}`, checkoutUrl: `http://127.0.0.1:${ports.checkout}`, keys, rate, amqpUrl, eventsExchange: `${prefix}.events`, processes: processIds() };
    const windows = { wallet: (seconds) => walletLoad({ ...common, seconds }), card: (seconds) => paymentLoad({ ...common, seconds }) };
    if (!walletWarm) {
      log(`wallet warm-up (${rate}/s for 10 s, not counted): ${JSON.stringify(await windows.wallet(10))}`);
      log(`card warm-up (${rate}/s for 10 s, not counted): ${JSON.stringify(await windows.card(10))}`);
      walletWarm = true;
    }
    walletRuns += 1;
    const order = walletRuns % 2 === 1 ? ['wallet', 'card'] : ['card', 'wallet'];
    const load1Before = os.loadavg()[0];
    const calibrationMs = calibration();
    const row = {};
    for (const side of order) {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      row[side] = await windows[side](duration);
    }
    const ratio = (of) => Math.round((of(row.wallet.cpuMsPerPayment) / of(row.card.cpuMsPerPayment)) * 1000) / 1000;
    const own = (cpu) => cpu.total - (cpu['epg-sandbox'] ?? 0) - (cpu['load generator'] ?? 0);
    const result = {
      rate,
      order: order.join(' then '),
      rps: row.wallet.rps,
      p50: row.wallet.p50,
      p99: row.wallet.p99,
      wallet: row.wallet,
      card: row.card,
      cpuRatio: ratio((cpu) => cpu.total),
      cpuRatioWithoutSandboxAndGenerator: ratio(own),
      machine: { model: os.cpus()[0]?.model, cores: os.cpus().length },
      load1: { before: Math.round(load1Before * 100) / 100, after: Math.round(os.loadavg()[0] * 100) / 100 },
      calibrationMs,
    };
    log(
      `wallet:card CPU per payment ${result.cpuRatio} (wallet ${row.wallet.cpuMsPerPayment.total} ms, card ${row.card.cpuMsPerPayment.total} ms; ` +
        `${result.cpuRatioWithoutSandboxAndGenerator} without the sandbox and the load generator) at ${rate}/s on ${result.machine.model}, ${result.machine.cores} cores, ` +
        `load average ${result.load1.before} before, ${result.load1.after} after`,
    );
    return result;
  },
  // What each service costs, for the requests and limits in k8s/: resident memory (peak and last)
  // and CPU (cores, averaged over the window) idle for --duration s, then under whole payments at
  // --payment-rate for --duration s (every merchant has a webhook endpoint, so each payment is also
  // a delivery), PARTIAL refunds at --refund-rate for --duration s, and idle again afterwards.
  'resources': async () => {
    const processes = processIds();
    const measure = async (work) => {
      const cpu = cpuWindow(processes);
      const rss = rssWindow(processes);
      const started = performance.now();
      const result = await work();
      const seconds = (performance.now() - started) / 1000;
      const spent = cpu.stop();
      const memory = rss.stop();
      const byService = Object.fromEntries(
        SERVICES.map(({ name }) => [name, { ...memory.get(name), cpuMillicores: Math.round(((spent.get(name) ?? 0) / seconds) * 1000) }]),
      );
      return { seconds: Math.round(seconds * 10) / 10, byService, ...(result ? { load: result } : {}) };
    };
    const idle = () => new Promise((resolve) => setTimeout(resolve, duration * 1000));
    const before = await measure(idle);
    const rate = Number(args['payment-rate']);
    const payments = await measure(() =>
      paymentLoad({ baseUrl: `http://127.0.0.1:${gatewayPort}`, checkoutUrl: `http://127.0.0.1:${ports.checkout}`, keys, rate, seconds: duration, amqpUrl, eventsExchange: `${prefix}.events`, processes }),
    );
    refundable ??= await paidSessions({ baseUrl: `http://127.0.0.1:${gatewayPort}`, checkoutUrl: `http://127.0.0.1:${ports.checkout}`, keys, count: 200 });
    const refunds = await measure(() => refundLoad({ baseUrl: `http://127.0.0.1:${gatewayPort}`, sessions: refundable, rate: Number(args['refund-rate']), seconds: duration }));
    const after = await measure(idle);
    return { paymentRate: rate, refundRate: Number(args['refund-rate']), calibrationMs: calibration(), idle: before, payments, refunds, idleAfter: after };
  },
  // PARTIAL refunds at a fixed rate over paid sessions, each read back at once (D16: the read must show it).
  'refund-open-rate': async () => {
    refundable ??= await paidSessions({ baseUrl: `http://127.0.0.1:${gatewayPort}`, checkoutUrl: `http://127.0.0.1:${ports.checkout}`, keys, count: 200 });
    return refundLoad({ baseUrl: `http://127.0.0.1:${gatewayPort}`, sessions: refundable, rate: Number(args['refund-rate']), seconds: duration });
  },
  /**
   * Captures of held payments (D22) and PARTIAL refunds at the same --refund-rate, one after
   * the other in each run: both wait on the sandbox acquirer, so their throughput and p99 sit
   * side by side. Each capture takes its own AUTHORIZED session, paid before the window.
   */
  'capture-vs-refund': async () => {
    const base = { baseUrl: `http://127.0.0.1:${gatewayPort}`, checkoutUrl: `http://127.0.0.1:${ports.checkout}`, keys };
    const rate = Number(args['refund-rate']);
    const held = await paidSessions({ ...base, count: Math.ceil(rate * duration * 1.1), captureMethod: 'manual' });
    refundable ??= await paidSessions({ ...base, count: 200 });
    // The payments' own work (events, webhooks) settles first; the two then go in turn, first one, then the other, alternating by run.
    const settle = () => new Promise((resolve) => setTimeout(resolve, 5_000));
    const captures = async () => (await settle(), captureLoad({ baseUrl: base.baseUrl, sessions: held, rate, seconds: duration }));
    const refunds = async () => (await settle(), refundLoad({ baseUrl: base.baseUrl, sessions: refundable, rate, seconds: duration }));
    scenarioRun += 1;
    const row = {};
    if (scenarioRun % 2 === 1) {
      row.captures = await captures();
      row.refunds = await refunds();
    } else {
      row.refunds = await refunds();
      row.captures = await captures();
    }
    return { rate, ...row, calibrationMs: calibration() };
  },
  // One dispatcher: deliveries/s from a backlog to a receiver that verifies every signature (target 1,000/s).
  'webhook-saturated': async () => webhooks.saturated(Number(args['webhook-backlog'])),
  // The same backlog of events, each to 3 endpoints of its merchant (issue 19): deliveries/s, to set beside the line above.
  'webhook-saturated-fanout3': async () => webhooks.saturated(Number(args['webhook-backlog']), { fanOut: true }),
  // Commit-to-arrival latency at a fixed rate (target: 500 events/s, p99 under 100 ms).
  'webhook-open-rate': async () => webhooks.openRate(Number(args['webhook-rate']), duration),
  /**
   * Saturated creates with one and with two session replicas, one run of each
   * (their order alternating from run to run, so drift on a shared machine
   * falls on both): requests/s, latency, and CPU per create by process over
   * the run, the session replicas summed.
   */
  'create-session-replicas': async () => {
    scenarioRun += 1;
    const order = scenarioRun % 2 === 1 ? [1, 2] : [2, 1];
    const row = {};
    for (const count of order) {
      await setSessionReplicas(count);
      // A freshly started replica compiles its code and grows its pool under load: 10 s of it first (not measured), for both variants alike.
      await load({ requests: [{ method: 'POST', path: createPath, setupRequest: createRequest }], url: `http://127.0.0.1:${gatewayPort}`, duration: replicaWarmUp });
      const window = cpuWindow(new Map([...processIds()].map(([pid, name]) => [pid, name.replace(/-2$/, '')])));
      const result = fromAutocannon(await load({ requests: [{ method: 'POST', path: createPath, setupRequest: createRequest }], url: `http://127.0.0.1:${gatewayPort}` }));
      row[count === 1 ? 'one' : 'two'] = { ...result, cpuMsPerCreate: perUnit(window.stop(), result.rps * duration) };
    }
    await setSessionReplicas(1);
    return { ...row, calibrationMs: calibration() };
  },
  // Creates and gets while --slow-payments payments with the slow test card wait on the acquirer (issue 18: p99 under 100 ms, no 5xx).
  // The sandbox answers that card after 30 s and the adapter gives up at 15 s: keep --duration under 12 s so they stay in flight.
  'slow-payments': async () => ({
    ...(await slowPaymentsLoad({
      baseUrl: `http://127.0.0.1:${gatewayPort}`,
      checkoutUrl: `http://127.0.0.1:${ports.checkout}`,
      keys,
      count: Number(args['slow-payments']),
      clients: Number(args['slow-clients']),
      seconds: duration,
    })),
    calibrationMs: calibration(),
  }),
  /**
   * Saturated creates through the system, then through the reference, with the
   * same generator, connections, body and duration (issue 18): requests/s and
   * latency of each, their ratio, CPU per create by process (the servers are
   * shared, so their share is read in each half) and the 1-minute load average.
   */
  'create-vs-reference': async () => {
    const ref = await startReference();
    // The servers are shared with whatever else runs here: PostgreSQL backends are told apart by database.
    const databases = new Map([[database, 'postgres (system)'], [`ref_${database}`, 'postgres (reference)']]);
    const measured = async (url, path, bearerKeys, pids) => {
      const window = cpuWindow(pids, databases);
      const load1 = os.loadavg()[0];
      const result = fromAutocannon(await load({ url, requests: [{ method: 'POST', path, setupRequest: (req) => createRequestWith(req, bearerKeys) }] }));
      return { ...result, cpuMsPerCreate: perUnit(window.stop(), result.rps * duration), load1: Math.round(load1 * 100) / 100 };
    };
    const system = await measured(`http://127.0.0.1:${gatewayPort}`, createPath, keys, processIds(({ name }) => name !== 'reference'));
    const referenceRow = await measured(`http://127.0.0.1:${ref.port}`, '/', ref.keys, new Map([[ref.pid, 'reference']]));
    return { system, reference: referenceRow, ratio: Math.round((system.rps / referenceRow.rps) * 1000) / 1000, calibrationMs: calibration() };
  },
  // Buyers of payment links at --link-rate (issue 28: p99 under 100 ms at 50/s, page to checkout page), after a 5 s warm-up on the first run.
  'link-page-to-checkout': async () => {
    linkPaths ??= await makeLinks({ baseUrl: `http://127.0.0.1:${gatewayPort}`, keys });
    const buyers = (seconds) =>
      linkLoad({ checkoutUrl: `http://127.0.0.1:${ports.checkout}`, linkPaths, rate: Number(args['link-rate']), seconds, processes: processIds(({ name }) => name !== 'reference') });
    if (!linksWarm) log(`link warm-up (5 s, not counted): ${JSON.stringify(await buyers(5))}`);
    linksWarm = true;
    return { ...(await buyers(duration)), calibrationMs: calibration() };
  },
  // --mail-count receipts through the notifier's mail queue to the bench's SMTP catcher (issue 28), from clones of a real payment's session.succeeded.
  'mail-queue': async () => {
    const eventsExchange = `${prefix}.events`;
    mailTemplate ??= await succeededTemplate({
      amqpUrl,
      eventsExchange,
      pay: () => paidSessions({ baseUrl: `http://127.0.0.1:${gatewayPort}`, checkoutUrl: `http://127.0.0.1:${ports.checkout}`, keys, count: 1 }),
    });
    // The real payment's own receipt goes first.
    const caughtBefore = mailCatcher.mails.length;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const result = await mailQueue({
      amqpUrl,
      eventsExchange,
      template: mailTemplate,
      catcher: mailCatcher,
      notifierDbUrl: urlFor('notifier'),
      turnOnTestReceipts: (merchantId) => rpc.call('receipts.settings.set', { merchant_id: merchantId, mode: 'test', receipts_enabled: true }),
      count: Number(args['mail-count']),
      processes: processIds(({ name }) => name !== 'reference'),
    });
    return { ...result, otherMailsCaught: mailCatcher.mails.length - caughtBefore - result.caught, calibrationMs: calibration() };
  },
  // The dashboard's Payments page (issue 15: p99 under 150 ms with 100,000 sessions on one merchant), closed loop.
  'lists-100k': async () => lists.run({ requests: Number(args['list-requests']), concurrency: Number(args['list-concurrency']) }),
  // The money pages (issue 29, D21), one scenario per target, on one merchant with 100,000 sessions over a year:
  // the dashboard's Home page (p99 under 150 ms) and the daily report of 366 days (p99 under 100 ms), closed loop.
  'home-100k': async () => reports.home({ requests: Number(args['report-requests']), concurrency: Number(args['report-concurrency']) }),
  'daily-report-year': async () => reports.dailyReport({ requests: Number(args['report-requests']), concurrency: Number(args['report-concurrency']) }),
  // One CSV export of the 100,000 sessions (under 10 s to the last byte; the gateway's and the session's memory flat).
  'export-sessions-100k': async () => ({ ...(await reports.exportSessions()), calibrationMs: calibration() }),
  'get-saturated': async () =>
    fromAutocannon(
      await load({
        url: `http://127.0.0.1:${gatewayPort}`,
        requests: [
          {
            method: 'GET',
            setupRequest: (req) => {
              sequence += 1;
              const target = readable[sequence % readable.length];
              return { ...req, path: `/api/v1/gateway/sessions/${target.id}/`, headers: { ...req.headers, authorization: target.key } };
            },
          },
        ],
      }),
    ),
};

const selected = args.only ? args.only.split(',') : Object.keys(scenarios);
await load({ requests: [{ method: 'POST', path: '/api/v1/gateway/sessions/', setupRequest: createRequest }], url: `http://127.0.0.1:${gatewayPort}`, duration: 3 });

const results = {};
for (const name of selected) {
  results[name] = [];
  for (let run = 1; run <= runs; run += 1) {
    log(`${name} run ${run}: started`);
    const row = await scenarios[name]();
    results[name].push(row);
    log(`${name} run ${run}: ${JSON.stringify(row)}`);
  }
}

await webhooks?.close();
await stopAll();
await mailCatcher?.stop();

const spread = (rows, key) => {
  const values = rows.map((r) => r[key]).sort((a, b) => a - b);
  return { median: values[Math.floor(values.length / 2)], min: values[0], max: values.at(-1) };
};
const summary = {
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
  settings: { runs, duration, connections: Number(args.connections), merchants: keys.length, fixedRate: Number(args.rate) },
  scenarios: Object.fromEntries(
    Object.entries(results).map(([name, rows]) => [
      name,
      // A paired scenario (create-session-replicas) has a row per variant in each run.
      rows[0]?.reference
        ? (() => {
            const side = (key) => ({ rps: spread(rows.map((r) => r[key]), 'rps'), p50: spread(rows.map((r) => r[key]), 'p50'), p99: spread(rows.map((r) => r[key]), 'p99'), load1: spread(rows.map((r) => r[key]), 'load1') });
            const system = side('system');
            const ref = side('reference');
            return { system, reference: ref, ratioOfMedians: Math.round((system.rps.median / ref.rps.median) * 1000) / 1000, ratio: spread(rows, 'ratio'), runs: rows };
          })()
        : rows[0]?.one
        ? {
            ...Object.fromEntries(
              ['one', 'two'].map((variant) => {
                const variantRows = rows.map((r) => ({ ...r[variant], sessionCpuMs: r[variant].cpuMsPerCreate.session, totalCpuMs: r[variant].cpuMsPerCreate.total }));
                return [variant, { rps: spread(variantRows, 'rps'), p50: spread(variantRows, 'p50'), p99: spread(variantRows, 'p99'), sessionCpuMsPerCreate: spread(variantRows, 'sessionCpuMs'), totalCpuMsPerCreate: spread(variantRows, 'totalCpuMs') }];
              }),
            ),
            runs: rows,
          }
        : rows[0]?.wallet
        ? {
            ...Object.fromEntries(
              ['wallet', 'card'].map((side) => {
                const sideRows = rows.map((r) => ({ ...r[side], totalCpuMs: r[side].cpuMsPerPayment.total }));
                return [side, { rps: spread(sideRows, 'rps'), p50: spread(sideRows, 'p50'), p99: spread(sideRows, 'p99'), cpuMsPerPayment: spread(sideRows, 'totalCpuMs') }];
              }),
            ),
            cpuRatio: spread(rows, 'cpuRatio'),
            cpuRatioWithoutSandboxAndGenerator: spread(rows, 'cpuRatioWithoutSandboxAndGenerator'),
            runs: rows,
          }
        : rows[0]?.buyersPerSecond !== undefined
        ? { buyersPerSecond: spread(rows, 'buyersPerSecond'), p50: spread(rows, 'p50'), p95: spread(rows, 'p95'), p99: spread(rows, 'p99'), runs: rows }
        : rows[0]?.mailsPerSecond !== undefined
        ? { mailsPerSecond: spread(rows, 'mailsPerSecond'), secondsFromFirstWritten: spread(rows, 'secondsFromFirstWritten'), runs: rows }
        : rows[0]?.rowsPerSecond !== undefined
        ? {
            seconds: spread(rows, 'seconds'),
            gatewayRssGrowthMiB: spread(rows.map((r) => r.rss['api-gateway'] ?? {}), 'growthMiB'),
            sessionRssGrowthMiB: spread(rows.map((r) => r.rss.session ?? {}), 'growthMiB'),
            pageGapP99: spread(rows, 'p99'),
            runs: rows,
          }
        : { rps: spread(rows, 'rps'), p50: spread(rows, 'p50'), p99: spread(rows, 'p99'), runs: rows },
    ]),
  ),
};
writePrivateFile(path.join(local, 'results.json'), JSON.stringify(summary, null, 2));
console.log(JSON.stringify(summary, null, 2));

if (args.profile) {
  for (const file of readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'))) {
    console.log(`\n${file}: self time by function (top 25) and by package`);
    summarizeProfile(JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')));
  }
}

/**
 * Milliseconds a fixed CPU workload (100,000 SHA-256 digests) takes right now:
 * how fast the shared host is running, reported with each payment run. The
 * same workload takes from about 150 to over 280 ms on the same machine within
 * an hour (2026-11-24): figures are comparable only at similar values.
 */
function calibration() {
  const data = Buffer.alloc(64, 1);
  const started = performance.now();
  for (let i = 0; i < 100_000; i += 1) createHash('sha256').update(data).digest();
  return Math.round(performance.now() - started);
}

/** Prints where a V8 CPU profile spent its samples: by function and by package. */
function summarizeProfile(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfCount = new Map();
  for (const id of profile.samples) selfCount.set(id, (selfCount.get(id) ?? 0) + 1);
  const total = profile.samples.length;
  const byFunction = new Map();
  const byPackage = new Map();
  for (const [id, count] of selfCount) {
    const { callFrame } = byId.get(id);
    const where = callFrame.url.replace(/^file:\/\//, '').replace(root, '');
    const fn = `${callFrame.functionName || '(anonymous)'} ${where.split('/').slice(-2).join('/')}:${callFrame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + count);
    const pkg = where.includes('node_modules/')
      ? where.split('node_modules/').at(-1).split('/').slice(0, where.split('node_modules/').at(-1).startsWith('@') ? 2 : 1).join('/')
      : where.startsWith('/services') || where.startsWith('/packages')
        ? where.split('/').slice(1, 3).join('/')
        : where.startsWith('node:')
          ? 'node core'
          : callFrame.functionName.startsWith('(') ? callFrame.functionName : 'node core/native';
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + count);
  }
  const pct = (n) => `${((100 * n) / total).toFixed(1).padStart(5)}%`;
  for (const [fn, n] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${pct(n)}  ${fn}`);
  console.log('  --');
  for (const [pkg, n] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(n)}  ${pkg}`);
}
