/**
 * The environment `make images`' smoke test gives each container
 * (infra/images/smoke.mjs, containerEnvironments), checked without podman: it
 * comes from the system's description. That each service is given every
 * setting it requires and none it does not know is checked against the
 * services' own settings in ../settings.test.ts.
 */
import assert from 'node:assert/strict';
import { freshKeys, SERVICES, systemEnvironment, type ServiceId } from '@gateway/system';
import { smokeEnvironments } from '../../src/index.js';

type Environments = Record<ServiceId, Record<string, string>>;

describe('infra/images/smoke.mjs, the containers\' environment', () => {
  const keys = freshKeys({ operator: 't_x-operator', dashboard: 't_x-dashboard' });
  const ports = Object.fromEntries(SERVICES.map(({ name }, i) => [name, 30_000 + i]));
  const brokerUrls = Object.fromEntries(SERVICES.map(({ name }) => [name, `amqp://t_x.${name}:pw@127.0.0.1:5672`]));
  let environments: Environments;

  before(async () => {
    environments = (await smokeEnvironments({
      prefix: 't_x',
      ports,
      keys,
      databaseUrl: (service: string) => `postgres://svc_${service}@127.0.0.1:5432/gwt_x`,
      brokerUrls,
      redisUrl: 'redis://127.0.0.1:6379',
      sandboxTerminal: { user: 'gateway-test', password: 'sandbox-test-password' },
    })) as Environments;
  });

  it('When the smoke run wires its containers, then each one\'s environment is the description\'s for the run, with its own broker user and port', () => {
    const wired = systemEnvironment({ keys, ports, databaseUrl: (service) => `postgres://svc_${service}@127.0.0.1:5432/gwt_x`, brokerUrl: (principal) => brokerUrls[principal] ?? '' });
    for (const { name } of SERVICES) {
      for (const [variable, value] of Object.entries(wired[name])) if (variable !== 'BROKER_PREFIX') assert.equal(environments[name][variable], value, `${name}: ${variable}`);
      assert.equal(environments[name]['PORT'], String(ports[name]));
    }
    assert.equal(environments['acquirer-adapter']['ACQUIRER_TEST_PASSWORD'], 'sandbox-test-password');
    assert.equal(environments['epg-sandbox']['SANDBOX_TERMINALS'], 'gateway-test:sandbox-test-password');
  });
});
