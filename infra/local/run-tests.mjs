#!/usr/bin/env node
// The test command (`npm test`, `make test`): builds, runs the unit tests (no
// server: `npm run test:unit`, every test/unit folder) and stops at their first
// failure; then makes sure the servers the system tests need are there, clears
// what dead test runs left behind (databases, broker users), and runs the system
// tests (every other test folder: `npm run test:system`). Arguments go to the
// system run's mocha.
//
// `--chaos` (`npm run test:chaos`, `make test-chaos`) runs only the replica kill
// test (tests/system/test/chaos), which needs neither Chromium nor kubectl;
// the whole suite runs it too.
//
// `--ha` (`npm run test:ha`, `make test-ha`) runs only the failover test on
// clustered engines (tests/system/test/ha, D23), which `make test` does not:
// it installs Debian's etcd, Patroni and HAProxy when missing, and the test
// starts and stops the engines itself.
//
// With a Docker engine the tests start their own PostgreSQL, RabbitMQ and Redis
// (testcontainers); without one they use the local servers named by
// DATABASE_ADMIN_URL, AMQP_URL and REDIS_URL, started (or installed) here the
// same way as `npm run up` does.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dockerEngineAnswers, ensureServers } from './servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function run(command, args, { allowFailure = false } = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0 && !allowFailure) process.exit(result.status ?? 1);
  return result.status === 0;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Drops the databases of test runs whose process is gone (names gwt_<pid base 36>_...). */
async function dropStaleDatabases() {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT datname FROM pg_database WHERE datname LIKE 'gwt\\_%'");
    for (const { datname } of rows) {
      const pid = parseInt(datname.split('_')[1] ?? '', 36);
      if (Number.isInteger(pid) && !alive(pid)) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await client.end();
  }
}

/**
 * Deletes the broker users of test runs whose process is gone (names t_<pid base 36>_...;
 * a run deletes its own at exit, unless it was killed), in one rabbitmqctl call.
 */
function deleteStaleBrokerUsers() {
  const listed = spawnSync('rabbitmqctl', ['-q', 'list_users', '--no-table-headers'], { encoding: 'utf8' });
  if (listed.status !== 0) return;
  const stale = listed.stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
    .filter((name) => {
      const pid = parseInt(/^t_([0-9a-z]+)_/.exec(name)?.[1] ?? '', 36);
      return Number.isInteger(pid) && !alive(pid);
    });
  if (stale.length === 0) return;
  const users = stale.map((name) => `<<"${name}">>`).join(',');
  run('rabbitmqctl', ['eval', `[rabbit_auth_backend_internal:delete_user(U, <<"run-tests">>) || U <- [${users}]].`], { allowFailure: true });
}

/** apt-get, through sudo unless we are root. */
function aptGet(args) {
  const [command, ...rest] = process.getuid?.() === 0 ? ['apt-get', ...args] : ['sudo', 'apt-get', ...args];
  return spawnSync(command, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
}

/** The hosted-page tests drive the distribution's Chromium (never a downloaded browser). */
function ensureChromium() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(chromium)) return;
  console.error(`tests: installing Chromium (${chromium} is missing)`);
  if (!aptGet(['update', '-qq']) || !aptGet(['install', '-y', '-qq', 'chromium']) || !existsSync(chromium)) {
    console.error('tests: Chromium could not be installed; install the chromium package or set CHROMIUM_PATH');
    process.exit(1);
  }
}

/** The deployment checks (tests/deploy) render the k8s/ overlays with `kubectl kustomize`. */
function ensureKubectl() {
  if (spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0) return;
  console.error('tests: installing kubectl (Debian package kubernetes-client; kubectl is not on PATH)');
  if (!aptGet(['update', '-qq']) || !aptGet(['install', '-y', '-qq', 'kubernetes-client'])
    || spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status !== 0) {
    console.error('tests: kubectl could not be installed; install kubectl (with its embedded kustomize)');
    process.exit(1);
  }
}

/**
 * The alert-rule tests (tests/deploy) run promtool, from Debian's prometheus package; only the
 * tool is wanted, so the server the package may start (port 9090) is stopped again.
 */
