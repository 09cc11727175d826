#!/usr/bin/env node
// The images, started: the containerised system against this machine's PostgreSQL,
// RabbitMQ and Redis, one payment through it, then everything removed.
//
//   node infra/images/smoke.mjs        (after infra/images/build.mjs; `make images` runs both)
//
// Like a test system (packages/testkit), it makes a fresh database and broker prefix with
// broker users of their own, and fresh keys; each container's environment is the system's
// description wired with them (packages/system, containerEnvironments below):
//   1. the migrate image creates the database, a role and a schema per service and runs
//      every migration (infra/docker/migrate-all.mjs, as compose and the k8s Job run it);
//   2. each service image (the dashboard's too) runs under podman on a free port of the host
//      network, read-only root filesystem, a tmpfs /tmp, as uid 1000; each must answer /readyz (polled: podman
//      runs health checks from systemd timers, and there is no systemd here);
//   3. gateway-admin creates a merchant; with its test key a session is created at the
//      containerised gateway and paid on the hosted page (passed through to the checkout
//      container) with 4242 4242 4242 4242, then a second one with the 3-D Secure card,
//      through the sandbox container's 3DS Method and challenge pages, every hand-off a
//      posted form (walkThroughBank, which a system test also runs); both must read SUCCEEDED;
//   4. no container log may hold a test card number;
//   5. every container is stopped (SIGTERM; each must exit 0) and removed, the database
//      dropped, the broker prefix and users deleted.
// Any failure exits non-zero, with the logs of the service concerned printed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { podman, podmanEnv, root, workDir, writeContainersConf } from './podman.mjs';

const CARDS = { plain: '4242424242424242', challenge: '4000000000003220' };
const READY_TIMEOUT_MS = 90_000;

function imageName(service) {
  return `localhost/payment-gateway/${service}:dev`;
}

/**
 * The environment of each service's container in a smoke run, by service: the system's
 * description (packages/system) wired with the run's ports (host network), keys, database,
 * broker users (each service its own) and Redis, and the smoke's own choices: the sandbox
 * terminal of test systems, and no second factor for console operators.
 */
export async function containerEnvironments({ prefix, ports, keys, databaseUrl, brokerUrls, redisUrl, sandboxTerminal }) {
  const { systemEnvironment } = await import('@gateway/system');
  const wiring = { keys, ports, databaseUrl, brokerUrl: (principal) => brokerUrls[principal], brokerPrefix: prefix, redisUrl, redisKeyPrefix: prefix, sandboxTerminals: [sandboxTerminal] };
  return systemEnvironment(wiring, { env: { LOG_LEVEL: 'info' }, serviceEnv: { dashboard: { OPS_TOTP_REQUIRED: 'false' } } });
}

class SmokeFailure extends Error {
  constructor(message, service) {
    super(message);
    this.service = service;
  }
}

