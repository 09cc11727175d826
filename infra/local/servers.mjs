#!/usr/bin/env node
// Makes sure PostgreSQL, RabbitMQ and Redis answer on a developer or CI machine.
//
//   node infra/local/servers.mjs        ensure all three, exit 0 (or exit 1 with a message)
//   import { ensureServers, restartBroker } from './servers.mjs'
//
// For each server (targets from DATABASE_ADMIN_URL, AMQP_URL, REDIS_URL):
//   1. it answers its own protocol               -> "<name>: already running"
//   2. the host is not loopback                  -> error naming the URL (nothing is started)
//   3. a Docker engine answers (`docker info`)   -> `docker compose up -d <missing servers>`
//   4. otherwise                                 -> apt-get install what is missing (Debian),
//                                                   start it with the machine's own commands
// then waits until it answers, with a deadline per server.
//
// Plain Node ESM, built-in modules only: it runs before `npm ci` has built anything.
// External commands write to a temporary file rather than to pipes, so that a server
// that daemonizes and keeps inherited descriptors open cannot make us (or whoever
// runs us with piped output) wait for it; that output is shown only when a command fails.

import { spawnSync } from 'node:child_process';
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const COMPOSE_FILE = path.join(REPO_ROOT, 'docker-compose.yml');

const POLL_MS = 500;
const PROBE_TIMEOUT_MS = 2_000;
const COMMAND_TIMEOUT_MS = 3 * 60_000;
const APT_TIMEOUT_MS = 20 * 60_000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

// ---------------------------------------------------------------------------
// The three servers
// ---------------------------------------------------------------------------

const POSTGRES = {
  name: 'postgres',
  envVar: 'DATABASE_ADMIN_URL',
  defaultUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
  schemes: ['postgres:', 'postgresql:'],
  standardPort: 5432,
  deadlineMs: 60_000,
  composeService: 'postgres',
  aptPackage: 'postgresql',
  isInstalled: () => Boolean(findCommand('pg_ctlcluster')) && postgresServerVersions().length > 0,
  probe: probePostgres,
  afterInstall: configurePostgresAfterInstall,
  startLocally: startPostgres,
  logHint: '/var/log/postgresql/',
};

const RABBITMQ = {
  name: 'rabbitmq',
  envVar: 'AMQP_URL',
  defaultUrl: 'amqp://guest:guest@127.0.0.1:5672',
  schemes: ['amqp:'],
  standardPort: 5672,
  deadlineMs: 120_000,
  composeService: 'rabbitmq',
  aptPackage: 'rabbitmq-server',
  isInstalled: () => Boolean(findCommand('rabbitmq-server') && findCommand('rabbitmqctl')),
  probe: probeAmqp,
  afterInstall: configureRabbitmqAfterInstall,
  startLocally: startRabbitmq,
  logHint: '/var/log/rabbitmq/',
};

const REDIS = {
  name: 'redis',
  envVar: 'REDIS_URL',
  defaultUrl: 'redis://127.0.0.1:6379',
  schemes: ['redis:'],
  standardPort: 6379,
  deadlineMs: 20_000,
  composeService: 'redis',
  aptPackage: 'redis-server',
  isInstalled: () => Boolean(findCommand('redis-server')),
  probe: probeRedis,
  afterInstall: () => {},
  startLocally: startRedis,
  logHint: '/var/log/redis/ci.log',
};

const SERVERS = [POSTGRES, RABBITMQ, REDIS];

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

/**
 * Ensures PostgreSQL, RabbitMQ and Redis answer at the URLs from the environment,
 * starting (and on a Debian machine without Docker, installing) the ones that don't.
 * Logs one line per server; throws an Error with a readable message on failure.
 */
