/**
 * The system on clustered engines (D23), under a steady load of payments,
 * refunds and webhooks, while they fail one at a time: kill -9 of the broker
 * node the services are connected to, then of the node leading most of their
 * queues, then of the PostgreSQL primary, then of the Redis master; each
 * killed one comes back 10 s later. Last, the database cannot be reached at
 * all for 10 s (HAProxy gone), the outage a single PostgreSQL has.
 *
 * A probe creates a session every 250 ms throughout: the API's unavailability
 * per failover is the time from its first failed answer after the kill to
 * the last one, printed, and held to D23's 15 s. Every 5xx any client
 * received must carry Retry-After (1-5 s). At the end: every payment a buyer
 * was told was successful is SUCCEEDED, charged once and announced once at
 * the merchant's endpoint; every refund was applied once; no service exited.
 *
 * `make test-ha` runs it (infra/local/run-tests.mjs --ha), not `make test`:
 * it starts the engines itself (tests/system/test/ha/engines.ts) and stops
 * them at the end.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ApiClient, payOnPage, pollUntil, sessionRequest, TestSystem, WebhookReceivers, type ApiResponse, type WebhookReceiver } from '@gateway/testkit';
import { chargesAtSandbox, refundedAtSandbox, sleep } from '../under-load.js';
import { Engines, SENTINEL_NAME } from './engines.js';

/** D23: the API is back within this after any one engine fails. */
const UNAVAILABLE_AT_MOST_SECONDS = 15;
const KILLED_FOR_MS = 10_000;
const REFUND_AMOUNT = '10.000';
const PROBE_EVERY_MS = 250;

type Detail = { id: string; status: string; checkout_url?: string; amount_refunded: string };
type Refund = { refund_id: string; amount: string; status: string };

interface Probe {
  readonly at: number;
  readonly tookMs: number;
  readonly ok: boolean;
}

interface Failover {
  readonly what: string;
  readonly unavailableSeconds: number;
  readonly failedProbes: number;
  readonly slowestProbeMs: number;
}

/** An API client that keeps every 5xx answer it got, to check each carried Retry-After. */
class RecordingClient extends ApiClient {
  readonly serverErrors: { status: number; retryAfter: string | null }[] = [];

  override async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const answer = await super.request<T>(method, path, body, headers);
    if (answer.status >= 500) this.serverErrors.push({ status: answer.status, retryAfter: answer.headers.get('retry-after') });
    return answer;
  }
}

