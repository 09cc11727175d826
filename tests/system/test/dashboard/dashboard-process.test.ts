/**
 * The dashboard (D14, D15) in a test system, as every other service: its own
 * process, schema and broker user, the gateway pointed at it, and its signing
 * key trusted by the services that run operator commands.
 */
import assert from 'node:assert/strict';
import { Broker, OperatorSigner, RpcClient, type JWK } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import { operatorKeys, TestSystem } from '@gateway/testkit';

describe('The dashboard in a test system', function () {
  this.timeout(120_000);
  let system: TestSystem;

  before(async () => {
    // Child processes: the dashboard as its own process, as production runs it.
    system = await TestSystem.start({ launch: 'child-process', services: ['api-gateway', 'dashboard'], readyTimeoutMs: 60_000 });
  });
  after(async () => {
    await system?.shutdown();
  });

  it('When the system starts, then the dashboard is ready on its own port, its schema migrated, and the gateway pointed at it', async () => {
    const port = system.ports.get('dashboard');
    assert.ok(port && port !== system.ports.get('api-gateway'));
    assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);
    const tables = await system.db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'dashboard'");
    assert.ok(tables.length > 0, 'no table in schema dashboard');
    assert.equal(system.envOf('api-gateway')['DASHBOARD_UPSTREAM_URL'], `http://127.0.0.1:${port}`);
    assert.equal(system.dashboardUrl, `${system.baseUrl}/dashboard/`);
    assert.equal(system.opsUrl, `${system.baseUrl}/ops/`);
  });

  it("When the dashboard's broker user sends an operator command of the console's signed with its key for an operator, then the service runs it; one the console does not send is forbidden", async () => {
    const broker = new Broker({ url: system.brokerUrls.dashboard, prefix: system.prefix, log: createLogger({ service: 'test', level: 'silent' }) });
    await broker.start();
    try {
      const key = JSON.parse(system.envOf('dashboard')['DASHBOARD_SIGNING_KEY'] ?? '') as JWK;
      const rpc = await broker.register(new RpcClient(broker, 10_000, await OperatorSigner.fromJwk(key, 'dashboard')));
      const actor = { type: 'operator', id: 'opr_test', email: 'ops@example.com', address: '203.0.113.7' } as const;
      const result = await rpc.call('merchant.list', {}, { actor });
      assert.equal(result.status, 200);
      assert.ok(Array.isArray(result.body.data));
      await assert.rejects(rpc.call('merchant.create', { name: 'Signed by the dashboard' }, { actor }), (err: { code?: string }) => err.code === 'forbidden');
    } finally {
      await broker.stop();
    }
  });

  it('When a command is signed with a key no service was given, then it is refused', async () => {
    const broker = new Broker({ url: system.brokerUrls.dashboard, prefix: system.prefix, log: createLogger({ service: 'test', level: 'silent' }) });
    await broker.start();
    try {
      const stranger = JSON.parse(operatorKeys('not-trusted').privateJwk) as JWK;
      const rpc = await broker.register(new RpcClient(broker, 10_000, await OperatorSigner.fromJwk(stranger, 'dashboard')));
      await assert.rejects(rpc.call('merchant.create', { name: 'Signed by a stranger' }), (err: { code?: string }) => err.code === 'operator-unauthorized');
    } finally {
      await broker.stop();
    }
  });
});