export async function ensureServers({ log = console.error } = {}) {
  const targets = SERVERS.map(resolveTarget);

  const missing = [];
  for (const target of targets) {
    const answer = await target.server.probe(target);
    if (answer.ok) log(`${target.server.name}: already running`);
    else missing.push({ target, reason: answer.detail });
  }
  if (missing.length === 0) return;

  const problems = [];
  for (const { target, reason } of missing) {
    if (!target.loopback) {
      problems.push(
        `${target.server.name}: ${target.safeUrl} (${target.server.envVar}) does not answer (${reason}); ` +
          'it is not on this machine, so servers.mjs cannot start it',
      );
    } else if (target.port !== target.server.standardPort) {
      problems.push(
        `${target.server.name}: ${target.safeUrl} (${target.server.envVar}) does not answer (${reason}); ` +
          `servers.mjs only starts ${target.server.name} on its standard port ${target.server.standardPort}`,
      );
    }
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));

  const targetsToStart = missing.map((m) => m.target);
  if (dockerEngineAnswers()) {
    await startWithCompose(targetsToStart, log);
  } else {
    await startOnThisMachine(targetsToStart, log);
  }
}

/**
 * Restarts the RabbitMQ broker on this machine and resolves once it answers AMQP again.
 * For tests of connection recovery. Uses the compose container when there is one,
 * otherwise `rabbitmqctl stop_app` + `start_app` on the local node.
 */
export async function restartBroker({ log = () => {} } = {}) {
  const target = resolveTarget(RABBITMQ);
  if (!target.loopback) {
    throw new Error(`restartBroker: ${target.safeUrl} (AMQP_URL) is not on this machine; cannot restart it`);
  }

  const compose = dockerEngineAnswers() ? composeCommand({ required: false }) : undefined;
  if (compose && composeHasContainer(compose, RABBITMQ.composeService)) {
    log('rabbitmq: docker compose restart rabbitmq');
    runOrThrow(compose.cmd, [...compose.args, 'restart', RABBITMQ.composeService], 'restart the rabbitmq container');
  } else if (findCommand('rabbitmqctl')) {
    log('rabbitmq: rabbitmqctl stop_app / start_app');
    const stopped = run('rabbitmqctl', ['stop_app']);
    if (stopped.ok) {
      runOrThrow('rabbitmqctl', ['start_app'], 'start the RabbitMQ application');
    } else {
      // The node itself is not running (or not reachable): start it from scratch.
      startRabbitmq();
    }
  } else {
    throw new Error('restartBroker: no rabbitmq compose container and no rabbitmqctl on this machine');
  }

  await waitUntilReady(target);
}

// ---------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------

function resolveTarget(server) {
  const raw = process.env[server.envVar] || server.defaultUrl;
  let url;
  try {
    url = new URL(raw);
  } catch {
    // Not echoing the value: it may hold a password.
    throw new Error(`${server.envVar} is not a valid URL`);
  }
  const safe = new URL(url.href);
  if (safe.password) safe.password = '***';
  const safeUrl = safe.href.replace(/\/$/, '');

  if (!server.schemes.includes(url.protocol)) {
    throw new Error(`${server.envVar}=${safeUrl}: expected a ${server.schemes.map((s) => `${s}//`).join(' or ')} URL`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    server,
    url,
    safeUrl,
    host,
    port: url.port ? Number(url.port) : server.standardPort,
    loopback: LOOPBACK_HOSTS.has(host.toLowerCase()),
  };
}

// ---------------------------------------------------------------------------
// Protocol probes: each resolves { ok, detail } and never rejects
// ---------------------------------------------------------------------------

/**
 * Connects, writes `request`, and feeds everything received to `decide(buffer)`,
 * which returns undefined (need more bytes) or the { ok, detail } answer.
 */
function exchange({ host, port }, request, decide) {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    let settled = false;
    const socket = net.connect({ host, port });
    const finish = (answer) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () =>
      finish({ ok: false, detail: `port ${port} gave no answer within ${PROBE_TIMEOUT_MS / 1000} s` }),
    );
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const answer = decide(received);
      if (answer) finish(answer);
    });
    socket.on('end', () => finish({ ok: false, detail: `port ${port} closed the connection without a valid answer` }));
    socket.on('close', () => finish({ ok: false, detail: `port ${port} closed the connection without a valid answer` }));
    socket.on('error', (err) =>
      finish({
        ok: false,
        detail: err.code === 'ECONNREFUSED' ? `nothing listens on port ${port}` : `port ${port}: ${err.code || err.message}`,
      }),
    );
  });
}

