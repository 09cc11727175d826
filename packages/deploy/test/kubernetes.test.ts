import assert from 'node:assert/strict';
import { byKind, PUBLIC_SERVICES, readRepoFile, renderKustomization, SERVICES, validateObject, type K8sObject } from '../src/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests are read as plain JSON */

const OVERLAYS = ['k8s/overlays/test', 'k8s/overlays/production'];

for (const overlay of OVERLAYS) {
  describe(`kustomize overlay ${overlay}`, () => {
    let objects: K8sObject[] = [];
    before(function () {
      this.timeout(60_000);
      objects = renderKustomization(overlay);
    });

    it('When the overlay is rendered with kubectl kustomize, then every object validates against its Kubernetes schema', async () => {
      assert.ok(objects.length > 40, `only ${objects.length} objects rendered`);
      const failures: string[] = [];
      for (const object of objects) {
        try {
          await validateObject(object);
        } catch (err) {
          failures.push(`${object.kind}/${object.metadata?.name}: ${(err as Error).message}`);
        }
      }
      assert.deepEqual(failures, []);
    });

    it('When a service is deployed, then its Deployment probes /healthz and /readyz, has cpu and memory requests and limits, and runs as non-root with a read-only root', () => {
      const deployments = byKind(objects, 'Deployment');
      for (const { name, port } of SERVICES) {
        const deployment = deployments.get(name) as any;
        assert.ok(deployment, `no Deployment ${name}`);
        const pod = deployment.spec.template.spec;
        assert.equal(pod.securityContext.runAsNonRoot, true, `${name}: pod runAsNonRoot`);
        assert.ok(pod.terminationGracePeriodSeconds > 10, `${name}: terminationGracePeriodSeconds above SHUTDOWN_TIMEOUT_MS (10 s)`);
        const [container] = pod.containers;
        assert.deepEqual(container.command, ['node', `services/${name}/dist/src/main.js`]);
        assert.equal(container.ports[0].containerPort, port);
        assert.equal(container.livenessProbe.httpGet.path, '/healthz', `${name}: liveness`);
        assert.equal(container.readinessProbe.httpGet.path, '/readyz', `${name}: readiness`);
        assert.equal(container.startupProbe.httpGet.path, '/healthz', `${name}: startup`);
        for (const kind of ['requests', 'limits']) {
          for (const resource of ['cpu', 'memory']) assert.ok(container.resources?.[kind]?.[resource], `${name}: ${kind}.${resource}`);
        }
        const security = container.securityContext;
        assert.equal(security.runAsNonRoot, true, `${name}: runAsNonRoot`);
        assert.equal(security.readOnlyRootFilesystem, true, `${name}: readOnlyRootFilesystem`);
        assert.equal(security.allowPrivilegeEscalation, false, `${name}: allowPrivilegeEscalation`);
        assert.deepEqual(security.capabilities.drop, ['ALL'], `${name}: capabilities`);
        assert.equal(deployment.metadata.labels['app.kubernetes.io/name'], name);
        assert.equal(deployment.metadata.labels['app.kubernetes.io/part-of'], 'payment-gateway');
      }
    });

    it('When a service is deployed, then an autoscaler targets its Deployment on CPU, a PodDisruptionBudget and a Service select its pods', () => {
      const deployments = byKind(objects, 'Deployment');
      const autoscalers = [...byKind(objects, 'HorizontalPodAutoscaler').values()] as any[];
      const budgets = [...byKind(objects, 'PodDisruptionBudget').values()] as any[];
      const services = [...byKind(objects, 'Service').values()] as any[];
      for (const { name, port } of SERVICES) {
        const podLabels = (deployments.get(name) as any).spec.template.metadata.labels as Record<string, string>;
        const selects = (selector: Record<string, string>) => Object.entries(selector).every(([k, v]) => podLabels[k] === v);
        const hpa = autoscalers.find((a) => a.spec.scaleTargetRef.kind === 'Deployment' && a.spec.scaleTargetRef.name === name);
        assert.ok(hpa, `no HPA for ${name}`);
        assert.equal(hpa.apiVersion, 'autoscaling/v2');
        assert.ok(hpa.spec.minReplicas >= 1 && hpa.spec.maxReplicas >= hpa.spec.minReplicas, `${name}: HPA bounds`);
        assert.ok(hpa.spec.metrics.some((m: any) => m.resource?.name === 'cpu'), `${name}: HPA on CPU`);
        assert.ok(budgets.some((b) => selects(b.spec.selector.matchLabels)), `no PDB for ${name}`);
        const service = services.find((s) => s.metadata.name === name);
        assert.ok(service && selects(service.spec.selector), `no Service selecting ${name}`);
        assert.equal(service.spec.ports[0].port, port);
      }
    });

    it('When the NetworkPolicies apply, then ingress is denied by default and allowed from outside only to api-gateway and checkout', () => {
      const policies = [...byKind(objects, 'NetworkPolicy').values()] as any[];
      const denyAll = policies.find(
        (p) => Object.keys(p.spec.podSelector).length === 0 && p.spec.policyTypes.includes('Ingress') && !(p.spec.ingress?.length > 0),
      );
      assert.ok(denyAll, 'no default-deny ingress policy');
      const openTo = new Set<string>();
      for (const policy of policies) {
        for (const rule of policy.spec.ingress ?? []) {
          // From outside: no `from` (anywhere), or a peer that is not a pod of this namespace.
          const fromOutside = !rule.from || rule.from.length === 0 || rule.from.some((peer: any) => peer.ipBlock || peer.namespaceSelector);
          if (!fromOutside) continue;
          const selector = policy.spec.podSelector;
          const name = selector.matchLabels?.['app.kubernetes.io/name'];
          assert.ok(name && !selector.matchExpressions, `${policy.metadata.name} opens ingress from outside to pods it does not name`);
          openTo.add(name);
        }
      }
      assert.deepEqual([...openTo].sort(), [...PUBLIC_SERVICES].sort());
    });

    it('When the Ingress routes, then /api/ goes to api-gateway and /checkout/ to checkout', () => {
      const [ingress] = [...byKind(objects, 'Ingress').values()] as any[];
      const paths = ingress.spec.rules.flatMap((r: any) => r.http.paths.map((p: any) => [p.path, p.backend.service.name]));
      assert.deepEqual(paths, [['/api/', 'api-gateway'], ['/checkout/', 'checkout']]);
    });

    it('When the database is migrated, then there is one Job per schema-owning service running its migrate entry, and a bootstrap Job', () => {
      const jobs = [...byKind(objects, 'Job').values()] as any[];
      const commands = jobs.map((j) => j.spec.template.spec.containers[0].command.join(' '));
      for (const { name, migrates } of SERVICES) {
        const matching = commands.filter((c) => c === `node services/${name}/dist/src/migrate.js`);
        assert.equal(matching.length, migrates ? 1 : 0, `migration Jobs of ${name}`);
      }
      assert.ok(commands.includes('node infra/docker/migrate-all.mjs --bootstrap-only'), 'no db-bootstrap Job');
    });

    it('When settings reach the services, then WEBHOOK_ALLOW_PRIVATE is false and secrets come from Secret references only', () => {
      const common = byKind(objects, 'ConfigMap').get('gateway-common') as any;
      assert.equal(common.data.WEBHOOK_ALLOW_PRIVATE, 'false');
      assert.equal(byKind(objects, 'Secret').size, 0, 'no Secret values in the manifests');
      for (const deployment of byKind(objects, 'Deployment').values() as Iterable<any>) {
        for (const env of deployment.spec.template.spec.containers[0].env ?? []) {
          if (/URL$|KEY$|KEK$|KEK_PREVIOUS$|PASSWORD$|SECRET$|TERMINALS$/.test(env.name)) assert.ok(env.valueFrom?.secretKeyRef, `${deployment.metadata.name}: ${env.name} from a Secret`);
        }
      }
    });

    it('When a service keeps secrets (D17), then its Deployment reads SECRETS_KEK, and optionally SECRETS_KEK_PREVIOUS, from Secret gateway-secrets-kek', () => {
      const deployments = byKind(objects, 'Deployment');
      for (const name of ['api-gateway', 'acquirer-adapter', 'webhook-dispatcher']) {
        const env = (deployments.get(name) as any).spec.template.spec.containers[0].env as any[];
        const ref = (variable: string) => env.find((e) => e.name === variable)?.valueFrom?.secretKeyRef;
        assert.deepEqual(ref('SECRETS_KEK'), { name: 'gateway-secrets-kek', key: 'SECRETS_KEK' }, name);
        assert.deepEqual(ref('SECRETS_KEK_PREVIOUS'), { name: 'gateway-secrets-kek', key: 'SECRETS_KEK_PREVIOUS', optional: true }, name);
      }
    });

    it('When a service runs operator commands, then it takes the operators\' public keys from the ConfigMap operator-public-keys (D17)', () => {
      const deployments = byKind(objects, 'Deployment');
      for (const name of ['api-gateway', 'session', 'acquirer-adapter', 'refund', 'webhook-dispatcher']) {
        const env = ((deployments.get(name) as any).spec.template.spec.containers[0].env ?? []) as any[];
        assert.deepEqual(env.find((e) => e.name === 'OPERATOR_PUBLIC_KEYS')?.valueFrom, { configMapKeyRef: { name: 'operator-public-keys', key: 'OPERATOR_PUBLIC_KEYS' } }, name);
      }
    });
  });
}