/** Runs the whole smoke; throws (after cleaning up) on any failure. */
export async function smoke({ log = console.log } = {}) {
  writeContainersConf();
  const { ensureServers } = await import(pathToFileURL(path.join(root, 'infra', 'local', 'servers.mjs')).href);
  await ensureServers({ log: (line) => log(line) });
  // The built workspace (make images runs npm run build first).
  const testkit = await import('@gateway/testkit');
  const system = await import('@gateway/system');
  const { serviceDatabaseUrl } = await import('@gateway/db');
  const env = await testkit.testEnvironment();

  // The system's broker prefix, with its users, their permissions and its exchanges.
  const { prefix, urls: brokerUrls } = await testkit.newBrokerPrefix();
  const database = testkit.uniqueName('gwt');
  const containers = new Map(); // service -> container name
  const ports = {}; // service -> its reserved port on the host network
  const logDir = path.join(workDir, 'smoke-logs', prefix);
  fs.mkdirSync(logDir, { recursive: true });
  let databaseMade = false;
  const startedAt = Date.now();

  const cleanup = async () => {
    for (const [service, name] of containers) {
      fs.writeFileSync(path.join(logDir, `${service}.log`), containerLogs(name));
      podman(['rm', '-f', '-t', '0', name]);
    }
    containers.clear();
    system.releasePorts(Object.values(ports));
    if (databaseMade) await dropDatabase(env.adminUrl, database).catch((err) => log(`dropping ${database}: ${err.message}`));
    await testkit.deleteBrokerObjects(prefix).catch((err) => log(`deleting broker objects: ${err.message}`));
    await testkit.deleteBrokerUsers(prefix).catch((err) => log(`deleting broker users: ${err.message}`));
  };
  const interrupted = () => {
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  try {
    log(`smoke: database ${database}, broker prefix ${prefix}`);

    // 1. Migrations, by the migrate image.
    databaseMade = true;
    const migrate = runContainer('migrate', `gw-smoke-${prefix}-migrate`, { DATABASE_ADMIN_URL: env.adminUrl, DATABASE_NAME: database }, ['node', 'infra/docker/migrate-all.mjs'], { detach: false });
    if (migrate.status !== 0) throw new SmokeFailure(`the migrate image exited ${migrate.status}:\n${migrate.stdout}${migrate.stderr}`);
    log('smoke: migrate image: database, roles, schemas and migrations done');

    // 2. The services, each with its environment from the system's description.
    const SERVICES = system.SERVICE_NAMES;
    for (const service of SERVICES) ports[service] = await system.freePort();
    const dbUrl = new URL(env.adminUrl);
    dbUrl.pathname = `/${database}`;
    const keys = system.freshKeys({ operator: `${prefix}-operator`, dashboard: `${prefix}-dashboard` });
    const baseUrl = `http://127.0.0.1:${ports['api-gateway']}`;
    const environments = await containerEnvironments({
      prefix,
      ports,
      keys,
      databaseUrl: (service) => serviceDatabaseUrl(dbUrl.toString(), service),
      brokerUrls,
      redisUrl: env.redisUrl,
      sandboxTerminal: testkit.SANDBOX_TERMINAL,
    });
    for (const service of SERVICES) {
      const name = `gw-smoke-${prefix}-${service}`;
      const started = runContainer(service, name, environments[service]);
      if (started.status !== 0) throw new SmokeFailure(`podman run ${service} exited ${started.status}: ${started.stderr.trim()}`, service);
      containers.set(service, name);
    }
    await Promise.all(SERVICES.map((service) => waitReady(system, service, containers.get(service), ports[service])));
    log(`smoke: ${SERVICES.length} containers ready (${((Date.now() - startedAt) / 1000).toFixed(1)} s since the start)`);
    for (const service of SERVICES) {
      const user = podman(['inspect', '--format', '{{.Config.User}}', containers.get(service)]).stdout.trim();
      if (user !== '1000:1000') throw new SmokeFailure(`${service} runs as "${user}", not 1000:1000`, service);
    }

    // 3. A merchant, and two payments through the containers.
    const merchant = createMerchant(prefix, brokerUrls['gateway-admin'], keys.operator.privateJwk);
    const api = new testkit.ApiClient(`${baseUrl}/api/v1`, merchant.test_secret_key);
    await payAndCheck(testkit, api, CARDS.plain, false);
    log('smoke: 4242 4242 4242 4242 paid through the containerised gateway and checkout: SUCCEEDED');
    await payAndCheck(testkit, api, CARDS.challenge, true);
    log('smoke: 4000 0000 0000 3220 paid through 3-D Secure 2 at the sandbox container (3DS Method, then the challenge): SUCCEEDED');

    // 4. No card number in any log.
    for (const [service, name] of containers) {
      const text = containerLogs(name);
      for (const card of Object.values(CARDS)) if (text.includes(card)) throw new SmokeFailure(`a test card number is in ${service}'s log`, service);
    }

    // 5. A graceful stop of each, the gateway first.
    for (const service of SERVICES) {
      const name = containers.get(service);
      podman(['stop', '-t', '15', name]);
      const code = podman(['inspect', '--format', '{{.State.ExitCode}}', name]).stdout.trim();
      if (code !== '0') throw new SmokeFailure(`${service} exited ${code} on SIGTERM, not 0`, service);
    }
    log(`smoke: every container stopped with exit 0; passed in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  } catch (err) {
    const service = err instanceof SmokeFailure ? err.service : undefined;
    const failing = service ? [service] : [...containers.keys()];
    const lines = service ? 150 : 40;
    for (const name of failing) {
      if (!containers.has(name)) continue;
      console.error(`\n----- ${name}: container log (last ${lines} lines) -----\n${containerLogs(containers.get(name)).split('\n').slice(-lines).join('\n')}`);
    }
    throw new Error(`smoke failed: ${err.message}`, { cause: err });
  } finally {
    await cleanup();
    process.removeListener('SIGINT', interrupted);
    process.removeListener('SIGTERM', interrupted);
  }
}

/**
 * `podman run` of a service image as a platform would run it: host network, read-only root,
 * a small tmpfs /tmp, no new privileges. The environment goes by name (`-e NAME`), so
 * keys never show in a process list.
 */
function runContainer(service, name, env, command = [], { detach = true } = {}) {
  const args = [
    'run',
    ...(detach ? ['-d'] : ['--rm']),
    '--name', name,
    '--network', 'host',
    '--read-only',
    '--tmpfs', '/tmp:rw,size=16m,mode=1777',
    '--security-opt', 'no-new-privileges',
    // Podman runs HEALTHCHECKs from systemd timers, and there is no systemd here: /readyz is polled instead.
    '--no-healthcheck',
    ...Object.keys(env).flatMap((key) => ['-e', key]),
    imageName(service),
    ...command,
  ];
  const result = spawnSync('podman', args, { env: { ...podmanEnv(), ...env }, encoding: 'utf8', timeout: 10 * 60_000 });
  return { status: result.status ?? 1, stdout: result.stdout ?? '', stderr: result.stderr ?? result.error?.message ?? '' };
}

function containerLogs(name) {
  const result = podman(['logs', name]);
  return `${result.stdout}${result.stderr}`;
}

/** Waits until `service`'s container answers /readyz 200 (the launcher's wait, polled every 250 ms), failing once it has exited. */
async function waitReady(system, service, name, port) {
  let state = '';
  const exited = () => {
    state = podman(['inspect', '--format', '{{.State.Status}} {{.State.ExitCode}}', name]).stdout.trim();
    return state.startsWith('exited');
  };
  const outcome = await system.untilAnswering(port, '/readyz', { timeoutMs: READY_TIMEOUT_MS, everyMs: 250, exited });
  if (outcome === 'exited') throw new SmokeFailure(`${service} exited during start (${state})`, service);
  if (outcome === 'timed out') throw new SmokeFailure(`${service} did not answer /readyz 200 within ${READY_TIMEOUT_MS / 1000} s`, service);
}

/** A merchant made with the operators' CLI, signed with this run's operator key (as `make up` seeds its demo merchant). */
function createMerchant(prefix, amqpUrl, operatorKey) {
  const admin = path.join(root, 'node_modules', '.bin', 'gateway-admin');
  const created = spawnSync(admin, ['merchant', 'create', '--name', 'Smoke Shop', '--order-prefix', 'SMK'], {
    env: { ...process.env, AMQP_URL: amqpUrl, BROKER_PREFIX: prefix, OPERATOR_KEY: operatorKey, OPERATOR_NAME: 'images-smoke' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (created.status !== 0) throw new SmokeFailure(`gateway-admin merchant create exited ${created.status}: ${created.stderr.trim()}`, 'api-gateway');
  return JSON.parse(created.stdout);
}

/** Creates a session, pays it on the hosted page with `card` (through the sandbox's 3DS Method and challenge pages when `challenge`), and checks it SUCCEEDED. */
async function payAndCheck(testkit, api, card, challenge) {
  const created = await api.post('/gateway/sessions/', testkit.sessionRequest());
  if (created.status !== 201 || !created.body.checkout_url) throw new SmokeFailure(`session create answered ${created.status}: ${created.text.slice(0, 500)}`, 'api-gateway');
  const { id, checkout_url: checkoutUrl } = created.body;
  let page = await testkit.payOnPage(checkoutUrl, { card_number: card });
  if (challenge) page = await walkThroughBank(page, checkoutUrl);
  if (page.status >= 400) throw new SmokeFailure(`paying ${id} answered ${page.status}: ${page.html.slice(0, 500)}`, 'checkout');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const read = await api.get(`/gateway/sessions/${id}/`);
    if (read.body?.status === 'SUCCEEDED') return;
    if (read.body?.status === 'FAILED') throw new SmokeFailure(`session ${id} FAILED`);
    // Any service on the payment's path may be the cause: every log is printed.
    if (Date.now() > deadline) throw new SmokeFailure(`session ${id} reads ${read.status} ${read.body?.status ?? read.text.slice(0, 300)}, not SUCCEEDED`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The buyer's browser through 3-D Secure over plain HTTP (D30), from `page`, the hosted page's
 * answer to the card form (testkit's payOnPage), at `checkoutUrl`: the 3DS Method form posted to
 * the issuer, then the page's own method form (completed); the hand-off form posted to the ACS;
 * at the sandbox's challenge page the button `answer` ('Complete authentication' unless told)
 * pressed, and the ACS's hand-back form (its Continue) posted to the page, or the acquirer's
 * redirect back followed. Every form is posted as a browser would (its hidden fields, the pressed
 * button's name and value), redirects followed with GET. Returns the page where the walk ends: the result, or a page that is no step of it.
 */
export async function walkThroughBank(page, checkoutUrl, { answer = 'Complete authentication', maxSteps = 6 } = {}) {
  let current = { ...page, url: page.location ?? `${checkoutUrl}/pay` };
  for (let step = 0; step < maxSteps; step += 1) {
    const method = formOf(current.html, (form) => form.attributes.id === 'method-form');
    const next = formOf(current.html, (form) => form.attributes.id === 'method-continue');
    const bank = formOf(current.html, (form) => form.attributes.id === 'bank-form');
    const acs = formOf(current.html, (form) => form.buttons.some((button) => button.text === answer));
    // The ACS hands the buyer back with a posted form its own script presses (or the buyer, with Continue).
    const handBack = formOf(current.html, (form) => form.buttons.some((button) => button.text === 'Continue'));
    if (method && next) {
      const issuer = await fetch(new URL(method.attributes.action, current.url), { method: 'POST', body: new URLSearchParams(method.fields), redirect: 'manual' });
      await issuer.arrayBuffer();
      if (issuer.status >= 400) throw new SmokeFailure(`the 3DS Method URL answered ${issuer.status}`, 'epg-sandbox');
      current = await postForm(current.url, next, { ...next.fields, completed: 'true' });
    } else if (bank) {
      current = await postForm(current.url, bank, bank.fields);
      if (current.status !== 200) throw new SmokeFailure(`the ACS answered the hand-off ${current.status}: ${current.html.slice(0, 500)}`, 'epg-sandbox');
    } else if (acs) {
      const pressed = acs.buttons.find((button) => button.text === answer);
      current = await postForm(current.url, acs, { ...acs.fields, ...(pressed.name ? { [pressed.name]: pressed.value } : {}) });
    } else if (handBack) {
      current = await postForm(current.url, handBack, handBack.fields);
    } else {
      return { status: current.status, html: current.html, url: current.url };
    }
  }
  throw new SmokeFailure(`3-D Secure still not over after ${maxSteps} pages: ${current.html.slice(0, 500)}`, 'checkout');
}

/** Posts `fields` to `form`'s action (resolved against `from`), then follows redirects with GET as a browser would (the acquirer's return to the page, the page's to its result). */
async function postForm(from, form, fields) {
  let url = new URL(form.attributes.action ?? from, from);
  let answer = await fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  for (let hops = 0; hops < 5 && [302, 303].includes(answer.status) && answer.headers.get('location'); hops += 1) {
    await answer.body?.cancel();
    url = new URL(answer.headers.get('location') ?? '', url);
    answer = await fetch(url, { redirect: 'manual' });
  }
  return { status: answer.status, html: await answer.text(), url: url.toString() };
}

/** The first form of `html` that `wanted` picks, read as a browser would: its attributes, hidden fields and buttons, entities decoded. */
function formOf(html, wanted) {
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const body = match[2];
    const form = {
      attributes: attributesOf(match[1]),
      fields: Object.fromEntries(
        [...body.matchAll(/<input\b([^>]*)>/gi)]
          .map((input) => attributesOf(input[1]))
          .filter((input) => input.type === 'hidden' && input.name !== undefined)
          .map((input) => [input.name, input.value ?? '']),
      ),
      buttons: [...body.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)].map((button) => ({ ...attributesOf(button[1]), text: decodeEntities(button[2].replace(/<[^>]*>/g, '')).trim() })),
    };
    if (wanted(form)) return form;
  }
  return undefined;
}

function attributesOf(tag) {
  return Object.fromEntries([...tag.matchAll(/([a-zA-Z][\w-]*)="([^"]*)"/g)].map(([, name, value]) => [name.toLowerCase(), decodeEntities(value)]));
}

function decodeEntities(text) {
  const named = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, code) =>
    code.startsWith('#x') || code.startsWith('#X') ? String.fromCodePoint(parseInt(code.slice(2), 16)) : code.startsWith('#') ? String.fromCodePoint(Number(code.slice(1))) : (named[code] ?? entity),
  );
}

async function dropDatabase(adminUrl, name) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  smoke().catch((err) => {
    console.error(`images: ${err.message}`);
    process.exit(1);
  });
}