function ensurePromtool() {
  if (spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0) return;
  console.error('tests: installing promtool (Debian package prometheus; promtool is not on PATH)');
  if (!aptGet(['update', '-qq']) || !aptGet(['install', '-y', '-qq', '--no-install-recommends', 'prometheus'])
    || spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status !== 0) {
    console.error('tests: promtool could not be installed; install the prometheus package');
    process.exit(1);
  }
  const [command, ...rest] = process.getuid?.() === 0 ? ['service', 'prometheus', 'stop'] : ['sudo', 'service', 'prometheus', 'stop'];
  spawnSync(command, rest, { stdio: 'ignore' });
}

/**
 * The clustered engines of the failover test (tests/system/test/ha): Debian's etcd, Patroni (with
 * psycopg2) and HAProxy beside the RabbitMQ, PostgreSQL and Redis already here. The test runs each
 * itself, on ports of its own, so whatever service a package starts is stopped again.
 */
function ensureHaEngines() {
  const wanted = { etcd: 'etcd-server', etcdctl: 'etcd-client', patroni: 'patroni', haproxy: 'haproxy', 'redis-server': 'redis-server', 'rabbitmq-server': 'rabbitmq-server' };
  const onPath = (tool) => spawnSync('sh', ['-c', `command -v ${tool} || test -x /usr/sbin/${tool}`], { stdio: 'ignore' }).status === 0;
  const psycopg = () => spawnSync('python3', ['-c', 'import psycopg2'], { stdio: 'ignore' }).status === 0;
  const missing = Object.entries(wanted).filter(([tool]) => !onPath(tool)).map(([, pkg]) => pkg);
  if (!psycopg()) missing.push('python3-psycopg2');
  if (missing.length === 0) return;
  console.error(`tests: installing ${missing.join(', ')} for the clustered engines`);
  if (!aptGet(['update', '-qq']) || !aptGet(['install', '-y', '-qq', '--no-install-recommends', ...missing])) {
    console.error('tests: the clustered engines could not be installed');
    process.exit(1);
  }
  for (const service of ['etcd', 'haproxy', 'patroni']) {
    const [command, ...rest] = process.getuid?.() === 0 ? ['service', service, 'stop'] : ['sudo', 'service', service, 'stop'];
    spawnSync(command, rest, { stdio: 'ignore' });
  }
}

const chaosOnly = process.argv.includes('--chaos');
const haOnly = process.argv.includes('--ha');
if (haOnly) {
  run('npm', ['run', 'build']);
  ensureHaEngines();
  // The engines are made of this machine's RabbitMQ, PostgreSQL and Redis installations (installed here when missing).
  await ensureServers();
  run('npx', ['mocha', '--no-config', '--timeout', '900000', '--exit', 'tests/system/dist/test/ha/*.test.js']);
  process.exit(0);
}
run('npm', ['run', 'build']);
// Seconds, no server: a broken rule fails here before any server is started.
if (!chaosOnly) {
  run('npx', ['mocha', '--config', '.mocharc.unit.json', '--bail']);
  ensureChromium();
  ensureKubectl();
  ensurePromtool();
}
const containers = process.env.TESTCONTAINERS !== 'off' && dockerEngineAnswers();
if (containers) {
  console.error('tests: a Docker engine answers; the tests start their own servers (testcontainers)');
} else {
  await ensureServers();
  await dropStaleDatabases();
  deleteStaleBrokerUsers();
  // Test queues (prefix t_) that nobody uses for ten minutes go away by themselves.
  run('rabbitmqctl', ['-q', 'set_policy', '--apply-to', 'queues', 'test-queues-expire', '^t_', '{"expires":600000}'], { allowFailure: true });
}
if (chaosOnly) {
  run('npx', ['mocha', '--no-config', '--timeout', '30000', '--exit', 'tests/system/dist/test/chaos/*.test.js']);
} else {
  // Every system test file in parallel (.mocharc.json: its own system each, isolated by database and broker prefix),
  // then, alone, those that restart a shared server or load the machine (.mocharc.alone.json); both run whatever the first gives.
  const together = run('npx', ['mocha', ...process.argv.slice(2)], { allowFailure: true });
  const alone = run('npx', ['mocha', '--config', '.mocharc.alone.json', ...process.argv.slice(2)], { allowFailure: true });
  if (!together || !alone) process.exit(1);
}