describe('kustomize overlays, environment differences', () => {
  it('When the test overlay renders, then PostgreSQL, RabbitMQ (with the repository definitions) and Redis run in-cluster; production has none', () => {
    const test = renderKustomization('k8s/overlays/test');
    const production = renderKustomization('k8s/overlays/production');
    const workloads = (objects: K8sObject[]) =>
      objects.filter((o) => o.kind === 'StatefulSet' || o.kind === 'Deployment').map((o) => o.metadata.name);
    for (const server of ['postgres', 'rabbitmq', 'redis']) {
      assert.ok(workloads(test).includes(server), `test overlay has no ${server}`);
      assert.ok(!workloads(production).includes(server), `production overlay runs ${server} in-cluster`);
      assert.ok(byKind(test, 'Service').has(server), `test overlay has no Service ${server}`);
    }
    assert.equal(readRepoFile('k8s/overlays/test/rabbitmq/definitions.json'), readRepoFile('infra/rabbitmq/definitions.json'),
      'k8s/overlays/test/rabbitmq/definitions.json is not a copy of infra/rabbitmq/definitions.json');
    const definitions = [...byKind(test, 'ConfigMap').values()].find((c) => c.metadata.name.startsWith('rabbitmq-definitions')) as any;
    assert.ok(definitions?.data?.['definitions.json'], 'no rabbitmq-definitions ConfigMap');
    // Each broker user the definitions grant permissions to is created from its own principal's Secret (D17).
    const job = byKind(test, 'Job').get('rabbitmq-definitions') as any;
    const env = new Map<string, any>(job.spec.template.spec.containers[0].env.map((e: any) => [e.name, e.valueFrom?.secretKeyRef]));
    for (const { user } of JSON.parse(definitions.data['definitions.json']).permissions as { user: string }[]) {
      const principal = user.slice('gw.'.length);
      assert.deepEqual(env.get(`AMQP_URL_${principal.toUpperCase().replaceAll('-', '_')}`), { name: `${principal}-secrets`, key: 'AMQP_URL' }, `${user}'s password`);
    }

    const replicas = (objects: K8sObject[], name: string) => (byKind(objects, 'Deployment').get(name) as any).spec.replicas;
    assert.ok(replicas(production, 'session') > replicas(test, 'session'));
    const adapter = byKind(production, 'ConfigMap').get('acquirer-adapter-config') as any;
    assert.match(adapter.data.ACQUIRER_LIVE_URL, /^https:\/\//);
    const image = (objects: K8sObject[]) => (byKind(objects, 'Deployment').get('session') as any).spec.template.spec.containers[0].image;
    assert.match(image(test), /:test$/);
  });
});