/** Redis: PING must answer +PONG (after AUTH when the URL carries a password). */
function probeRedis(target) {
  const { url } = target;
  const password = decodeURIComponent(url.password);
  const username = decodeURIComponent(url.username);
  let request = 'PING\r\n';
  let replies = 1;
  if (password) {
    const words = username ? ['AUTH', username, password] : ['AUTH', password];
    request = respArray(words) + request;
    replies = 2;
  }
  return exchange(target, request, (buffer) => {
    const lines = buffer.toString('latin1').split('\r\n');
    if (lines.length <= replies) return undefined; // not all replies are complete yet
    const last = lines[replies - 1];
    if (last === '+PONG') return { ok: true, detail: 'PONG' };
    const error = lines.slice(0, replies).find((line) => line.startsWith('-')) || last;
    return { ok: false, detail: `redis answered ${error.slice(0, 120)}` };
  });
}

function respArray(words) {
  return `*${words.length}\r\n` + words.map((w) => `$${Buffer.byteLength(w)}\r\n${w}\r\n`).join('');
}

/** RabbitMQ: the AMQP 0-9-1 header must be answered by a Connection.Start method frame. */
function probeAmqp(target) {
  const header = Buffer.from([0x41, 0x4d, 0x51, 0x50, 0x00, 0x00, 0x09, 0x01]); // "AMQP" 0 0 9 1
  return exchange(target, header, (buffer) => {
    if (buffer.length >= 4 && buffer.toString('latin1', 0, 4) === 'AMQP') {
      return { ok: false, detail: 'the server does not speak AMQP 0-9-1' };
    }
    if (buffer.length >= 1 && buffer[0] !== 1) {
      return { ok: false, detail: `unexpected AMQP answer (frame type ${buffer[0]})` };
    }
    if (buffer.length < 11) return undefined;
    // type(1) channel(2) size(4) class-id(2) method-id(2): Connection.Start is class 10, method 10.
    const classId = buffer.readUInt16BE(7);
    const methodId = buffer.readUInt16BE(9);
    if (classId === 10 && methodId === 10) return { ok: true, detail: 'Connection.Start' };
    return { ok: false, detail: `unexpected AMQP method ${classId}.${methodId}` };
  });
}

/**
 * PostgreSQL: `pg_isready` when the client is installed, otherwise the same check over
 * the wire (a startup message; any answer but "the database system is starting up"
 * means the server accepts connections).
 */
