/** The dispatcher sends an attempt only while its lease covers it; one that waited too long is claimed again first. */
import { strict as assert } from 'node:assert';
import { createLogger } from '@gateway/observability';
import type { DeliveryJob } from '../../src/db/delivery-jobs.js';
import type { AttemptResult, DeliveryRepository } from '../../src/db/delivery.repository.js';
import { Dispatcher } from '../../src/delivery/dispatcher.js';
import type { DeliveryRequest } from '../../src/delivery/webhook-http-client.js';

const TIMEOUT_MS = 1_000;

function job(id: string, leaseEndsAt: number): DeliveryJob {
  return {
    deliveryId: id,
    eventId: `evt_${id}`,
    eventType: 'session.succeeded',
    url: 'https://shop.example.tn/hooks',
    attemptNumber: 1,
    manual: false,
    body: '{}',
    correlationId: '',
    endpointId: 'we_1',
    endpointIsDefault: true,
    merchantId: 'mer_1',
    livemode: false,
    secretCiphertext: 'sealed',
    previousSecretCiphertext: null,
    previousSecretExpiresAt: null,
    leaseEndsAt,
  };
}

/** A dispatcher at monotonic time `now`, over a repository where `claimable` attempts can be claimed again. */
function harness(now: number, claimable: Set<string>) {
  const sent: string[] = [];
  const claimed: string[][] = [];
  const recorded: AttemptResult[] = [];
  const deliveries = {
    recordResults: async (results: readonly AttemptResult[]) => void recorded.push(...results),
    release: async () => undefined,
    claimForSending: async (ids: readonly string[]) => {
      claimed.push([...ids]);
      return new Map(ids.filter((id) => claimable.has(id)).map((id) => [id, now + 10_000]));
    },
  } as unknown as DeliveryRepository;
  const dispatcher = new Dispatcher({
    deliveries,
    client: {
      post: async (request: DeliveryRequest) => {
        sent.push(String(request.headers['X-Service-Webhook-Id']));
        return { ok: true, statusCode: 200, responseTimeMs: 1 };
      },
    },
    secrets: { decrypt: async () => 'whsec_test' },
    log: createLogger({ service: 'test', level: 'silent' }),
    limits: { total: 8, perEndpoint: 8, backlog: 100 },
    retryDelaysSeconds: [],
    wakeSweepAt: () => undefined,
    timeoutMs: TIMEOUT_MS,
    monotonic: () => now,
  });
  return { dispatcher, sent, claimed, recorded };
}

describe('send-time leases', () => {
  it('when a queued attempt’s lease still covers twice the timeout, then it is sent without another claim', async () => {
    const { dispatcher, sent, claimed } = harness(50_000, new Set());
    dispatcher.enqueue([job('a', 50_000 + 2 * TIMEOUT_MS)]);
    await dispatcher.stop();
    assert.deepEqual(sent, ['evt_a']);
    assert.deepEqual(claimed, []);
  });

  it('when a queued attempt’s lease has lapsed or nearly, then it is claimed again and sent only if the claim holds', async () => {
    const { dispatcher, sent, claimed, recorded } = harness(50_000, new Set(['mine']));
    dispatcher.enqueue([job('mine', 49_000), job('taken', 50_000 + TIMEOUT_MS)]);
    await dispatcher.stop();
    assert.deepEqual(claimed.flat().sort(), ['mine', 'taken']);
    assert.deepEqual(sent, ['evt_mine'], 'the attempt another replica took is not sent here');
    assert.deepEqual(recorded.map((r) => r.deliveryId), ['mine']);
  });
});
