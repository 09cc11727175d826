/**
 * SIGTERM to a checkout replica while buyers' browsers keep loading its
 * hosted page (GET checkout_url, straight to that replica's port: the
 * gateway's pass-through knows one upstream only). Pages under way are
 * answered, nothing answers 5xx because the replica is stopping, the calls
 * after the listener closed are refused at connect (a load that races the
 * close of an idle connection is sent again, as a browser sends a GET
 * again), and the process exits 0
 * within SHUTDOWN_TIMEOUT_MS (5 s in test systems).
 */
import assert from 'node:assert/strict';
import { keepSending, pollUntil, sessionRequest, TestSystem } from '@gateway/testkit';

const SHUTDOWN_BOUND_MS = 5_000 + 1_000;

describe('Checkout service, graceful stop', function () {
  this.timeout(120_000);
  let system: TestSystem;

  before(async () => {
    // Child processes: a graceful stop is a real process's answer to SIGTERM.
    system = await TestSystem.start({ launch: 'child-process', services: ['api-gateway', 'session', 'webhook-dispatcher', 'checkout'] });
  });
  after(async () => {
    await system?.shutdown();
  });

  it('when a checkout replica gets SIGTERM under a stream of page loads, then every answer is a 200 page, the rest are refused at connect, and it exits 0 within the bound', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000, create: 1000 } });
    const created = await system.api(merchant.testKey).post<{ checkout_url: string }>('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 201, created.text);
    const path = new URL(created.body.checkout_url).pathname;
    const port = await system.startService('checkout', 'checkout-2');
    const page = `http://127.0.0.1:${port}${path}`;
    const first = await fetch(page);
    assert.equal(first.status, 200, await first.text());

    const load = keepSending(async () => {
      const res = await fetch(page);
      await res.arrayBuffer();
      return res.status;
    }, 8, { retryResetOnce: true });
    await pollUntil(() => load.tally.statuses.length >= 100, 15_000, '100 pages served before the stop');
    const stopped = await system.stopServiceTimed('checkout-2');
    const refusedAtExit = load.tally.refused;
    await pollUntil(() => load.tally.refused >= refusedAtExit + 8, 5_000, 'loads after the exit were refused');
    const tally = await load.stop();

    assert.deepEqual(tally.dropped, [], 'every load without an answer was refused at connect');
    // A reset is the race of a request with the close of an idle connection or
    // of the listener, which a browser sends again; requests under way cut off
    // by the stop would be as many as the loads in flight (8).
    assert.ok(tally.retried.length <= 2, `resets: ${tally.retried.join(', ')}`);
    assert.deepEqual(histogram(tally.statuses), { 200: tally.statuses.length }, 'every answer was the page');
    assert.ok(tally.refused > 0);
    assert.equal(stopped.code, 0);
    assert.ok(stopped.ms < SHUTDOWN_BOUND_MS, `the stop took ${stopped.ms} ms`);
    // The replica the gateway passes through to still serves the same page.
    const through = await fetch(created.body.checkout_url);
    assert.equal(through.status, 200);
  });
});

function histogram(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
