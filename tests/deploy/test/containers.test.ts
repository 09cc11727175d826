import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICES } from '@gateway/system';
import { readRepoFile, readYaml, repoRoot } from '../src/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- docker-compose.yml is read as plain JSON */

const SERVERS = ['postgres', 'rabbitmq', 'redis'];
const APP = SERVICES.map((s) => s.name);

describe('docker-compose.yml', () => {
  const compose = readYaml('docker-compose.yml') as any;

  it('When docker-compose.yml is parsed, then it has the three servers, the migrate one-shot and every service of the description', () => {
    const names = Object.keys(compose.services);
    for (const name of [...SERVERS, 'migrate', ...APP]) assert.ok(names.includes(name), `no service ${name}`);
  });

  it('When only the servers are asked for, then they have no profile and every other service is in the app profile', () => {
    for (const server of SERVERS) assert.equal(compose.services[server].profiles, undefined, `${server} has a profile`);
    for (const [name, service] of Object.entries<any>(compose.services)) {
      if (!SERVERS.includes(name)) assert.deepEqual(service.profiles, ['app'], `${name} profiles`);
    }
  });

  it('When an application service starts, then it waits for migrate to complete successfully and for the servers to be healthy', () => {
    for (const name of APP) {
      const dependsOn = compose.services[name].depends_on;
      assert.deepEqual(dependsOn?.migrate, { condition: 'service_completed_successfully' }, `${name} depends_on migrate`);
      for (const server of SERVERS) assert.deepEqual(dependsOn[server], { condition: 'service_healthy' }, `${name} depends_on ${server}`);
    }
  });

  it('When ports are published, then besides the servers only the gateway (8080) and the sandbox (8086) are, on 127.0.0.1', () => {
    const published = Object.entries<any>(compose.services)
      .filter(([name, service]) => !SERVERS.includes(name) && service.ports?.length)
      .map(([name, service]) => [name, service.ports]);
    assert.deepEqual(published, [['api-gateway', ['127.0.0.1:8080:8080']], ['epg-sandbox', ['127.0.0.1:8086:8086']]]);
  });

  it('When the images are built, then every service uses the shared Dockerfile with its SERVICE and PORT', () => {
    for (const { name, port } of SERVICES) {
      const build = compose.services[name].build;
      assert.equal(build.dockerfile, 'infra/docker/service.Dockerfile');
      assert.deepEqual(build.args, { SERVICE: name, PORT: String(port) });
      assert.equal(compose.services[name].environment.PORT, String(port));
    }
    assert.equal(compose.services.migrate.build.args.SERVICE, 'migrate');
    assert.ok(existsSync(path.join(repoRoot, 'infra/docker/migrate-all.mjs')));
  });

  it('When a service runs operator commands, then it trusts the JWKS of the operator\'s and the dashboard\'s public keys, and the dashboard signs with its own private key', () => {
    for (const { name } of SERVICES.filter((service) => 'OPERATOR_PUBLIC_KEYS' in service.wired)) {
      assert.match(compose.services[name].command.join(' '), /OPERATOR_PUBLIC_KEYS="\$\$\(cat \/keys\/operator-public-keys\.json\)"/, name);
    }
    assert.match(compose.services.dashboard.command.join(' '), /DASHBOARD_SIGNING_KEY="\$\$\(cat \/keys\/dashboard-private\.jwk\)"/);
    assert.equal(compose.services['api-gateway'].environment.DASHBOARD_UPSTREAM_URL, 'http://dashboard:8087');
  });

  it('When dev-keys runs (twice), then the JWKS holds the public halves of the operator\'s and the dashboard\'s keys, named by their kid, the dashboard\'s marked as a door\'s', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dev-keys-'));
    try {
      for (let run = 0; run < 2; run += 1) {
        const result = spawnSync(process.execPath, [path.join(repoRoot, 'infra/docker/dev-keys.mjs'), dir], { encoding: 'utf8', env: { ...process.env, KEYS_UID: String(process.getuid?.() ?? 1000) } });
        assert.equal(result.status, 0, result.stderr);
      }
      const read = (name: string) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Record<string, string>;
      const { keys } = JSON.parse(readFileSync(path.join(dir, 'operator-public-keys.json'), 'utf8')) as { keys: Record<string, string>[] };
      assert.deepEqual(keys, [read('operator-public.jwk'), { ...read('dashboard-public.jwk'), door: 'dashboard' }]);
      for (const name of ['operator', 'dashboard']) {
        const [secret, open] = [read(`${name}-private.jwk`), read(`${name}-public.jwk`)];
        assert.ok(secret['d'] && !open['d'], name);
        assert.deepEqual([secret['x'], secret['kid']], [open['x'], open['kid']], name);
      }
      assert.notEqual(keys[0]?.['kid'], keys[1]?.['kid']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('When the broker is set up, then the definitions mounted are infra/rabbitmq/definitions.json', () => {
    const volumes: string[] = compose.services['broker-setup'].volumes;
    assert.ok(volumes.some((v) => v.startsWith('./infra/rabbitmq/definitions.json:')), 'definitions not mounted');
  });

  it('When the services connect to the broker, then each does as its own user (D17), whose password broker-setup is given', () => {
    const definitions = JSON.parse(readRepoFile('infra/rabbitmq/definitions.json')) as { permissions: { user: string }[] };
    const setup: Record<string, string> = compose.services['broker-setup'].environment;
    for (const { user } of definitions.permissions) {
      const variable = `BROKER_PASSWORD_${user.slice('gw.'.length).toUpperCase().replaceAll('-', '_')}`;
      assert.ok(setup[variable], `broker-setup has no ${variable}`);
      const service = compose.services[user.slice('gw.'.length)];
      // The operators' CLI is no compose service.
      if (service) assert.equal(service.environment.AMQP_URL, `amqp://${user}:\${${variable}:-${user.slice('gw.'.length)}-dev}@rabbitmq:5672`);
    }
  });
});

describe('infra/docker/service.Dockerfile', () => {
  const text = readRepoFile('infra/docker/service.Dockerfile');
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));

  it('When the Dockerfile is read, then it is multi-stage and the runtime installs production dependencies only', () => {
    const stages = instructions.filter((line) => /^FROM\s/i.test(line));
    assert.ok(stages.length >= 2, `${stages.length} FROM`);
    assert.ok(instructions.some((line) => /^RUN .*npm ci .*--omit=dev/.test(line)), 'no npm ci --omit=dev');
    assert.ok(instructions.some((line) => /^RUN .*npx tsc -b/.test(line)), 'no tsc -b build');
    assert.ok(instructions.some((line) => /^ENV .*NODE_ENV=production/.test(line)), 'no NODE_ENV=production');
  });

  it('When the final stage is read, then it ends as a non-root USER with a HEALTHCHECK on /healthz', () => {
    const lastFrom = instructions.findLastIndex((line) => /^FROM\s/i.test(line));
    const final = instructions.slice(lastFrom);
    const users = final.filter((line) => /^USER\s/i.test(line));
    assert.equal(users.length, 1);
    const user = users[0]!.split(/\s+/)[1]!.split(':')[0]!;
    assert.ok(user !== 'root' && user !== '0', `USER ${user}`);
    assert.ok(/^\d+$/.test(user), 'a numeric USER, so that runAsNonRoot can check it');
    const healthcheck = final.find((line) => /^HEALTHCHECK\s/i.test(line));
    assert.ok(healthcheck?.includes('/healthz'), 'no HEALTHCHECK on /healthz');
    assert.ok(final.findIndex((line) => /^USER\s/i.test(line)) > final.findIndex((line) => /^RUN\s/i.test(line)), 'USER after the last RUN');
    assert.match(final.at(-1)!, /^CMD .*node services\/\$\{SERVICE\}\/dist\/src\/main\.js/);
  });

  it('When the runtime stage is read, then it is public Debian with the node binary alone (no npm), and the dependencies are pruned to what SERVICE loads', () => {
    const lastFrom = instructions.findLastIndex((line) => /^FROM\s/i.test(line));
    const final = instructions.slice(lastFrom);
    assert.match(final[0]!, /^FROM \$\{RUNTIME_IMAGE\} AS runtime$/);
    assert.ok(instructions.includes('ARG RUNTIME_IMAGE=debian:bookworm-slim'), 'RUNTIME_IMAGE defaults to the public Debian image');
    assert.ok(instructions.includes('ARG NODE_IMAGE=node:20.20-bookworm-slim'), 'NODE_IMAGE defaults to the public Node image');
    assert.ok(final.includes('COPY --from=build /usr/local/bin/node /usr/local/bin/node'), 'the node binary is copied from the build stage');
    assert.ok(!final.some((line) => /^RUN .*\bnpm\b/.test(line)), 'npm runs in the runtime stage');
    assert.ok(instructions.some((line) => /^RUN .*node infra\/docker\/prune-deps\.mjs \/out /.test(line)), 'no prune-deps.mjs step');
    assert.ok(existsSync(path.join(repoRoot, 'infra/docker/prune-deps.mjs')));
  });

  it('When the build context is sent, then .dockerignore leaves out node_modules, dist and .local', () => {
    const ignore = readRepoFile('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', '**/dist', '.local', '.git']) assert.ok(ignore.includes(entry), `.dockerignore lacks ${entry}`);
  });
});
