/**
 * What `make up` leaves open to others (D29), on a run of its own beside any
 * of the developer's: the review's reproductions first (21 POSTs to one
 * payment link and five failed sign-ins, each with a new X-Forwarded-For;
 * the setup link kept for the demo owner), then where each service listens
 * and serves /metrics, how the services log in to PostgreSQL, and who may
 * read what it writes in its folder. "Another host" is this machine reached
 * on an address of its own that is not loopback, as a neighbour on its
 * network reaches it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { PaymentLink } from '@gateway/contracts';
import { descriptionOf, repoRoot, SERVICE_NAMES } from '@gateway/system';
import { testEnvironment, uniqueName, Visitor } from '@gateway/testkit';
import { alive } from './processes.js';
import { freePortBase, METRICS_PORT_OFFSET, UpRun } from './up-run.js';

const RESET = path.join(repoRoot, 'infra', 'local', 'reset.mjs');

/** An IPv4 address of this machine that is not loopback, as a neighbour on its network reaches it. */
function anotherHostsWay(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
}

/** The answer of GET `url`, or 'refused' when nothing listens there for this address. */
async function reach(url: string): Promise<number | 'refused'> {
  try {
    const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5_000) });
    await res.body?.cancel();
    return res.status;
  } catch (err) {
    const code = ((err as Error).cause as { code?: string } | undefined)?.code;
    if (code === 'ECONNREFUSED') return 'refused';
    throw err;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('make up, as others find it', function () {
  this.timeout(120_000);
  const database = uniqueName('gwt');
  const prefix = uniqueName('t');
  const folders = mkdtempSync(path.join(tmpdir(), 'make-up-safety-'));
  const local = path.join(folders, 'checkout');
  const neighbour = anotherHostsWay();
  let portBase: number;
  let shell: NodeJS.ProcessEnv;
  let up: UpRun;

  const portOf = (service: string) => portBase + descriptionOf(service).port - 8080;
  const demo = () =>
    JSON.parse(readFileSync(path.join(local, 'demo-merchant.json'), 'utf8')) as {
      test_secret_key: string;
      dashboard_owner: Record<string, string>;
      ops_operator: Record<string, string>;
    };

  before(async function () {
    this.timeout(240_000);
    portBase = await freePortBase();
    // What an older run, or a umask of 022, left: a folder and a log others can read.
    mkdirSync(path.join(local, 'logs'), { recursive: true, mode: 0o755 });
    chmodSync(local, 0o755);
    writeFileSync(path.join(local, 'logs', 'session.log'), '{"msg":"an older run"}\n', { mode: 0o644 });
    const servers = await testEnvironment();
    shell = {
      ...process.env,
      DATABASE_ADMIN_URL: servers.adminUrl,
      AMQP_URL: servers.amqpUrl,
      REDIS_URL: servers.redisUrl,
      GATEWAY_LOCAL_DIR: local,
      DATABASE_NAME: database,
      BROKER_PREFIX: prefix,
      PORT_BASE: String(portBase),
      SKIP_BUILD: 'true',
    };
    for (const name of ['PUBLIC_BASE_URL', 'REPLICAS', 'OPERATOR_KEY', 'OPERATOR_KEY_FILE', 'OPERATOR_NAME', 'OPERATOR_PUBLIC_KEYS', 'SMTP_URL']) delete shell[name];
    up = new UpRun(shell);
    await up.line(/^The gateway is running\.$/, 200_000);
  });

  after(async function () {
    this.timeout(60_000);
    if (up?.running) {
      up.child.kill('SIGTERM');
      await Promise.race([up.exited, sleep(20_000)]);
      if (up.running) {
        for (const pid of up.pids().values()) if (alive(pid)) process.kill(pid, 'SIGKILL');
        up.child.kill('SIGKILL');
      }
    }
    spawnSync(process.execPath, [RESET, '--yes'], { cwd: repoRoot, env: shell, stdio: 'ignore' });
    rmSync(folders, { recursive: true, force: true });
  });

  it('when 21 POSTs reach one payment link, each with a new X-Forwarded-For, then they are not all let through: checkout answers no other host, and through the gateway the 21st waits (429)', async function () {
    if (!neighbour) this.skip();
    const created = await fetch(`http://localhost:${portBase}/api/v1/gateway/payment_links/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo().test_secret_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'Forwarded', amount: '10.000' }),
    });
    assert.equal(created.status, 201);
    const link = new URL(((await created.json()) as PaymentLink).url);
    assert.equal(await reach(`http://${neighbour}:${portOf('checkout')}${link.pathname}`), 'refused', "checkout's own port, from another host");

    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await sleep(60_500 - intoMinute);
    const statuses: number[] = [];
    for (let i = 1; i <= 21; i += 1) {
      const posted = await fetch(`http://${neighbour}:${portBase}${link.pathname}`, { method: 'POST', body: new URLSearchParams({}), redirect: 'manual', headers: { 'x-forwarded-for': `198.51.100.${i}` } });
      await posted.body?.cancel();
      statuses.push(posted.status);
    }
    assert.deepEqual(statuses.slice(0, 20), Array(20).fill(422));
    assert.equal(statuses[20], 429, statuses.join(','));
  });

  it('when five sign-ins fail and the next comes with a new X-Forwarded-For, then it still gets 429: through the gateway, and the dashboard answers no other host', async function () {
    if (!neighbour) this.skip();
    assert.equal(await reach(`http://${neighbour}:${portOf('dashboard')}/dashboard/sign-in`), 'refused', "the dashboard's own port, from another host");
    const visitor = new Visitor(`http://${neighbour}:${portBase}`);
    const email = `stranger-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i += 1) statuses.push((await visitor.post('/dashboard/sign-in', { email, password: 'not the password at all' }, { 'x-forwarded-for': `203.0.113.${i}` })).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 429]);
    assert.equal((await visitor.post('/dashboard/sign-in', { email, password: 'not the password at all' }, { 'x-forwarded-for': '192.0.2.200' })).status, 429);
  });

  it('when the demo owner and operator are seeded with passwords, then demo-merchant.json holds no setup link of theirs, and one made for them as an older make up did answers that it is no longer valid (410)', async () => {
    const { dashboard_owner: owner, ops_operator: operator } = demo();
    assert.deepEqual(Object.keys(owner).sort(), ['email', 'password', 'user_id']);
    assert.deepEqual(Object.keys(operator).sort(), ['email', 'operator_id', 'password']);
    for (const [door, id] of [['dashboard', owner['user_id']], ['ops', operator['operator_id']]] as const) {
      const token = randomBytes(32).toString('base64url');
      await query(`INSERT INTO dashboard.setup_links (token_hash, person_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`, [createHash('sha256').update(token).digest('base64url'), id]);
      const page = await new Visitor(`http://localhost:${portBase}`).get(`/${door}/setup?token=${token}`);
      assert.equal(page.status, 410, `${door}: ${page.html.slice(0, 200)}`);
      assert.match(page.html, /Link no longer valid/);
    }
  });

  it('when it runs, then every service but the gateway listens on loopback alone, and each serves /metrics on a loopback port of its own (its port + 100), never on its service port', async () => {
    for (const service of SERVICE_NAMES) {
      const port = portOf(service);
      if (neighbour) assert.equal(await reach(`http://${neighbour}:${port}/healthz`), service === 'api-gateway' ? 200 : 'refused', `${service} from another host`);
      assert.equal(await reach(`http://127.0.0.1:${port}/metrics`), 404, `${service}'s service port serves no /metrics`);
      assert.equal(await reach(`http://127.0.0.1:${port + METRICS_PORT_OFFSET}/metrics`), 200, `${service}'s metrics port`);
      if (neighbour) assert.equal(await reach(`http://${neighbour}:${port + METRICS_PORT_OFFSET}/metrics`), 'refused', `${service}'s metrics from another host`);
    }
  });

  it("when the services connect to PostgreSQL, then each logs in as its own role with a password of its own, kept in .local/database-passwords.json", async () => {
    const kept = JSON.parse(readFileSync(path.join(local, 'database-passwords.json'), 'utf8')) as Record<string, string>;
    const passwords = new Set<string>();
    for (const [name, pid] of up.pids()) {
      const service = descriptionOf(name);
      if (service.schema === undefined) continue;
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      const url = new URL(environ.find((entry) => entry.startsWith('DATABASE_URL='))?.slice('DATABASE_URL='.length) ?? '');
      assert.equal(url.username, `svc_${service.schema}`, name);
      assert.ok(url.password.length >= 20, `${name} connects with a password`);
      assert.equal(decodeURIComponent(url.password), kept[name], `${name}: the kept password`);
      passwords.add(url.password);
      const [role] = await query(`SELECT rolpassword IS NOT NULL FROM pg_authid WHERE rolname = 'svc_${service.schema}'`);
      assert.equal(role, 'true', `svc_${service.schema} has a password`);
    }
    assert.ok(passwords.size >= 8, 'a password each');
  });

  it('when it writes its files (keys, passwords, logs, the demo merchant, mails), then only their owner may read them (0600 or less) and its folders are 0700, a log an older run left wider included', () => {
    const wide: string[] = [];
    const walk = (dir: string) => {
      if ((statSync(dir).mode & 0o777) !== 0o700) wide.push(`${dir} ${(statSync(dir).mode & 0o777).toString(8)}`);
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if ((statSync(file).mode & 0o077) !== 0) wide.push(`${file} ${(statSync(file).mode & 0o777).toString(8)}`);
      }
    };
    walk(local);
    assert.deepEqual(wide, []);
    assert.ok(readdirSync(path.join(local, 'logs')).length >= SERVICE_NAMES.length);
  });

  /** The first column of `sql`'s rows on the run's database. */
  async function query(sql: string, params: unknown[] = []): Promise<string[]> {
    const url = new URL((await testEnvironment()).adminUrl);
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return (await client.query<Record<string, unknown>>(sql, params)).rows.map((row) => String(Object.values(row)[0]));
    } finally {
      await client.end();
    }
  }
});
