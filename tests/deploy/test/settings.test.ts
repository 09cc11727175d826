/**
 * docker-compose.yml and the k8s overlays held to the system's description
 * (@gateway/system) and to each service's own settings (its src/config.ts, read
 * from its package's `service` definition): every service is there on its
 * port, with its schema's database and its own broker user where it has them;
 * every setting it requires (one without a default) is given; and nothing is
 * given that it does not know, since a misspelt variable is otherwise ignored
 * without a word.
 *
 * What one service alone is given must be one of its settings. A block given
 * to several services at once (compose's x-app-env, a ConfigMap several
 * Deployments take whole with envFrom) holds the settings of an environment,
 * whose values must agree across the services (PUBLIC_BASE_URL,
 * KEY_ROTATION_GRACES_SECONDS): each of its variables must be a setting of at
 * least one of the services it is given to.
 */
import assert from 'node:assert/strict';
import type { ServiceDefinition } from '@gateway/runtime';
import { freshKeys, SERVICES, wiredVariables, type ServiceDescription } from '@gateway/system';
import { parse } from 'yaml';
import { byKind, readRepoFile, renderKustomization, smokeEnvironments, type K8sObject } from '../src/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- docker-compose.yml and rendered manifests are read as plain JSON */

/** Variables no service setting reads, which the platform does (Node and express read NODE_ENV). */
const PLATFORM = new Set(['NODE_ENV']);

/** What a service is given, and where from. */
interface Given {
  /** Variables given to this service alone. */
  own: Set<string>;
  /** Each block given to several services at once: its name and variables. */
  shared: Map<string, Set<string>>;
}

/** A service's settings by environment variable: whether each has a default. */
async function settingsOf(service: string): Promise<Map<string, boolean>> {
  const { service: definition } = (await import(`@gateway/${service}`)) as { service: ServiceDefinition };
  assert.equal(definition.name, service);
  return new Map(Object.values(definition.settings).map((setting) => [setting.env, setting.fallback !== undefined]));
}

/**
 * The problems of `given` against the settings of `service` (by name, in
 * `settings`) and against the description: a required setting not given, a
 * variable given to it alone that it does not know, a database or broker URL
 * where it has no schema or broker user, or none where it has.
 */
function problemsOf(service: ServiceDescription, given: Given, settings: ReadonlyMap<string, ReadonlyMap<string, boolean>>, where: string): string[] {
  const own = settings.get(service.name) ?? new Map<string, boolean>();
  const all = new Set([...given.own, ...[...given.shared.values()].flatMap((block) => [...block])]);
  const problems: string[] = [];
  for (const [variable, hasDefault] of own) if (!hasDefault && !all.has(variable)) problems.push(`${service.name}: ${variable} is required and not given`);
  for (const variable of given.own) if (!own.has(variable) && !PLATFORM.has(variable)) problems.push(`${service.name}: ${variable} is no setting of it`);
  if (all.has('DATABASE_URL') !== (service.schema !== undefined)) problems.push(`${service.name}: DATABASE_URL ${service.schema ? 'missing' : 'given'}, though it ${service.schema ? 'owns schema ' + service.schema : 'owns no schema'}`);
  if (all.has('AMQP_URL') !== (service.principal !== undefined)) problems.push(`${service.name}: AMQP_URL ${service.principal ? 'missing' : 'given'}, though it ${service.principal ? 'is broker user ' + service.principal : 'has no broker user'}`);
  return problems.map((problem) => `${problem} (${where})`);
}

/** The variables of a block given to several services that none of them knows. */
function unknownShared(block: string, variables: ReadonlySet<string>, takers: readonly string[], settings: ReadonlyMap<string, ReadonlyMap<string, boolean>>): string[] {
  return [...variables]
    .filter((variable) => !PLATFORM.has(variable) && !takers.some((taker) => settings.get(taker)?.has(variable)))
    .map((variable) => `${block} (given to ${takers.join(', ')}): ${variable} is no setting of any of them`);
}

