/**
 * A merchant's exchange rates as the dashboard's settings page reads them
 * (D14, rate.list): one mode's rates in currency order, as stored (six
 * decimals), for the merchant named only. The session service alone on real
 * PostgreSQL and RabbitMQ; rates set as `gateway-admin rate set` does.
 */
import assert from 'node:assert/strict';
import { newId } from '@gateway/contracts';
import { Broker, OperatorSigner, RpcClient, type JWK } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import { TEST_OPERATOR, TestSystem } from '@gateway/testkit';

type RateList = { data: { currency: string; rate: string; updated_at: string }[] };
const codeOf = (code: string) => (err: unknown) => (err as { code?: string }).code === code;

describe('Exchange rates, listed', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let userBroker: Broker | undefined;

  before(async () => {
    system = await TestSystem.start({ services: ['session'], readyTimeoutMs: 60_000 });
  });
  after(async () => {
    await userBroker?.stop();
    await system?.shutdown();
  });

  it("when rates are listed, then they are that mode's, in currency order, as stored with six decimals", async () => {
    const merchantId = newId('mer');
    const before = Date.now();
    await system.admin(['rate', 'set', merchantId, '--mode', 'test', '--currency', 'USD', '--rate', '3.1']);
    await system.admin(['rate', 'set', merchantId, '--mode', 'test', '--currency', 'EUR', '--rate', '3.332517']);
    await system.admin(['rate', 'set', merchantId, '--mode', 'test', '--currency', 'JPY', '--rate', '0.000049']);
    await system.admin(['rate', 'set', merchantId, '--mode', 'live', '--currency', 'GBP', '--rate', '4']);
    await system.admin(['rate', 'set', newId('mer'), '--mode', 'test', '--currency', 'CHF', '--rate', '3.5']);

    const test = await system.send<RateList>('rate.list', { merchant_id: merchantId, mode: 'test' });
    assert.deepEqual(
      test.data.map(({ currency, rate }) => [currency, rate]),
      [
        ['EUR', '3.332517'],
        ['JPY', '0.000049'],
        ['USD', '3.100000'],
      ],
    );
    for (const row of test.data) assert.ok(Date.parse(row.updated_at) >= before - 5_000, row.updated_at);
    assert.deepEqual(
      (await system.send<RateList>('rate.list', { merchant_id: merchantId, mode: 'live' })).data.map(({ currency, rate }) => [currency, rate]),
      [['GBP', '4.000000']],
    );

    await system.admin(['rate', 'remove', merchantId, '--mode', 'test', '--currency', 'JPY']);
    assert.deepEqual((await system.send<RateList>('rate.list', { merchant_id: merchantId, mode: 'test' })).data.map((r) => r.currency), ['EUR', 'USD']);
    assert.deepEqual((await system.send<RateList>('rate.list', { merchant_id: newId('mer'), mode: 'test' })).data, []);
  });

  it("when a merchant's user lists rates, then only their own merchant's answer", async () => {
    const mine = newId('mer');
    const theirs = newId('mer');
    await system.admin(['rate', 'set', mine, '--mode', 'test', '--currency', 'EUR', '--rate', '3.3']);
    await system.admin(['rate', 'set', theirs, '--mode', 'test', '--currency', 'USD', '--rate', '3.1']);
    userBroker = new Broker({ url: system.brokerUrls['gateway-admin'], prefix: system.prefix, log: createLogger({ service: 'test', level: 'silent' }) });
    await userBroker.start();
    const rpc = await userBroker.register(new RpcClient(userBroker, 5_000, await OperatorSigner.fromJwk(JSON.parse(system.operatorKey) as JWK, TEST_OPERATOR)));
    const actor = { type: 'user', id: 'usr_ratestest', email: 'dev@shop.example', address: '203.0.113.7', merchantId: mine } as const;

    assert.deepEqual((await rpc.call('rate.list', { merchant_id: mine, mode: 'test' }, { actor })).body.data.map((r) => r.currency), ['EUR']);
    await assert.rejects(rpc.call('rate.list', { merchant_id: theirs, mode: 'test' }, { actor }), codeOf('forbidden'));
  });
});
