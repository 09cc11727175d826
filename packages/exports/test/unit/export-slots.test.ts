import assert from 'node:assert/strict';
import { createLogger } from '@gateway/observability';
import { AppError, retryAfterOf } from '@gateway/problem';
import { EXPORTS_BUSY, ExportSlots, withExportSlot, type SlotStore } from '../../src/index.js';

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

describe('An export held to a slot (withExportSlot, D29)', () => {
  /** Slots counted here, `limit` of them: how many are held now. */
  function counted(limit: number) {
    const state = { held: 0 };
    return {
      state,
      take: async () => {
        if (state.held >= limit) return undefined;
        state.held += 1;
        let released = false;
        return {
          release: () => {
            if (!released) state.held -= 1;
            released = true;
          },
        };
      },
    };
  }

  it('when the export ends, well or not, then its slot is given back', async () => {
    const slots = counted(1);
    assert.equal(await withExportSlot(slots, account, async () => slots.state.held), 1, 'held while it runs');
    assert.equal(slots.state.held, 0);
    await assert.rejects(withExportSlot(slots, account, async () => Promise.reject(new Error('page failed'))), /page failed/);
    assert.equal(slots.state.held, 0, 'given back after a failure too');
  });

  it('when every slot is taken, then the export does not run and the refusal is 429 rate-limit-exceeded with Retry-After, in the words every door shows', async () => {
    const slots = counted(0);
    let ran = false;
    const refusal = await withExportSlot(slots, account, async () => {
      ran = true;
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    assert.equal(ran, false);
    assert.ok(refusal instanceof AppError);
    assert.equal(refusal.status, 429);
    assert.equal(refusal.code, 'rate-limit-exceeded');
    assert.equal(refusal.detail, EXPORTS_BUSY);
    assert.equal(retryAfterOf(refusal), 5);
  });

  it('when made from a service\'s settings, then the slots use its limit, lease and key prefix', async () => {
    const redis = store(async () => 1);
    const slots = ExportSlots.fromConfig(redis, { exportsPerMerchant: 2, exportSlotLeaseSeconds: 7, rateLimitKeyPrefix: 'gw1', rateLimitFallbackReplicas: 1 }, log);
    const slot = await slots.take(account);
    slot?.release();
    assert.deepEqual(redis.calls[0]?.args.slice(0, 3), ['gw1:exports:{mer_00000000000000000001:test}', 2, 7000]);
  });
});
