import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { serviceSchemas } from '@gateway/db';
import {
  freshKeys,
  REPLICATED,
  replicaName,
  replicaPort,
  repoRoot,
  SCHEMA_OWNERS,
  SECRET_KEEPERS,
  SERVICE_NAMES,
  SERVICES,
  systemEnvironment,
  wiredVariables,
  type ServiceDescription,
  type SystemWiring,
} from '../../src/index.js';

const keys = freshKeys({ operator: 'op-kid', dashboard: 'dash-kid' });

/** A system on the default ports, with URLs that name their service. */
function wiring(overrides: Partial<SystemWiring> = {}): SystemWiring {
  return {
    keys,
    ports: Object.fromEntries(SERVICES.map(({ name, port }) => [name, port])),
    databaseUrl: (service) => `postgres://svc_${service}@db/gateway`,
    brokerUrl: (principal) => `amqp://gw.${principal}@broker`,
    ...overrides,
  };
}

const described = SERVICES as readonly ServiceDescription[];

describe('the system description', () => {
  it('When the services are listed, then each has a name of its own, a port of its own (8080-8089) and a folder under services/', () => {
    assert.equal(new Set(SERVICE_NAMES).size, SERVICES.length);
    assert.deepEqual(SERVICES.map(({ port }) => port), [8080, 8081, 8082, 8083, 8084, 8085, 8086, 8087, 8088, 8089]);
    for (const name of SERVICE_NAMES) assert.ok(existsSync(path.join(repoRoot, 'services', name, 'package.json')), name);
  });

  it('When a folder under services/ holds a service, then the list of services names it, and names nothing else', () => {
    const folders = readdirSync(path.join(repoRoot, 'services'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    assert.deepEqual([...SERVICE_NAMES].sort(), folders.sort(), 'packages/contracts/src/services.ts lists every folder under services/, and only those');
  });

  it('When a service owns a schema, then it is the schema @gateway/db makes its role for, and the service has a migration entry', () => {
    for (const { name, schema } of described) {
      assert.equal(existsSync(path.join(repoRoot, 'services', name, 'src', 'migrate.ts')), schema !== undefined, `${name}'s migrate entry`);
      if (schema) assert.equal(serviceSchemas[name as keyof typeof serviceSchemas], schema, name);
    }
    assert.deepEqual(SCHEMA_OWNERS, described.filter(({ schema }) => schema).map(({ name }) => name));
  });

  it('When every service\'s environment is made, then it has DATABASE_URL exactly when it has a schema, as its own role', () => {
    const environments = systemEnvironment(wiring());
    for (const { name, schema } of described) {
      assert.equal(environments[name as keyof typeof environments]['DATABASE_URL'], schema ? `postgres://svc_${name}@db/gateway` : undefined, name);
    }
  });

  it('When every service\'s environment is made, then a service with a broker user connects as it, with the system\'s prefix, and the sandbox has none', () => {
    const environments = systemEnvironment(wiring({ brokerPrefix: 't_1' }));
    for (const { name, principal } of described) {
      const env = environments[name as keyof typeof environments];
      assert.equal(env['AMQP_URL'], principal ? `amqp://gw.${principal}@broker` : undefined, name);
      assert.equal(env['BROKER_PREFIX'], principal ? 't_1' : undefined, name);
    }
    assert.equal(environments['epg-sandbox']['AMQP_URL'], undefined);
  });

  it('When the keys are handed out, then each private half goes to the one service that uses it and each public half to its peers', () => {
    const environments = systemEnvironment(wiring());
    const holders = (value: string) => SERVICE_NAMES.filter((name) => Object.values(environments[name]).includes(value)).sort();
    assert.deepEqual(holders(keys.link.privateJwk), ['session']);
    assert.deepEqual(holders(keys.link.publicJwk), ['checkout']);
    assert.deepEqual(holders(keys.card.privateJwk), ['acquirer-adapter']);
    // The dashboard seals a merchant's Flouci private key for the adapter (D26).
    assert.deepEqual(holders(keys.card.publicJwk), ['checkout', 'dashboard']);
    assert.deepEqual(holders(keys.dashboard.privateJwk), ['dashboard']);
    assert.deepEqual(holders(keys.operator.privateJwk), [], 'the operator key stays with the operators');
    assert.deepEqual(holders(keys.secretsKek), [...SECRET_KEEPERS].sort());
    for (const value of Object.values(environments).flatMap((env) => Object.values(env))) assert.ok(!value.includes('"d"') || [keys.link, keys.card, keys.dashboard].some((pair) => pair.privateJwk === value));
  });

  it('When a service runs operator commands, then it trusts the operator\'s and the dashboard\'s public keys, by kid, or the operators given instead', () => {
    const trusted = (env: Record<string, string>) => (JSON.parse(env['OPERATOR_PUBLIC_KEYS'] ?? '{"keys":[]}') as { keys: { kid: string; d?: string }[] }).keys;
    const environments = systemEnvironment(wiring());
    const runners = SERVICE_NAMES.filter((name) => 'OPERATOR_PUBLIC_KEYS' in (described.find((service) => service.name === name)?.wired ?? {}));
    assert.ok(runners.length >= 6, 'every service with a broker user but checkout, the ledger and the notifier runs operator commands');
    for (const name of runners) {
      assert.deepEqual(trusted(environments[name]).map(({ kid }) => kid), ['op-kid', 'dash-kid'], name);
      assert.ok(trusted(environments[name]).every((key) => key.d === undefined), name);
    }
    assert.equal(environments.checkout['OPERATOR_PUBLIC_KEYS'], undefined);
    assert.equal(environments.ledger['OPERATOR_PUBLIC_KEYS'], undefined, 'the ledger runs no operator commands');
    assert.equal(environments.notifier['OPERATOR_PUBLIC_KEYS'], undefined, 'the notifier runs no operator commands');
    const given = systemEnvironment(wiring({ operators: [{ kty: 'OKP', crv: 'Ed25519', x: 'x', kid: 'theirs' }] }));
    assert.deepEqual(trusted(given.refund).map(({ kid }) => kid), ['theirs', 'dash-kid']);
  });

  it('When the system names a mail server, then the notifier, and no other service, is given it as SMTP_URL; without one the notifier keeps its own default (D20)', () => {
    const environments = systemEnvironment(wiring({ smtpUrl: 'smtp://127.0.0.1:2525' }));
    assert.deepEqual(SERVICE_NAMES.filter((name) => environments[name]['SMTP_URL'] !== undefined), ['notifier']);
    assert.equal(environments.notifier['SMTP_URL'], 'smtp://127.0.0.1:2525');
    assert.equal(systemEnvironment(wiring()).notifier['SMTP_URL'], undefined);
  });

  it('When neighbours are wired, then the gateway reaches checkout and the dashboard, the adapter the sandbox, on their ports and host', () => {
    const ports = Object.fromEntries(SERVICES.map(({ name }, i) => [name, 20_000 + i]));
    const environments = systemEnvironment(
      wiring({
        ports,
        host: '10.1.2.3',
        sandboxTerminals: [{ user: 'u', password: 'p:w' }, { user: 'live', password: 'l' }],
        sandboxFlouciApps: [{ publicKey: 'pub', privateKey: 'priv:x' }, { publicKey: 'pub2', privateKey: 'priv2' }],
      }),
    );
    assert.equal(environments['api-gateway']['CHECKOUT_UPSTREAM_URL'], `http://10.1.2.3:${ports['checkout']}`);
    assert.equal(environments['api-gateway']['DASHBOARD_UPSTREAM_URL'], `http://10.1.2.3:${ports['dashboard']}`);
    assert.equal(environments['acquirer-adapter']['ACQUIRER_TEST_URL'], `http://10.1.2.3:${ports['epg-sandbox']}/payment/rest/`);
    assert.deepEqual([environments['acquirer-adapter']['ACQUIRER_TEST_USER'], environments['acquirer-adapter']['ACQUIRER_TEST_PASSWORD']], ['u', 'p:w']);
    assert.equal(environments['epg-sandbox']['SANDBOX_TERMINALS'], 'u:p:w,live:l');
    assert.equal(environments['epg-sandbox']['SANDBOX_FLOUCI_APPS'], 'pub:priv:x,pub2:priv2');
    assert.deepEqual(SERVICE_NAMES.filter((name) => environments[name]['SANDBOX_FLOUCI_APPS'] !== undefined), ['epg-sandbox'], 'the Flouci keys go to the sandbox alone');
    assert.equal(environments['epg-sandbox']['SANDBOX_PUBLIC_URL'], `http://10.1.2.3:${ports['epg-sandbox']}`);
    assert.equal(environments.checkout['SANDBOX_PUBLIC_URL'], `http://10.1.2.3:${ports['epg-sandbox']}`, 'the page hands buyers to the sandbox the sandbox says it is');
    for (const name of ['api-gateway', 'session', 'checkout', 'dashboard'] as const) assert.equal(environments[name]['PUBLIC_BASE_URL'], `http://10.1.2.3:${ports['api-gateway']}`, name);
    for (const name of SERVICE_NAMES) assert.equal(environments[name]['PORT'], String(ports[name]), name);
  });

  it('When extra settings are given, then the ones for all lie under the wired ones, and a service\'s own over them', () => {
    const environments = systemEnvironment(wiring(), { env: { LOG_LEVEL: 'debug', PORT: '1' }, serviceEnv: { session: { LINK_SIGNING_KEY: 'mine', ADAPTER_TIMEOUT_MS: '9000' } } });
    assert.equal(environments.refund['LOG_LEVEL'], 'debug');
    assert.equal(environments.refund['PORT'], '8084');
    assert.deepEqual([environments.session['LINK_SIGNING_KEY'], environments.session['ADAPTER_TIMEOUT_MS']], ['mine', '9000']);
  });

  it('When a setting is left undefined by the system (no Redis given), then it is left out, and the service keeps its own default', () => {
    const environments = systemEnvironment(wiring());
    assert.ok(!('REDIS_URL' in environments['api-gateway']));
    assert.ok(!('SANDBOX_FLOUCI_APPS' in environments['epg-sandbox']), 'the sandbox keeps its default Flouci application');
    assert.equal(systemEnvironment(wiring({ redisUrl: 'redis://r' }))['api-gateway']['REDIS_URL'], 'redis://r');
    for (const name of SERVICE_NAMES) for (const variable of Object.keys(environments[name])) assert.ok(wiredVariables(name).includes(variable), `${name}: ${variable}`);
  });

  it('When replicas are made, then the first keeps the service\'s name and port, and each other has a name and port of its own', () => {
    assert.deepEqual([0, 1, 2].map((i) => [replicaName('checkout', i), replicaPort(8081, i)]), [['checkout', 8081], ['checkout-2', 8091], ['checkout-3', 8101]]);
    // make up's largest: REPLICAS=9.
    const processes = SERVICES.flatMap(({ name, port }) => Array.from({ length: REPLICATED.includes(name) ? 9 : 1 }, (_, i) => ({ name: replicaName(name, i), port: replicaPort(port, i) })));
    assert.equal(new Set(processes.map(({ port }) => port)).size, processes.length, 'a port given twice');
    assert.equal(new Set(processes.map(({ name }) => name)).size, processes.length, 'a name given twice');
    assert.ok(!REPLICATED.includes('epg-sandbox'), 'the sandbox keeps its orders in memory');
  });
});
