/**
 * `make up` as a developer runs it (infra/local/up.mjs, the same script; the
 * build is this test run's own, SKIP_BUILD), against the real servers, beside
 * any run of the developer's: its own database, broker prefix, ports and keys
 * folder (DATABASE_NAME, BROKER_PREFIX, PORT_BASE, GATEWAY_LOCAL_DIR).
 *
 * One run is started once and taken, test after test, first through what
 * it leaves open to others (D29): the review's reproductions (21 POSTs to
 * one payment link and five failed sign-ins, each with a new
 * X-Forwarded-For; the setup link kept for the demo owner), where each
 * service listens and serves /metrics, how the services log in to
 * PostgreSQL, who may read what it writes in its folder ("another host" is
 * this machine reached on an address of its own that is not loopback, as a
 * neighbour on its network reaches it); then through what a developer
 * meets: services killed under a steady load of payments (started
 * again by the supervisor, the others untouched, every payment the buyer was
 * told succeeded SUCCEEDED); the operator command it prints, run as printed;
 * Ctrl-C; a second checkout with keys of its own on the same database; and
 * `make reset`, which drops the run's database and broker objects (and, in
 * `after`, whatever a failed test left).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { PaymentLink } from '@gateway/contracts';
import { descriptionOf, repoRoot, SERVICE_NAMES } from '@gateway/system';
import { payOnPage, pollUntil, runGatewayAdmin, sessionRequest, testEnvironment, uniqueName, Visitor } from '@gateway/testkit';
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

/** The services killed under load: two on the payment path, and the refund service. */
const KILLED = ['session', 'acquirer-adapter', 'refund'] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('make up', function () {
  this.timeout(180_000);
  const database = uniqueName('gwt');
  const prefix = uniqueName('t');
  const folders = mkdtempSync(path.join(tmpdir(), 'make-up-'));
  const local = path.join(folders, 'checkout-a');
  let portBase: number;
  /** The environment make up (and make reset) run in: this run's own names and the servers'. */
  let shell: NodeJS.ProcessEnv;
  /** A developer's shell in the checkout, for gateway-admin: nothing of the broker's set, the run's keys folder found by its name. */
  let developer: NodeJS.ProcessEnv;
  let up: UpRun;

  const portOf = (service: string) => portBase + descriptionOf(service).port - 8080;
  const neighbour = anotherHostsWay();
  const demo = () =>
    JSON.parse(readFileSync(path.join(local, 'demo-merchant.json'), 'utf8')) as {
      merchant_id: string;
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
    const env: NodeJS.ProcessEnv = {
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
    for (const name of ['PUBLIC_BASE_URL', 'REPLICAS', 'OPERATOR_KEY', 'OPERATOR_KEY_FILE', 'OPERATOR_NAME', 'OPERATOR_PUBLIC_KEYS', 'SMTP_URL']) delete env[name];
    shell = env;
    developer = { ...env, USER: 'amina' };
    for (const name of ['AMQP_URL', 'BROKER_PREFIX']) delete developer[name];
    up = new UpRun(env);
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
    for (const [door, id] of [['dashboard', owner['user_id'] ?? ''], ['ops', operator['operator_id'] ?? '']] as const) {
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

  it('when session, acquirer-adapter and refund are each killed (SIGKILL) under a steady load of payments, then each is started again by itself with its reason printed, the others never exit, and every payment the buyer was told succeeded is SUCCEEDED', async () => {
    const { merchant_id: merchantId, test_secret_key: key } = demo();
    // The demo merchant's test budgets (5 creates a second) would turn the load's own pace into refusals.
    const limits = await runGatewayAdmin(['limits', 'set', merchantId, '--mode', 'test', '--account', '1000', '--create', '1000', '--refund', '100'], developer);
    assert.equal(limits.status, 0, limits.stderr);
    const api = `http://localhost:${portBase}/api/v1/gateway`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const firstPids = up.pids();
    assert.deepEqual([...firstPids.keys()].sort(), [...SERVICE_NAMES].sort());

    // Three buyers paying one after the other, until told to stop; a failure (a service down under them) is simply not a success.
    const told: string[] = [];
    let failures = 0;
    let stop = false;
    const buyers = Array.from({ length: 3 }, async () => {
      while (!stop) {
        try {
          const created = await fetch(`${api}/sessions/`, { method: 'POST', headers, body: JSON.stringify(sessionRequest({ amount: '10.000' })) });
          const session = (await created.json()) as { id?: string; checkout_url?: string };
          if (created.status !== 201 || !session.id || !session.checkout_url) throw new Error(`create answered ${created.status}`);
          const page = await payOnPage(session.checkout_url, { card_number: '4242424242424242' });
          if (!page.html.includes('Payment successful')) throw new Error(`the page answered ${page.status}`);
          told.push(session.id);
        } catch {
          failures += 1;
          await sleep(200);
        }
      }
    });
    const paidOnwards = async (what: string) => {
      const from = told.length;
      await pollUntil(() => told.length >= from + 3, 40_000, `three payments ${what}`, 100);
    };

    try {
      await paidOnwards('before the first kill');
      for (const service of KILLED) {
        const pid = firstPids.get(service) as number;
        const from = up.lines.length;
        process.kill(pid, 'SIGKILL');
        const exit = await up.line(new RegExp(`^ {2}✗ ${service} \\(pid ${pid}\\) exited, killed by SIGKILL, after [\\d.]+ s ready; starting it again in [\\d.]+ s\\.$`), 10_000, from);
        // Its log, on the next line.
        const next = up.lines.indexOf(exit.input as string, from) + 1;
        await up.line(/^/, 2_000, next);
        assert.match(up.lines[next] ?? '', new RegExp(`^ {4}(last lines of ${local}/logs/${service}\\.log:|${local}/logs/${service}\\.log has nothing from this run\\.)$`));
        const again = await up.line(new RegExp(`^ {2}${service} started again, ready \\(pid (\\d+)\\)$`), 60_000, from);
        const newPid = Number(again[1]);
        assert.notEqual(newPid, pid);
        assert.ok(alive(newPid) && !alive(pid));
        const ready = await fetch(`http://127.0.0.1:${portOf(service)}/readyz`);
        assert.equal(ready.status, 200, `${service} ready again`);
        await paidOnwards(`after ${service} came back`);
      }
    } finally {
      stop = true;
      await Promise.all(buyers);
    }

    for (const service of SERVICE_NAMES) {
      const killed = (KILLED as readonly string[]).includes(service);
      assert.equal(up.exitsOf(service).length, killed ? 1 : 0, `${service}: ${up.exitsOf(service).join(' | ')}`);
      if (!killed) assert.ok(alive(firstPids.get(service) as number), `${service} still runs as pid ${firstPids.get(service)}`);
    }
    assert.ok(up.running, 'make up still runs');

    // Told succeeded: SUCCEEDED through the API.
    for (const id of told) {
      const read = await fetch(`${api}/sessions/${id}/`, { headers });
      assert.equal(read.status, 200);
      assert.equal(((await read.json()) as { status: string }).status, 'SUCCEEDED', `session ${id}`);
    }
    console.log(`      make up: ${told.length} payments told succeeded, ${failures} failed while services were down`);
  });

  it('when a buyer pays, then the receipt is caught by the local mail catcher and kept as .local/mail/<time>-<id>.eml, whose path it prints (D20)', async () => {
    const mailDir = path.join(local, 'mail');
    assert.ok(up.lines.some((line) => line.startsWith('  Mail ') && line.includes('mail/<time>-<id>.eml')), 'the Mail line');
    const { test_secret_key: key, dashboard_owner: owner } = demo() as { test_secret_key: string; dashboard_owner?: Record<string, string> };
    // Test-mode receipts are off until the merchant turns them on (D29): the demo owner does, on the dashboard's Settings page.
    assert.ok(owner, `no demo dashboard owner:\n${up.lines.filter((line) => line.includes('demo') || line.includes('could not')).join('\n')}`);
    const dashboard = new Visitor(`http://localhost:${portBase}`);
    assert.equal((await dashboard.post('/dashboard/sign-in', { email: owner['email'] ?? '', password: owner['password'] ?? '' })).status, 303);
    const on = await dashboard.post('/dashboard/settings/receipts', { _csrf: await dashboard.csrf('/dashboard/settings'), receipts_enabled: 'on' });
    assert.equal(on.status, 200, on.html);
    const email = `receipt-${Date.now().toString(36)}@example.tn`;
    const created = await fetch(`http://localhost:${portBase}/api/v1/gateway/sessions/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(sessionRequest({ amount: '12.000', email, locale: 'en' })),
    });
    const session = (await created.json()) as { checkout_url: string };
    assert.equal(created.status, 201);
    await payOnPage(session.checkout_url, { card_number: '4242424242424242' });
    let kept: string | undefined;
    await pollUntil(
      () => {
        const files = existsSync(mailDir) ? readdirSync(mailDir).filter((name) => /^\d{8}T\d{6}Z-[0-9a-f]{8}\.eml$/.test(name)) : [];
        kept = files.find((name) => readFileSync(path.join(mailDir, name), 'utf8').includes(email));
        return kept !== undefined;
      },
      20_000,
      'the receipt kept in .local/mail',
    );
    assert.ok(kept);
    assert.match(readFileSync(path.join(mailDir, kept), 'utf8'), /^Auto-Submitted: auto-generated$/m);
    const file = kept;
    await pollUntil(() => up.lines.some((line) => line.startsWith(`[mail] mail to ${email}: `) && line.endsWith(file)), 5_000, 'the path printed');
  });

  it('when the operator command it prints is run as printed, in a shell with nothing of gateway-admin set, then it answers the audit log', async () => {
    const printed = (await up.line(/^ {2}(.*npx gateway-admin audit list)$/, 1_000))[1] as string;
    assert.equal(printed, 'OPERATOR_NAME=$USER npx gateway-admin audit list');
    const run = spawnSync('sh', ['-c', printed], { cwd: repoRoot, env: developer, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    const audit = JSON.parse(run.stdout) as { data: { action: string; merchant_id: string | null }[] };
    // make up created the demo merchant with gateway-admin, and the limits of the test before were set with it.
    assert.ok(audit.data.some((entry) => entry.action === 'merchant.create' && entry.merchant_id === demo().merchant_id), run.stdout.slice(0, 500));
  });

  it('when it is stopped with Ctrl-C (SIGINT), then every service stops gracefully and it exits 0', async () => {
    const pids = [...up.pids().values()];
    const from = up.lines.length;
    up.child.kill('SIGINT');
    const exit = await Promise.race([up.exited, sleep(60_000).then(() => undefined)]);
    assert.deepEqual(exit, { code: 0, signal: null }, up.tail());
    assert.ok(up.lines.slice(from).includes('stopping every service…'));
    assert.deepEqual(up.lines.slice(from).filter((line) => line.includes('✗')), [], 'no service told as having exited unasked');
    assert.deepEqual(pids.filter(alive), []);
    // Each said it stopped (graceful: SIGTERM, then its own stop).
    for (const service of SERVICE_NAMES) {
      const log = readFileSync(path.join(local, 'logs', `${service}.log`), 'utf8').trimEnd().split('\n');
      assert.match(log.at(-1) ?? '', /"msg":"stopped"/, `${service}'s last log line`);
    }
  });

  it("when a second checkout, with keys of its own, runs make up on that database, then it says whose database it is and what to do, exits 3 and starts nothing", async () => {
    const kekIds = async () => (await query(`SELECT kek_id FROM webhooks.data_keys UNION ALL SELECT kek_id FROM dashboard.data_keys ORDER BY 1`)).join(',');
    const before = await kekIds();
    const other = path.join(folders, 'checkout-b');
    const second = new UpRun({ ...shell, GATEWAY_LOCAL_DIR: other });
    const exit = await Promise.race([second.exited, sleep(60_000).then(() => undefined)]);
    assert.deepEqual(exit, { code: 3, signal: null }, second.tail());
    const said = second.lines.join('\n');
    assert.match(said, new RegExp(`The database ${database} is not this checkout's: \`make up\` with the keys in ${local} set it up`));
    assert.match(said, /the secrets\nof api-gateway, acquirer-adapter, webhook-dispatcher, dashboard there are wrapped under key-encryption key [0-9a-f]{16}, while this\ncheckout's/);
    assert.match(said, /make reset && make up/);
    assert.match(said, /DATABASE_NAME=gateway_2 make up/);
    assert.equal(second.pids().size, 0, 'no service started');
    assert.equal(await kekIds(), before);
  });

  it('when make reset runs without a terminal, then it drops nothing unless told --yes; with --yes the database, the broker users and queues of the run, and the demo merchant file are gone, the keys kept', async () => {
    const refused = spawnSync('npm', ['run', '--silent', 'reset'], { cwd: repoRoot, env: shell, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(refused.stdout, new RegExp(`make reset drops, on this machine's servers:\\n {2}- database ${database}, with every merchant, payment and person in it`));
    assert.match(refused.stderr, /Nothing dropped: confirm in a terminal \(make reset\), or pass --yes/);
    assert.equal((await query(`SELECT datname FROM pg_database WHERE datname = '${database}'`, [], 'postgres')).length, 1);

    const reset = spawnSync('npm', ['run', '--silent', 'reset', '--', '--yes'], { cwd: repoRoot, env: shell, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.equal(reset.status, 0, reset.stderr);
    assert.equal((await query(`SELECT datname FROM pg_database WHERE datname = '${database}'`, [], 'postgres')).length, 0);
    const ofPrefix = (kind: string) =>
      spawnSync('rabbitmqctl', ['-q', `list_${kind}`, '--no-table-headers'], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter((line) => line.startsWith(`${prefix}.`));
    assert.deepEqual([ofPrefix('users'), ofPrefix('queues'), ofPrefix('exchanges')], [[], [], []]);
    assert.equal(existsSync(path.join(local, 'demo-merchant.json')), false);
    assert.ok(existsSync(path.join(local, 'secrets-kek')) && existsSync(path.join(local, 'operator-key.jwk')));
  });

  /** The first column of `sql`'s rows (with `params`) on the run's database, or on `on`. */
  async function query(sql: string, params: unknown[] = [], on = database): Promise<string[]> {
    const url = new URL((await testEnvironment()).adminUrl);
    url.pathname = `/${on}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return (await client.query<Record<string, unknown>>(sql, params)).rows.map((row) => String(Object.values(row)[0]));
    } finally {
      await client.end();
    }
  }
});