describe('deployment settings against the services\' own (compose, k8s)', () => {
  const settings = new Map<string, Map<string, boolean>>();
  before(async () => {
    for (const { name } of SERVICES) settings.set(name, await settingsOf(name));
  });

  it('When the description wires a setting into a service, then it is one of the service\'s settings', () => {
    const unknown = SERVICES.flatMap(({ name }) => wiredVariables(name).filter((variable) => !settings.get(name)?.has(variable)).map((variable) => `${name}: ${variable}`));
    assert.deepEqual(unknown, []);
  });

  it('When make images\' smoke run starts a container, then it gives every setting its service requires and none it does not know, and the service reads them', async () => {
    const ports = Object.fromEntries(SERVICES.map(({ name }, i) => [name, 30_000 + i]));
    const environments = await smokeEnvironments({
      prefix: 't_x',
      ports,
      keys: freshKeys(),
      databaseUrl: (service: string) => `postgres://svc_${service}@127.0.0.1:5432/gwt_x`,
      brokerUrls: Object.fromEntries(SERVICES.map(({ name }) => [name, `amqp://t_x.${name}:pw@127.0.0.1:5672`])),
      redisUrl: 'redis://127.0.0.1:6379',
      sandboxTerminal: { user: 'gateway-test', password: 'sandbox-test-password' },
    });
    const problems = SERVICES.flatMap((service) =>
      problemsOf(service, { own: new Set(Object.keys(environments[service.name] ?? {})), shared: new Map() }, settings, 'infra/images/smoke.mjs'),
    );
    assert.deepEqual(problems, []);
    for (const { name } of SERVICES) ((await import(`@gateway/${name}`)) as { service: ServiceDefinition }).service.loadConfig(environments[name] ?? {});
  });

  describe('docker-compose.yml', () => {
    // Read without merging, so that what a service takes from a shared block (`<<: *app-env`) is told from its own.
    const compose = parse(readRepoFile('docker-compose.yml'), { merge: false }) as any;

    /** What compose gives `service`: its environment (the merged blocks apart) and what its command exports (keys read from /keys). */
    function givenTo(service: string): Given {
      const { '<<': merged, ...environment } = compose.services[service].environment ?? {};
      const exported = /export (.*?) &&/.exec((compose.services[service].command ?? []).join(' '))?.[1] ?? '';
      const own = new Set([...Object.keys(environment), ...[...exported.matchAll(/([A-Z][A-Z0-9_]*)=/g)].map((match) => match[1] ?? '')]);
      const shared = new Map<string, Set<string>>(merged ? [['x-app-env', new Set(Object.keys(merged).filter((variable) => !own.has(variable)))]] : []);
      return { own, shared };
    }

    it('When the compose file is read, then every service of the description is there, built and listening on its port', () => {
      for (const { name, port } of SERVICES) {
        const service = compose.services[name];
        assert.ok(service, `no service ${name}`);
        assert.equal(service.environment.PORT, String(port), name);
      }
    });

    it('When a service has a schema or a broker user, then compose connects it as its schema\'s role and as its own broker user', () => {
      for (const { name, ...service } of SERVICES as readonly ServiceDescription[]) {
        const { DATABASE_URL: database, AMQP_URL: broker } = compose.services[name].environment;
        if (service.schema) assert.equal(new URL(database).username, `svc_${service.schema}`, name);
        if (service.principal) assert.match(broker, new RegExp(`^amqp://gw\\.${service.principal}:`), name);
      }
    });

    it('When compose starts a service, then it gives every setting the service requires and none it does not know', () => {
      const problems = SERVICES.flatMap((service) => problemsOf(service, givenTo(service.name), settings, `docker-compose.yml, services.${service.name}`));
      const takers = SERVICES.filter(({ name }) => givenTo(name).shared.size > 0).map(({ name }) => name);
      problems.push(...unknownShared('x-app-env', new Set(Object.keys(compose['x-app-env'])), takers, settings));
      assert.deepEqual(problems, []);
    });
  });

  for (const overlay of ['k8s/overlays/test', 'k8s/overlays/production']) {
    describe(overlay, () => {
      let objects: K8sObject[] = [];
      before(function () {
        this.timeout(60_000);
        objects = renderKustomization(overlay);
      });

      /** Each service's container, by service. */
      const containers = () => new Map<string, any>(SERVICES.map(({ name }) => [name, (byKind(objects, 'Deployment').get(name) as any)?.spec.template.spec.containers[0]]));

      /** The Deployments that take ConfigMap `name` whole (envFrom). */
      const takersOf = (name: string) =>
        SERVICES.map((service) => service.name).filter((service) => (containers().get(service)?.envFrom ?? []).some((source: any) => source.configMapRef?.name === name));

      /** What the overlay gives `service`: its env entries and the ConfigMaps it alone takes whole; the ones it shares, apart. */
      function givenTo(service: string): Given {
        const container = containers().get(service);
        const own = new Set<string>((container.env ?? []).map((entry: any) => entry.name));
        const shared = new Map<string, Set<string>>();
        for (const source of container.envFrom ?? []) {
          assert.ok(source.configMapRef, `${service}: envFrom a Secret, whose keys cannot be checked here`);
          const variables = Object.keys((byKind(objects, 'ConfigMap').get(source.configMapRef.name) as any)?.data ?? {});
          if (takersOf(source.configMapRef.name).length > 1) shared.set(source.configMapRef.name, new Set(variables));
          else for (const variable of variables) own.add(variable);
        }
        return { own, shared };
      }

      it('When a service is deployed, then it listens on its port, and its database and broker URLs come from its own Secret where it has a schema or a broker user', () => {
        for (const { name, port, ...service } of SERVICES as readonly ServiceDescription[]) {
          const container = containers().get(name);
          assert.ok(container, `no Deployment ${name}`);
          assert.equal(container.ports[0].containerPort, port, name);
          const secretOf = (variable: string) => (container.env ?? []).find((entry: any) => entry.name === variable)?.valueFrom?.secretKeyRef;
          if (service.schema) assert.deepEqual(secretOf('DATABASE_URL'), { name: `${name}-secrets`, key: 'DATABASE_URL' }, name);
          if (service.principal) assert.deepEqual(secretOf('AMQP_URL'), { name: `${name}-secrets`, key: 'AMQP_URL' }, name);
        }
      });

      it('When a service is deployed, then it is given every setting it requires and none it does not know', () => {
        const problems = SERVICES.flatMap((service) => problemsOf(service, givenTo(service.name), settings, `k8s/base/services/${service.name}.yaml, or ${overlay}`));
        const sharedMaps = new Set(SERVICES.flatMap(({ name }) => [...givenTo(name).shared.keys()]));
        for (const map of sharedMaps) {
          problems.push(...unknownShared(map, new Set(Object.keys((byKind(objects, 'ConfigMap').get(map) as any).data)), takersOf(map), settings));
        }
        assert.deepEqual(problems, []);
      });
    });
  }
});