function probePostgres(target) {
  const user = decodeURIComponent(target.url.username) || 'postgres';
  const database = decodeURIComponent(target.url.pathname.replace(/^\//, '')) || user;
  const pgIsready = findCommand('pg_isready');
  if (pgIsready) {
    const result = spawnSync(
      pgIsready,
      ['-q', '-h', target.host, '-p', String(target.port), '-U', user, '-d', database, '-t', '2'],
      { stdio: 'ignore', timeout: 10_000 },
    );
    if (result.status === 0) return Promise.resolve({ ok: true, detail: 'accepting connections' });
    const why = { 1: 'rejecting connections (starting up or shutting down)', 2: `nothing answers on port ${target.port}` };
    return Promise.resolve({ ok: false, detail: `pg_isready: ${why[result.status] || `exit ${result.status}`}` });
  }

  const params = Buffer.from(`user\0${user}\0database\0${database}\0\0`, 'utf8');
  const startup = Buffer.alloc(8 + params.length);
  startup.writeInt32BE(startup.length, 0);
  startup.writeInt32BE(196608, 4); // protocol 3.0
  params.copy(startup, 8);
  return exchange(target, startup, (buffer) => {
    const type = String.fromCharCode(buffer[0]);
    if (type === 'R' || type === 'v') return { ok: true, detail: 'accepting connections' };
    if (type !== 'E') return { ok: false, detail: `unexpected answer from port ${target.port}` };
    if (buffer.length < 5 || buffer.length < 1 + buffer.readInt32BE(1)) return undefined;
    const sqlstate = /\0C([0-9A-Z]{5})\0/.exec(buffer.toString('latin1'))?.[1];
    if (sqlstate === '57P03') return { ok: false, detail: 'the database system is starting up' };
    return { ok: true, detail: `accepting connections (answered ${sqlstate})` };
  });
}

async function waitUntilReady(target) {
  const { server } = target;
  const deadline = Date.now() + server.deadlineMs;
  for (;;) {
    const answer = await server.probe(target);
    if (answer.ok) return;
    if (Date.now() >= deadline) {
      throw new Error(
        `${server.name}: ${target.safeUrl} still does not answer after ${server.deadlineMs / 1000} s ` +
          `(${answer.detail}); see ${server.logHint}`,
      );
    }
    await sleep(POLL_MS);
  }
}

// ---------------------------------------------------------------------------
// With a Docker engine
// ---------------------------------------------------------------------------

/**
 * Deletes the queues under `prefix` that `declared` does not name: left on the
 * broker by an older version of the system, where nothing consumes them any
 * more and events would pile up. Needs rabbitmqctl on this host (a local
 * broker); answers the names deleted.
 */
export function deleteUndeclaredQueues(prefix, declared) {
  const listed = spawnSync('rabbitmqctl', ['-q', 'list_queues', '--no-table-headers', 'name'], { encoding: 'utf8' });
  if (listed.status !== 0) return [];
  const stale = listed.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((name) => name.startsWith(`${prefix}.`) && !declared.has(name));
  for (const name of stale) spawnSync('rabbitmqctl', ['-q', 'delete_queue', name], { stdio: 'ignore' });
  return stale;
}

export function dockerEngineAnswers() {
  return Boolean(findCommand('docker')) && run('docker', ['info'], { timeoutMs: 30_000 }).ok;
}

function composeCommand({ required = true } = {}) {
  if (run('docker', ['compose', 'version']).ok) return { cmd: 'docker', args: ['compose', '-f', COMPOSE_FILE] };
  if (findCommand('docker-compose')) return { cmd: 'docker-compose', args: ['-f', COMPOSE_FILE] };
  if (!required) return undefined;
  throw new Error('a Docker engine answers, but neither `docker compose` nor `docker-compose` is installed');
}

function composeHasContainer(compose, service) {
  const result = run(compose.cmd, [...compose.args, 'ps', '-q', service]);
  return result.ok && result.output.trim().length > 0;
}

async function startWithCompose(targets, log) {
  const compose = composeCommand();
  const services = targets.map((t) => t.server.composeService);
  runOrThrow(compose.cmd, [...compose.args, 'up', '-d', ...services], `start ${services.join(', ')} with docker compose`);
  await Promise.all(
    targets.map(async (target) => {
      await waitUntilReady(target).catch((err) => {
        err.message += `\n(docker compose logs ${target.server.composeService} shows why)`;
        throw err;
      });
      log(`${target.server.name}: started`);
    }),
  );
}

// ---------------------------------------------------------------------------
// Without Docker: Debian packages and the machine's own start commands
// ---------------------------------------------------------------------------

async function startOnThisMachine(targets, log) {
  const toInstall = targets.filter((t) => !t.server.isInstalled());
  if (toInstall.length > 0) {
    installDebianPackages(toInstall.map((t) => t.server.aptPackage));
    for (const target of toInstall) target.server.afterInstall();
  }

  // Start all first (RabbitMQ's boot is slow), then wait for all.
  for (const target of targets) {
    if ((await target.server.probe(target)).ok) continue; // a package's post-install may have started it
    target.server.startLocally();
  }
  await Promise.all(
    targets.map(async (target) => {
      await waitUntilReady(target);
      log(`${target.server.name}: ${toInstall.includes(target) ? 'installed and started' : 'started'}`);
    }),
  );
}

function installDebianPackages(packages) {
  if (!findCommand('apt-get')) {
    throw new Error(`${packages.join(', ')} not installed, and this is not a Debian machine (no apt-get); install them or a Docker engine`);
  }
  if (process.getuid?.() !== 0) {
    throw new Error(`${packages.join(', ')} not installed; run as root, or: sudo apt-get install -y ${packages.join(' ')}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  runOrThrow('apt-get', ['update'], 'apt-get update', { env, timeoutMs: APT_TIMEOUT_MS });
  runOrThrow('apt-get', ['install', '-y', ...packages], `apt-get install ${packages.join(' ')}`, {
    env,
    timeoutMs: APT_TIMEOUT_MS,
  });
}

// --- PostgreSQL -------------------------------------------------------------

/** Versions with a server binary under /usr/lib/postgresql, newest first. */
function postgresServerVersions() {
  return listVersions('/usr/lib/postgresql').filter((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/postgres`));
}

/** The cluster version to use: the newest one configured under /etc/postgresql with a `main` cluster. */
function postgresClusterVersion() {
  const version = listVersions('/etc/postgresql').find((v) => fs.existsSync(`/etc/postgresql/${v}/main/postgresql.conf`));
  if (!version) throw new Error('postgres: no cluster under /etc/postgresql/<version>/main (pg_createcluster <version> main makes one)');
  return version;
}

function listVersions(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => /^\d+(\.\d+)?$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
}

function configurePostgresAfterInstall() {
  // The package normally creates the `main` cluster itself; make one if it did not.
  if (!listVersions('/etc/postgresql').some((v) => fs.existsSync(`/etc/postgresql/${v}/main/postgresql.conf`))) {
    const [version] = postgresServerVersions();
    runOrThrow('pg_createcluster', [version, 'main'], `create PostgreSQL cluster ${version}/main`);
  }
  const version = postgresClusterVersion();
  const hbaFile = `/etc/postgresql/${version}/main/pg_hba.conf`;

  // DEVELOPMENT/CI MACHINE SETTING, never for a shared or production server:
  // Debian's default pg_hba.conf asks for a password on 127.0.0.1 and ::1, but the
  // default DATABASE_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres) has none.
  // Trust every loopback TCP connection, as the postgres:15 container does with
  // POSTGRES_HOST_AUTH_METHOD=trust. The lines go before the existing host lines
  // because pg_hba.conf uses the first line that matches.
  const current = fs.readFileSync(hbaFile, 'utf8');
  const updated = withLoopbackTrust(current);
  if (updated === current) return;
  fs.writeFileSync(hbaFile, updated);

  // Reload if the package's post-install already started the cluster; otherwise the start reads it.
  if (run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'status']).ok) {
    runOrThrow('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'reload'], 'reload PostgreSQL');
  }
}

/** pg_hba.conf text with loopback `trust` lines before its first host line (unchanged if they are there). */
export function withLoopbackTrust(text) {
  const wanted = [
    ['127.0.0.1/32', 'host all all 127.0.0.1/32 trust'],
    ['::1/128', 'host all all ::1/128 trust'],
  ];
  const lines = text.split('\n');
  const isActive = (line) => line.trim() !== '' && !line.trim().startsWith('#');
  const alreadyTrusted = (address) =>
    lines.some(
      (line) => isActive(line) && new RegExp(`^\\s*host\\s+all\\s+all\\s+${escapeRegExp(address)}\\s+trust\\s*$`).test(line),
    );
  const toAdd = wanted.filter(([address]) => !alreadyTrusted(address)).map(([, line]) => line);
  if (toAdd.length === 0) return text;

  const firstHostLine = lines.findIndex((line) => isActive(line) && /^\s*host/.test(line));
  const at = firstHostLine === -1 ? lines.length : firstHostLine;
  lines.splice(at, 0, '# Added by infra/local/servers.mjs: trust loopback (development/CI machine only)', ...toAdd);
  return lines.join('\n');
}

function startPostgres() {
  const version = postgresClusterVersion();
  const started = run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
  // Exit 2 with "already running" is fine: the wait below decides.
  if (!started.ok && !run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'status']).ok) {
    throw commandError(started, `start PostgreSQL ${version}/main`);
  }
}

