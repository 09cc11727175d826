/**
 * What the operations console reads at the acquirer adapter (D15): a
 * merchant's pricing (its own, or the configured default) and whether it has
 * a terminal of a mode, with its user name and never its password. The
 * adapter alone, on real PostgreSQL and RabbitMQ, with a default pricing set
 * through configuration. Operator commands only: a merchant's user is refused.
 */
import assert from 'node:assert/strict';
import { newId } from '@gateway/contracts';
import { Broker, OperatorSigner, RpcClient, type JWK } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import { TEST_OPERATOR, TestSystem } from '@gateway/testkit';

const codeOf = (code: string) => (err: unknown) => (err as { code?: string }).code === code;

describe('Acquirer adapter, pricing and terminals as the console reads them', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let userBroker: Broker | undefined;

  before(async () => {
    system = await TestSystem.start({
      services: ['acquirer-adapter'],
      serviceEnv: { 'acquirer-adapter': { DEFAULT_FEE_PERCENT: '2.25', DEFAULT_FEE_FIXED: '0.3' } },
      readyTimeoutMs: 60_000,
    });
  });
  after(async () => {
    await userBroker?.stop();
    await system?.shutdown();
  });

  it('when a merchant has no pricing of its own, then fees.get answers the configured default, and its own once set', async () => {
    const merchantId = newId('mer');
    assert.deepEqual(await system.send('fees.get', { merchant_id: merchantId }), { merchant_id: merchantId, percent: '2.25', fixed: '0.300', default: true });

    await system.admin(['fees', 'set', merchantId, '--percent', '1.7500', '--fixed', '0.15']);
    assert.deepEqual(await system.send('fees.get', { merchant_id: merchantId }), { merchant_id: merchantId, percent: '1.75', fixed: '0.150', default: false });
    // Another merchant still has the default.
    const other = newId('mer');
    assert.equal((await system.send<{ default: boolean }>('fees.get', { merchant_id: other })).default, true);
  });

  it('when a terminal is read, then it says whether one is configured and its user name, never the password', async () => {
    const merchantId = newId('mer');
    assert.deepEqual(await system.send('terminal.get', { merchant_id: merchantId, mode: 'live' }), { merchant_id: merchantId, mode: 'live', configured: false, user_name: null, active: null });
    // Test mode always pays through the built-in sandbox terminal.
    assert.deepEqual(await system.send('terminal.get', { merchant_id: merchantId, mode: 'test' }), { merchant_id: merchantId, mode: 'test', configured: true, user_name: null, active: true });

    await system.admin(['terminal', 'set', merchantId, '--mode', 'live', '--user', 'shop-terminal-7', '--password', 'very-secret-password-1', '--inactive']);
    const read = await system.send('terminal.get', { merchant_id: merchantId, mode: 'live' });
    assert.deepEqual(read, { merchant_id: merchantId, mode: 'live', configured: true, user_name: 'shop-terminal-7', active: false });
    assert.ok(!JSON.stringify(read).includes('very-secret-password-1'));
  });

  it("when a merchant's user asks for pricing or a terminal, then it is refused: these are for operators", async () => {
    const merchantId = newId('mer');
    userBroker = new Broker({ url: system.brokerUrls['gateway-admin'], prefix: system.prefix, log: createLogger({ service: 'test', level: 'silent' }) });
    await userBroker.start();
    const rpc = await userBroker.register(new RpcClient(userBroker, 5_000, await OperatorSigner.fromJwk(JSON.parse(system.operatorKey) as JWK, TEST_OPERATOR)));
    const actor = { type: 'user', id: 'usr_consoletest', email: 'owner@shop.example', address: '203.0.113.9', merchantId } as const;
    await assert.rejects(rpc.call('fees.get', { merchant_id: merchantId }, { actor }), codeOf('forbidden'));
    await assert.rejects(rpc.call('terminal.get', { merchant_id: merchantId, mode: 'live' }, { actor }), codeOf('forbidden'));
    // The same commands signed for a console operator run.
    const operator = { type: 'operator', id: 'opr_consoletest', email: 'ops@gateway.example', address: '203.0.113.10' } as const;
    assert.equal((await rpc.call('fees.get', { merchant_id: merchantId }, { actor: operator })).body.default, true);
  });
});
