import assert from 'node:assert/strict';
import { createLogger } from '@gateway/observability';
import { ExportSlots, type SlotStore } from '../../src/index.js';

const log = createLogger({ service: 'test', level: 'silent' });
const account = { merchantId: 'mer_00000000000000000001', livemode: false };

/** A store that records each script's call and answers `take` for the taking script. */
function store(take: () => Promise<unknown>): SlotStore & { calls: { script: string; args: (string | number)[] }[] } {
  const calls: { script: string; args: (string | number)[] }[] = [];
  return {
    calls,
    eval: async (script: string, _keys: number, ...args: (string | number)[]) => {
      const kind = script.includes('ZCARD') ? 'take' : script.includes('ZREM') ? 'release' : 'renew';
      calls.push({ script: kind, args });
      return kind === 'take' ? take() : 1;
    },
  };
}

describe('Export slots (D29)', () => {
  it('when Redis gives a slot, then the account\'s key is the mode\'s, the lease is renewed while it runs and given back once, however often it is released', async () => {
    const redis = store(async () => 1);
    const slots = new ExportSlots(redis, { perMerchant: 3, leaseSeconds: 0.06, keyPrefix: 'rl', fallbackReplicas: 1 }, log);
    const slot = await slots.take(account);
    assert.ok(slot);
    assert.deepEqual(redis.calls[0]?.args.slice(0, 3), ['rl:exports:{mer_00000000000000000001:test}', 3, 60]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(redis.calls.filter((call) => call.script === 'renew').length >= 2, 'renewed while running');
    slot.release();
    slot.release();
    const after = redis.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.deepEqual(
      redis.calls.filter((call) => call.script === 'release').map((call) => call.args[1]),
      [redis.calls[0]?.args[3]],
    );
    assert.equal(redis.calls.length, after, 'no renewal once released');
  });

  it('when every slot is taken in Redis, then there is none', async () => {
    const slots = new ExportSlots(store(async () => 0), { perMerchant: 3, leaseSeconds: 30, keyPrefix: 'rl', fallbackReplicas: 1 }, log);
    assert.equal(await slots.take(account), undefined);
  });

  it('when Redis does not answer, then each replica runs its share of the limit (at least one), and a slot released is free again', async () => {
    const slots = new ExportSlots(store(async () => Promise.reject(new Error('Command timed out'))), { perMerchant: 3, leaseSeconds: 30, keyPrefix: 'rl', fallbackReplicas: 2 }, log);
    const first = await slots.take(account);
    assert.ok(first);
    assert.equal(await slots.take(account), undefined, 'a share of one: 3 across 2 replicas');
    assert.ok(await slots.take({ ...account, livemode: true }), 'the other mode counts apart');
    first.release();
    first.release();
    assert.ok(await slots.take(account));
    assert.equal(await slots.take(account), undefined);
  });
});
