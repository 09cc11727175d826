/**
 * How the dispatcher signs an attempt (D11), without servers: afresh with the
 * clock of the attempt, over the stored body bytes, with the endpoint's secret,
 * and during a rotation's grace period with the previous one too, new first;
 * and when it schedules the next attempt after a failure.
 */
import { strict as assert } from 'node:assert';
import { createLogger } from '@gateway/observability';
import { parseSignatureHeader, verifySignature } from '@gateway/sdk';
import type { DeliveryJob } from '../../src/db/delivery-jobs.js';
import type { AttemptResult, DeliveryRepository } from '../../src/db/delivery.repository.js';
import { Dispatcher } from '../../src/delivery/dispatcher.js';
import type { DeliveryRequest } from '../../src/delivery/webhook-http-client.js';

const NOW_MS = Date.parse('2026-11-22T10:00:00.000Z');
const NOW_S = NOW_MS / 1000;
const BODY = '{"id":"evt_1","type":"session.succeeded","data":{"amount":"12.500","merchant":"Café Tunis"}}';
/** WEBHOOK_RETRY_DELAYS_SECONDS' default (D11). */
const RETRY_DELAYS = [60, 7200, 86400];
const sealed: Record<string, string> = { 'sealed-new': 'whsec_new_secret', 'sealed-old': 'whsec_old_secret' };

function job(overrides: Partial<DeliveryJob> = {}): DeliveryJob {
  return {
    deliveryId: 'whd_1',
    eventId: 'evt_1',
    eventType: 'session.succeeded',
    url: 'https://shop.example.tn/hooks',
    attemptNumber: 1,
    manual: false,
    body: BODY,
    correlationId: '',
    endpointId: 'we_1',
    endpointIsDefault: true,
    merchantId: 'mer_1',
    livemode: false,
    secretCiphertext: 'sealed-new',
    previousSecretCiphertext: null,
    previousSecretExpiresAt: null,
    leaseEndsAt: 10_000_000,
    ...overrides,
  };
}

/** What the dispatcher sends and records for `jobs`, at wall clock NOW_MS, when the merchant answers `status`. */
async function dispatch(jobs: DeliveryJob[], status = 200): Promise<{ requests: DeliveryRequest[]; recorded: AttemptResult[] }> {
  const requests: DeliveryRequest[] = [];
  const recorded: AttemptResult[] = [];
  const dispatcher = new Dispatcher({
    deliveries: {
      recordResults: async (results: readonly AttemptResult[]) => void recorded.push(...results),
      release: async () => undefined,
      claimForSending: async () => new Map(),
    } as unknown as DeliveryRepository,
    client: {
      post: async (request: DeliveryRequest) => {
        requests.push(request);
        return { ok: status < 300, statusCode: status, responseTimeMs: 1 };
      },
    },
    secrets: {
      decrypt: async (ciphertext: string) => {
        const secret = sealed[ciphertext];
        if (!secret) throw new Error('does not decrypt');
        return secret;
      },
    },
    log: createLogger({ service: 'test', level: 'silent' }),
    limits: { total: 8, perEndpoint: 8, backlog: 100 },
    retryDelaysSeconds: RETRY_DELAYS,
    wakeSweepAt: () => undefined,
    timeoutMs: 1_000,
    clock: () => NOW_MS,
    monotonic: () => 0,
  });
  dispatcher.enqueue(jobs);
  await dispatcher.stop();
  return { requests, recorded };
}

/** The requests the dispatcher sends for `jobs`. */
async function sent(...jobs: DeliveryJob[]): Promise<DeliveryRequest[]> {
  return (await dispatch(jobs)).requests;
}

const signatureOf = (request: DeliveryRequest | undefined) => String(request?.headers['X-Service-Signature']);

describe('Webhook signing at send time', () => {
  it('when an attempt is sent, then it is signed with the current time and the endpoint secret over the exact body bytes', async () => {
    const [request] = await sent(job());
    assert.equal(Buffer.from(request?.body ?? '').toString('utf8'), BODY);
    const header = signatureOf(request);
    assert.equal(parseSignatureHeader(header)?.timestamp, NOW_S);
    assert.equal(parseSignatureHeader(header)?.signatures.length, 1);
    assert.ok(verifySignature(BODY, header, 'whsec_new_secret', 300, NOW_S));
    assert.ok(!verifySignature(BODY, header, 'whsec_old_secret', 300, NOW_S));
  });

  it('when the previous secret is within its grace period, then the header carries both, the new one first, and either verifies', async () => {
    const [request] = await sent(job({ previousSecretCiphertext: 'sealed-old', previousSecretExpiresAt: new Date(NOW_MS + 1000) }));
    const header = signatureOf(request);
    const [first, second] = parseSignatureHeader(header)?.signatures ?? [];
    assert.ok(first && second);
    assert.ok(verifySignature(BODY, `t=${NOW_S},v1=${first}`, 'whsec_new_secret', 300, NOW_S), 'the new secret signs first');
    assert.ok(verifySignature(BODY, `t=${NOW_S},v1=${second}`, 'whsec_old_secret', 300, NOW_S));
  });

  it('when the grace period has ended, then only the new secret signs', async () => {
    for (const expiresAt of [new Date(NOW_MS), new Date(NOW_MS - 1)]) {
      const [request] = await sent(job({ previousSecretCiphertext: 'sealed-old', previousSecretExpiresAt: expiresAt }));
      assert.equal(parseSignatureHeader(signatureOf(request))?.signatures.length, 1);
      assert.ok(!verifySignature(BODY, signatureOf(request), 'whsec_old_secret', 300, NOW_S));
    }
  });

  it('when the secret cannot be opened, then nothing is sent for that attempt and other endpoints still are', async () => {
    const requests = await sent(job({ deliveryId: 'whd_bad', secretCiphertext: 'altered' }), job({ deliveryId: 'whd_ok', eventId: 'evt_2', endpointId: 'we_2' }));
    assert.deepEqual(
      requests.map((r) => r.headers['X-Service-Webhook-Id']),
      ['evt_2'],
    );
  });
});

describe('Webhook retry schedule (D11)', () => {
  it('when attempts 1 to 3 fail, then the next is 60 s, 2 h and 24 h later; after attempt 4 fails there is none', async () => {
    const delays: Array<number | null | undefined> = [];
    for (const attemptNumber of [1, 2, 3, 4]) {
      const { recorded } = await dispatch([job({ attemptNumber })], 500);
      delays.push(recorded[0]?.retryInSeconds);
    }
    assert.deepEqual(delays, [60, 7200, 86400, null]);
  });

  it('when an attempt succeeds, then no retry is scheduled', async () => {
    const { recorded } = await dispatch([job()], 204);
    assert.equal(recorded[0]?.ok, true);
    assert.equal(recorded[0]?.retryInSeconds, null);
  });

  it('when a resend fails, then it schedules nothing: an operator resend is one attempt', async () => {
    const { recorded } = await dispatch([job({ manual: true })], 500);
    assert.equal(recorded[0]?.ok, false);
    assert.equal(recorded[0]?.retryInSeconds, null);
  });
});
