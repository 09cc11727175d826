/**
 * Two dispatcher replicas and a backlog older than the lease. The first
 * replica takes 20 events for one slow endpoint (one attempt at a time, 250 ms
 * each: 5 s of work) with 2 s leases, and sweeps only every 30 s, so it does
 * not renew what waits in its memory. The second sweeps every second and takes
 * every attempt whose lease lapsed. Whoever sends an attempt must hold its
 * lease when it sends, so each attempt reaches the receiver once.
 */
import assert from 'node:assert/strict';
import { metricValue, pollUntil, TestSystem, WebhookReceivers } from '@gateway/testkit';
import { sessionEvent } from './support.js';

const DISPATCHER_ENV = {
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_SECONDS: '2',
  SWEEP_INTERVAL_SECONDS: '30',
  WEBHOOK_ENDPOINT_CONCURRENCY: '1',
};

describe('webhook leases with two dispatcher replicas', function () {
  this.timeout(60_000);
  let system: TestSystem;
  const receivers = new WebhookReceivers();

  before(async () => {
    system = await TestSystem.start({ services: ['api-gateway', 'session', 'webhook-dispatcher'], serviceEnv: { 'webhook-dispatcher': DISPATCHER_ENV } });
  });
  after(async () => {
    await receivers.closeAll();
    await system?.shutdown();
  });

  it('when a backlog waits longer than the lease, then each attempt is sent by one replica, once', async () => {
    const target = await receivers.start(() => ({ status: 200, delayMs: 250 }));
    const merchant = await system.newMerchant({ webhookUrl: target.url() });
    const events = Array.from({ length: 20 }, () => sessionEvent('session.succeeded', merchant.merchantId));
    await system.publishEvents(events);
    // The first replica has stored them all (and holds them); then the second one comes, sweeping every second.
    await pollUntil(async () => (await pendingDeliveries(merchant.merchantId)) >= events.length - 1, 10_000, 'the backlog stored');
    await system.startService('webhook-dispatcher', 'webhook-dispatcher-2', { SWEEP_INTERVAL_SECONDS: '1' });

    const ids = events.map((e) => e.id);
    await target.waitFor((received) => ids.every((id) => received.some((r) => r.eventId === id)), 30_000);
    // Time for a second send of the last ones, had a replica still been holding them.
    await pollUntil(async () => (await pendingDeliveries(merchant.merchantId)) === 0, 10_000, 'no attempt left PENDING');
    await new Promise((resolve) => setTimeout(resolve, 2_500));

    const counts = new Map<string, number>();
    for (const r of target.received) counts.set(r.eventId, (counts.get(r.eventId) ?? 0) + 1);
    const doubled = [...counts].filter(([, n]) => n > 1);
    assert.deepEqual(doubled, [], 'no attempt reached the receiver twice');
    assert.equal(target.received.length, events.length);

    const rows = await system.db.query<{ event_id: string; attempts: number; statuses: string[] }>(
      `SELECT event_id, count(*)::int AS attempts, array_agg(status) AS statuses FROM webhooks.deliveries WHERE merchant_id = $1 GROUP BY event_id`,
      [merchant.merchantId],
    );
    assert.equal(rows.length, events.length);
    assert.ok(rows.every((row) => row.attempts === 1 && row.statuses[0] === 'SUCCEEDED'), JSON.stringify(rows.filter((row) => row.attempts !== 1)));

    // Both replicas sent some: the second took over part of the first one's backlog, which the first then left alone.
    const [first, second] = ['webhook-dispatcher', 'webhook-dispatcher-2'].map((name) => system.processes.get(name)?.port ?? 0) as [number, number];
    const sentBy = [await metricSum(first, 'gateway_webhook_attempts_total'), await metricSum(second, 'gateway_webhook_attempts_total')];
    assert.ok(sentBy.every((n) => n > 0), `attempts per replica: ${sentBy.join(', ')}`);
    assert.ok((await metricSum(first, 'gateway_webhook_leases_lost_total')) > 0, 'the first replica left some attempts to the second');
  });

  async function pendingDeliveries(merchantId: string): Promise<number> {
    const [row] = await system.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhooks.deliveries WHERE merchant_id = $1 AND status = 'PENDING'`, [merchantId]);
    return row?.n ?? 0;
  }
});

/** The sum of metric `family` (every label) in the /metrics of the dispatcher on `port`. */
async function metricSum(port: number, family: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return metricValue(text, family) ?? 0;
}