// --- RabbitMQ ---------------------------------------------------------------

function configureRabbitmqAfterInstall() {
  // Listen on loopback only, on the standard port. The guest/guest user exists by
  // default and may log in from loopback only, which is what AMQP_URL uses.
  // NODENAME=rabbit@localhost: RabbitMQ keeps its data in a directory named after the
  // node, and the default name contains the host name, which changes between CI
  // machines and containers; `localhost` always resolves.
  const confFile = '/etc/rabbitmq/rabbitmq.conf';
  const envFile = '/etc/rabbitmq/rabbitmq-env.conf';
  const conf = readIfExists(confFile);
  const env = readIfExists(envFile);
  const needsListener = !/^\s*listeners\.tcp\./m.test(conf);
  const needsNodename = !/^\s*(export\s+)?(RABBITMQ_)?NODENAME=/m.test(env);
  if (!needsListener && !needsNodename) return;

  // The package's post-install may have started the node under its default name;
  // stop it before renaming, or rabbitmqctl could no longer reach it.
  if (run('rabbitmqctl', ['-q', 'ping']).ok) runOrThrow('rabbitmqctl', ['stop'], 'stop RabbitMQ to configure it');

  fs.mkdirSync('/etc/rabbitmq', { recursive: true });
  if (needsListener) {
    fs.writeFileSync(confFile, `${conf}${conf && !conf.endsWith('\n') ? '\n' : ''}listeners.tcp.local = 127.0.0.1:5672\n`);
  }
  if (needsNodename) {
    const extra = 'NODENAME=rabbit@localhost\nERL_EPMD_ADDRESS=127.0.0.1\n';
    fs.writeFileSync(envFile, `${env}${env && !env.endsWith('\n') ? '\n' : ''}${extra}`);
  }
}