describe('Clustered engines failing one at a time under load (D23)', function () {
  this.timeout(900_000);
  let engines: Engines;
  let system: TestSystem;
  const receivers = new WebhookReceivers();

  before(async () => {
    engines = await Engines.start((line) => console.log(`      ${line}`));
    // The testkit makes this run's database, broker users and services on the clustered engines.
    process.env['DATABASE_ADMIN_URL'] = engines.postgresAdminUrl;
    process.env['AMQP_URL'] = engines.amqpUrls.join(',');
    process.env['RABBITMQ_CTL_NODE'] = engines.rabbitNodes[2];
    process.env['REDIS_URL'] = 'redis://127.0.0.1:6391';
    system = await TestSystem.start({
      // Services are their own processes, so that one exiting is seen, and none dies with an engine.
      launch: 'child-process',
      readyTimeoutMs: 120_000,
      env: { REDIS_SENTINELS: engines.redisSentinels, REDIS_SENTINEL_NAME: SENTINEL_NAME, RPC_TIMEOUT_MS: '5000', SWEEP_INTERVAL_SECONDS: '2' },
      serviceEnv: {
        session: { ADAPTER_TIMEOUT_MS: '5000', ATTEMPT_CHECK_AFTER_SECONDS: '6', ATTEMPT_CHECK_MAX_DELAY_SECONDS: '2' },
        'acquirer-adapter': { ACQUIRER_TIMEOUT_MS: '1500', RECONCILE_AFTER_SECONDS: '5', RECONCILE_MAX_DELAY_SECONDS: '2' },
        refund: { ADAPTER_TIMEOUT_MS: '4000' },
        'webhook-dispatcher': { WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_LEASE_SECONDS: '8', WEBHOOK_RETRY_DELAYS_SECONDS: '1,2,2,5,5' },
      },
    });
  });
  after(async () => {
    await receivers.closeAll();
    await system?.shutdown().catch((err: unknown) => console.log(`      shutdown: ${(err as Error).message}`));
    await engines?.stop();
  });

  it('loses, doubles and stops nothing, answers every 5xx with Retry-After, and is back within 15 s of each failover', async () => {
    const endpoint = await receivers.start();
    const merchant = await system.newMerchant({ webhookUrl: endpoint.url(), limits: { account: 100_000, create: 100_000, refund: 100_000 } });
    const api = new RecordingClient(system.api(merchant.testKey).baseUrl, merchant.testKey);
    const pids = new Map([...system.processes.values()].map((running) => [running.name, running.pid]));
    const queuePrefix = system.prefix;

    // Warm: a few payments before anything fails, some to refund under fire.
    const told: string[] = [];
    const toRefund: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const paid = await buyerPays(api);
      if (paid.toldPaid) toRefund.push(paid.id);
    }
    assert.ok(toRefund.length >= 2, `payments go through before any failure: ${toRefund.length} of 4`);
    told.push(...toRefund);

    // The load: buyers paying two at a time, a refund every few seconds, and the probe.
    let running = true;
    const probes: Probe[] = [];
    const buyers = Array.from({ length: 2 }, async () => {
      while (running) {
        const paid = await buyerPays(api).catch(() => undefined);
        if (paid?.toldPaid) told.push(paid.id);
        await sleep(300);
      }
    });
    const refundAnswers = new Map<string, ApiResponse<{ refund_id?: string }>>();
    const refunds = (async () => {
      for (const id of toRefund) {
        await sleep(6_000);
        refundAnswers.set(id, await refundOnce(api, id));
      }
    })();
    const probe = (async () => {
      while (running) {
        const started = Date.now();
        const answer = await api.post('/gateway/sessions/', sessionRequest({ amount: '5.000' }), {}).catch(() => undefined);
        probes.push({ at: started, tookMs: Date.now() - started, ok: answer?.status === 201 });
        await sleep(PROBE_EVERY_MS);
      }
    })();

    const failovers: Failover[] = [];
    const failover = async (what: string, kill: () => Promise<() => Promise<void>>) => {
      await sleep(3_000);
      const killedAt = Date.now();
      const restart = await kill();
      await sleep(KILLED_FOR_MS);
      await restart();
      // Back when the probe has answered for 5 s in a row.
      await pollUntil(async () => recovered(probes, killedAt, 5_000), 60_000, `the API answers again after ${what}`, 500);
      failovers.push({ what, ...outage(probes, killedAt) });
      console.log(`      ${what}: API unavailable ${failovers.at(-1)?.unavailableSeconds.toFixed(1)} s (${failovers.at(-1)?.failedProbes} probes failed; slowest answer ${failovers.at(-1)?.slowestProbeMs} ms)`);
    };

    await failover('kill -9 of the broker node the services are connected to', async () => {
      const nodes = await engines.connectionNodes(queuePrefix);
      const node = [...nodes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
      assert.ok(node, `the services' connections are on a node: ${JSON.stringify([...nodes])}`);
      await engines.killRabbitNode(node);
      return () => engines.restartRabbitNode(node);
    });
    await failover('kill -9 of the broker node leading most queues', async () => {
      const node = await engines.busiestLeader(queuePrefix);
      assert.ok(node, 'a node leads the quorum queues');
      await engines.killRabbitNode(node);
      return () => engines.restartRabbitNode(node);
    });
    await failover('kill -9 of the PostgreSQL primary', async () => {
      const primary = await engines.postgresPrimary();
      assert.ok(primary, 'a PostgreSQL primary');
      engines.killPostgresMember(primary);
      return async () => engines.restartPostgresMember(primary);
    });
    await failover('kill -9 of the Redis master', async () => {
      const master = await engines.redisMaster();
      assert.ok(master, 'a Redis master');
      engines.killRedis(master);
      return () => engines.restartRedisAsReplica(master);
    });
    await failover('the database unreachable for 10 s', async () => {
      engines.stopHaproxy();
      return () => engines.startHaproxy();
    });

    running = false;
    await Promise.all([...buyers, refunds, probe]);

    // No service exited: each is the process it was at the start.
    for (const [name, pid] of pids) {
      const now = system.processes.get(name);
      assert.equal(now?.pid, pid, `${name} is still the process it was`);
      assert.equal(now?.child?.exitCode ?? null, null, `${name} has not exited`);
    }

    // Every payment a buyer was told was successful: SUCCEEDED, charged once, announced once.
    for (const id of told) {
      const detail = await api.get<Detail>(`/gateway/sessions/${id}/`);
      assert.equal(detail.body.status, 'SUCCEEDED', `session ${id}, told paid, is ${detail.text}`);
      assert.equal(await chargesAtSandbox(system, id), 1, `session ${id} charged once`);
    }
    await endpoint.waitFor((received) => told.every((id) => received.some((r) => r.body.event === 'session.succeeded' && r.body.data['id'] === id)), 60_000);
    for (const id of told) {
      const copies = endpoint.received.filter((r) => r.body.event === 'session.succeeded' && r.body.data['id'] === id);
      assert.equal(new Set(copies.map((c) => c.eventId)).size, 1, `session ${id}: one session.succeeded, got ${copies.map((c) => c.eventId).join(', ')}`);
    }
    const copiesOfEvent = countCopies(endpoint);

    // Every refund applied once: one refund per session, what the sandbox refunded, and amount_refunded agree.
    for (const id of toRefund) {
      const listed = await api.get<{ data: Refund[] }>(`/gateway/sessions/${id}/refunds/`);
      assert.equal(listed.body.data.length, 1, `one refund of ${id}: ${listed.text}`);
      const [refund] = listed.body.data as [Refund];
      const atSandbox = await refundedAtSandbox(system, id);
      assert.equal(atSandbox, refund.status === 'succeeded' ? REFUND_AMOUNT : '0.000', `sandbox refunded ${atSandbox} for ${id}, refund ${refund.status}`);
      assert.equal(refundAnswers.get(id)?.body.refund_id, refund.refund_id);
    }

    // Every 5xx carried Retry-After, 1 to 5 seconds.
    const without = api.serverErrors.filter((e) => !(e.retryAfter && /^[1-5]$/.test(e.retryAfter)));
    assert.deepEqual(without, [], `every 5xx carries Retry-After 1-5: ${without.length} of ${api.serverErrors.length} did not`);

    console.log(
      `      load: ${told.length} payments told successful, ${toRefund.length} refunds, ${endpoint.received.length} webhooks received (${copiesOfEvent} sent again), ` +
        `${probes.length} probes, ${api.serverErrors.length} answers 5xx (all with Retry-After)`,
    );
    for (const f of failovers) assert.ok(f.unavailableSeconds <= UNAVAILABLE_AT_MOST_SECONDS, `${f.what}: unavailable ${f.unavailableSeconds.toFixed(1)} s, more than ${UNAVAILABLE_AT_MOST_SECONDS} s`);
  });

  /** A buyer: a new session, paid with 4242 on the hosted page; whether the page said the payment was successful. */
  async function buyerPays(api: ApiClient): Promise<{ id: string; toldPaid: boolean }> {
    const created = await api.post<Detail>('/gateway/sessions/', sessionRequest({ amount: '100.000' }));
    if (created.status !== 201) throw new Error(`create: ${created.status}`);
    const result = await payOnPage(created.body.checkout_url ?? '', { card_number: '4242424242424242' }).catch(() => undefined);
    return { id: created.body.id, toldPaid: result?.html?.includes('Payment successful') === true };
  }

  /** A refund of REFUND_AMOUNT with one Idempotency-Key, asked again with the same key after a 5xx, a 409 or no answer. */
  async function refundOnce(api: ApiClient, sessionId: string): Promise<ApiResponse<{ refund_id?: string }>> {
    const key = randomUUID();
    const deadline = Date.now() + 120_000;
    for (;;) {
      const answer = await api
        .post<{ refund_id?: string }>(`/gateway/sessions/${sessionId}/refund/`, { reason: 'Returned', refund_type: 'PARTIAL', amount: REFUND_AMOUNT }, { 'Idempotency-Key': key })
        .catch(() => undefined);
      if (answer && (answer.status === 200 || answer.status === 422)) return answer;
      if (Date.now() > deadline) throw new Error(`refund of ${sessionId} not answered: ${answer?.status} ${answer?.text}`);
      await sleep(Number(answer?.headers.get('retry-after') ?? 1) * 1000);
    }
  }
});

/** Whether every probe started in the last `forMs` (and at least one) answered, all after `since`. */
function recovered(probes: readonly Probe[], since: number, forMs: number): boolean {
  const recent = probes.filter((p) => p.at > Math.max(since, Date.now() - forMs));
  return Date.now() - since > forMs && recent.length > 0 && recent.every((p) => p.ok);
}

/** From the first failed probe after `since` to the end of the last one. */
function outage(probes: readonly Probe[], since: number): Omit<Failover, 'what'> {
  const after = probes.filter((p) => p.at >= since);
  const failed = after.filter((p) => !p.ok);
  const first = failed[0];
  const last = failed.at(-1);
  return {
    unavailableSeconds: first && last ? (last.at + last.tookMs - first.at) / 1000 : 0,
    failedProbes: failed.length,
    slowestProbeMs: Math.max(0, ...after.map((p) => p.tookMs)),
  };
}

/** Webhook requests received beyond the first of each webhook id (at-least-once delivery). */
function countCopies(receiver: WebhookReceiver): number {
  const ids = receiver.received.map((r) => r.eventId);
  return ids.length - new Set(ids).size;
}
