/**
 * SIGTERM to the webhook dispatcher while it works through a batch of events
 * to a slow receiver (every answer after 200 ms, four at a time): attempts
 * under way finish and are recorded, those only queued in memory are
 * released, the process exits 0 within SHUTDOWN_TIMEOUT_MS (5 s), and once it
 * is started again every event is delivered. The lease is 20 s, so delivery
 * within a few seconds of the restart can only come from the release, not
 * from leases lapsing.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { namesFor } from '@gateway/messaging';
import { pollUntil, TestSystem } from '@gateway/testkit';
import { sessionEvent } from './support.js';

const SHUTDOWN_BOUND_MS = 5_000 + 1_000;
const EVENTS = 60;

const DISPATCHER_ENV = {
  WEBHOOK_RETRY_DELAYS_SECONDS: '1,1,1',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_LEASE_SECONDS: '20',
  SWEEP_INTERVAL_SECONDS: '1',
  WEBHOOK_ENDPOINT_CONCURRENCY: '4',
};

/** A receiver that answers 200 to every webhook after `delayMs`, counting deliveries by event id. */
async function slowReceiver(delayMs: number): Promise<{ server: Server; url: string; received: Map<string, number>; total: () => number }> {
  const received = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        const id = String(req.headers['x-service-webhook-id'] ?? '');
        received.set(id, (received.get(id) ?? 0) + 1);
        res.writeHead(200).end();
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { server, url, received, total: () => [...received.values()].reduce((a, b) => a + b, 0) };
}

describe('Webhook dispatcher, graceful stop', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let receiver: Awaited<ReturnType<typeof slowReceiver>>;

  before(async () => {
    receiver = await slowReceiver(200);
    // Child processes: a graceful stop is a real process's answer to SIGTERM.
    system = await TestSystem.start({ launch: 'child-process', services: ['api-gateway', 'session', 'webhook-dispatcher'], serviceEnv: { 'webhook-dispatcher': DISPATCHER_ENV } });
  });
  after(async () => {
    receiver?.server.closeAllConnections();
    receiver?.server.close();
    await system?.shutdown();
  });

  it('when the dispatcher gets SIGTERM in the middle of a batch, then it exits 0 within the bound, leaves no attempt leased, and after a restart every event is delivered', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000 }, webhookUrl: receiver.url });
    const events = Array.from({ length: EVENTS }, () => sessionEvent('session.succeeded', merchant.merchantId));
    await system.publishEvents(events);
    await pollUntil(() => receiver.total() >= 8, 15_000, 'the first deliveries arrived');

    const stopped = await system.stopServiceTimed('webhook-dispatcher');
    const deliveredAtStop = receiver.received.size;
    assert.equal(stopped.code, 0);
    assert.ok(stopped.ms < SHUTDOWN_BOUND_MS, `the stop took ${stopped.ms} ms`);
    assert.ok(deliveredAtStop < EVENTS, `the stop came mid-batch (${deliveredAtStop} of ${EVENTS} delivered)`);
    // What was sent is recorded, what was only queued is released: nothing stays leased to the stopped process.
    const leased = await system.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhooks.deliveries WHERE merchant_id = $1 AND status = 'PENDING' AND lease_until > now()`,
      [merchant.merchantId],
    );
    assert.equal(leased[0]?.n, 0, 'no attempt left leased');

    await system.startService('webhook-dispatcher');
    await pollUntil(() => events.every((event) => receiver.received.has(event.id)), 10_000, `every event delivered after the restart (${receiver.received.size} of ${EVENTS})`);
    const rows = await system.db.query<{ status: string; n: number }>(
      'SELECT status, count(DISTINCT event_id)::int AS n FROM webhooks.deliveries WHERE merchant_id = $1 GROUP BY status',
      [merchant.merchantId],
    );
    await pollUntil(
      async () => {
        const pending = await system.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhooks.deliveries WHERE merchant_id = $1 AND status <> 'SUCCEEDED'`, [
          merchant.merchantId,
        ]);
        return pending[0]?.n === 0;
      },
      5_000,
      `every attempt recorded SUCCEEDED: ${JSON.stringify(rows)}`,
    );
    const succeeded = await system.db.query<{ n: number }>(
      `SELECT count(DISTINCT event_id)::int AS n FROM webhooks.deliveries WHERE merchant_id = $1 AND status = 'SUCCEEDED'`,
      [merchant.merchantId],
    );
    assert.equal(succeeded[0]?.n, EVENTS);
    const queue = namesFor(system.prefix).eventQueue('webhook-dispatcher');
    const counts = (await system.queueCounts()).get(queue);
    assert.deepEqual(counts, { ready: 0, unacked: 0 });
  });
});