function startRabbitmq() {
  // The node may be up with its application stopped (after `rabbitmqctl stop_app`).
  if (run('rabbitmqctl', ['-q', 'ping']).ok) {
    run('rabbitmqctl', ['start_app']); // if it is still booting this may fail; the wait decides
    return;
  }
  runOrThrow('rabbitmq-server', ['-detached'], 'start RabbitMQ (rabbitmq-server -detached)');
}

// --- Redis ------------------------------------------------------------------

function startRedis() {
  fs.mkdirSync('/var/lib/redis', { recursive: true });
  fs.mkdirSync('/var/log/redis', { recursive: true });
  runOrThrow(
    'redis-server',
    ['--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', '6379', '--save', '', '--appendonly', 'no',
      '--dir', '/var/lib/redis', '--logfile', '/var/log/redis/ci.log'],
    'start Redis',
  );
}

// ---------------------------------------------------------------------------
// Running commands
// ---------------------------------------------------------------------------

const SEARCH_DIRS = [...(process.env.PATH || '').split(path.delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin']
  .filter(Boolean);

/** Absolute path of an executable on PATH (or in an sbin directory), or undefined. */
function findCommand(name) {
  for (const dir of SEARCH_DIRS) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Runs a command without a shell; its stdout and stderr go to a temporary file
 * (see the top of this file) and come back as `output`.
 */
function run(name, args, { env = process.env, timeoutMs = COMMAND_TIMEOUT_MS } = {}) {
  const display = [name, ...args].join(' ');
  const executable = findCommand(name);
  if (!executable) return { ok: false, status: 127, output: `${name}: command not found`, display };

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servers-'));
  const file = path.join(dir, 'output');
  const fd = fs.openSync(file, 'w');
  try {
    const result = spawnSync(executable, args, { stdio: ['ignore', fd, fd], env, timeout: timeoutMs });
    let output = fs.readFileSync(file, 'utf8');
    if (result.error) output += `\n${result.error.code === 'ETIMEDOUT' ? `timed out after ${timeoutMs / 1000} s` : result.error.message}`;
    return { ok: result.status === 0, status: result.status, output, display };
  } finally {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function runOrThrow(name, args, what, options) {
  const result = run(name, args, options);
  if (!result.ok) throw commandError(result, what);
  return result;
}

function commandError(result, what) {
  const tail = result.output.trim().split('\n').slice(-40).join('\n');
  return new Error(`could not ${what}: \`${result.display}\` exited with ${result.status ?? 'a signal'}${tail ? `:\n${tail}` : ''}`);
}

function readIfExists(file) {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

// ---------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------

function invokedDirectly() {
  try {
    return Boolean(process.argv[1]) && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  ensureServers().then(
    () => process.exit(0),
    (err) => {
      console.error(`servers: ${err.message}`);
      process.exit(1);
    },
  );
}
