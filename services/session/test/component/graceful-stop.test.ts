/**
 * SIGTERM to one of two session replicas while the gateway sends session
 * creates without pause: the stopping replica finishes (or gives back) the
 * commands it took, the other one serves the rest, nothing answers 5xx,
 * nothing is lost, and the process exits 0 within SHUTDOWN_TIMEOUT_MS (5 s).
 */
import assert from 'node:assert/strict';
import { namesFor } from '@gateway/messaging';
import { commandsHandled, keepSending, pollUntil, sessionRequest, TestSystem } from '@gateway/testkit';

const SHUTDOWN_BOUND_MS = 5_000 + 1_000;

describe('Session service, graceful stop', function () {
  this.timeout(120_000);
  let system: TestSystem;

  before(async () => {
    // Child processes: a graceful stop is a real process's answer to SIGTERM.
    system = await TestSystem.start({ launch: 'child-process', services: ['api-gateway', 'session', 'webhook-dispatcher'] });
  });
  after(async () => {
    await system?.shutdown();
  });

  it('when one of two session replicas gets SIGTERM under a stream of creates, then the gateway answers no 5xx, every 201 session is stored, no command is left on the queue, and it exits 0 within the bound', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000, create: 1000 } });
    const port = await system.startService('session', 'session-2');
    const api = system.api(merchant.testKey);
    const created: string[] = [];
    const load = keepSending(async () => {
      const res = await api.post<{ id?: string }>('/gateway/sessions/', sessionRequest());
      if (res.status === 201 && res.body.id) created.push(res.body.id);
      return res.status;
    }, 8);

    await pollUntil(() => load.tally.statuses.length >= 100, 15_000, '100 creates answered before the stop');
    await pollUntil(async () => (await commandsHandled(port, 'session.create')) > 0, 5_000, 'the replica to stop has handled creates');
    const stopped = await system.stopServiceTimed('session-2');
    const answeredAtExit = load.tally.statuses.length;
    await pollUntil(() => load.tally.statuses.length >= answeredAtExit + 100, 15_000, '100 more creates answered after the exit');
    const tally = await load.stop();

    assert.deepEqual(tally.dropped, []);
    assert.equal(tally.refused, 0);
    assert.deepEqual(histogram(tally.statuses), { 201: tally.statuses.length }, 'every create answered 201');
    assert.equal(stopped.code, 0);
    assert.ok(stopped.ms < SHUTDOWN_BOUND_MS, `the stop took ${stopped.ms} ms`);

    const rows = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM session.sessions WHERE id = ANY($1)', [created]);
    assert.equal(rows[0]?.n, created.length, 'every 201 session is stored');
    // Exactly the answered creates, no session made for a command whose answer was lost.
    const all = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM session.sessions WHERE merchant_id = $1', [merchant.merchantId]);
    assert.equal(all[0]?.n, created.length, 'no session beyond the answered ones');

    const queue = namesFor(system.prefix).commandQueue('session');
    await system.waitForQueueDrained(queue);
  });
});

function histogram(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
