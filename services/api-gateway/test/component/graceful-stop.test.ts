/**
 * SIGTERM to a gateway replica under a steady stream of API calls: the
 * replica finishes what it took, answers nothing with a 5xx because it is
 * stopping, and exits 0 within SHUTDOWN_TIMEOUT_MS (5 s in test systems).
 * There is no load balancer here: the stream goes to the stopped replica's
 * own port, so once its listener is closed the calls are refused at connect.
 */
import assert from 'node:assert/strict';
import { ApiClient, keepSending, pollUntil, sessionRequest, TestSystem } from '@gateway/testkit';

const SHUTDOWN_BOUND_MS = 5_000 + 1_000;

describe('API gateway, graceful stop', function () {
  this.timeout(120_000);
  let system: TestSystem;

  before(async () => {
    // Child processes: a graceful stop is a real process's answer to SIGTERM.
    system = await TestSystem.start({ launch: 'child-process', services: ['api-gateway', 'session', 'webhook-dispatcher'] });
  });
  after(async () => {
    await system?.shutdown();
  });

  it('when one of two gateway replicas gets SIGTERM under a stream of session creates, then every answer is non-5xx, the rest are refused at connect, every 201 session exists, and it exits 0 within the bound', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000, create: 1000 } });
    const port = await system.startService('api-gateway', 'api-gateway-2');
    const api = new ApiClient(`http://127.0.0.1:${port}/api/v1`, merchant.testKey);
    const created: string[] = [];
    const load = keepSending(async () => {
      const res = await api.post<{ id?: string }>('/gateway/sessions/', sessionRequest());
      if (res.status === 201 && res.body.id) created.push(res.body.id);
      return res.status;
    }, 8);

    await pollUntil(() => load.tally.statuses.length >= 50, 10_000, 'the replica answered 50 creates before the stop');
    const answeredBefore = load.tally.statuses.length;
    const stopped = await system.stopServiceTimed('api-gateway-2');
    // A little more of the stream against the closed port.
    const refusedAtExit = load.tally.refused;
    await pollUntil(() => load.tally.refused >= refusedAtExit + 8, 5_000, 'calls after the exit were refused');
    const tally = await load.stop();

    const fiveHundreds = tally.statuses.filter((status) => status >= 500);
    assert.deepEqual(fiveHundreds, [], `5xx answers: ${JSON.stringify(histogram(tally.statuses))}`);
    assert.deepEqual(tally.dropped, [], 'every call without an answer was refused at connect');
    assert.ok(tally.statuses.every((status) => status === 201), `statuses: ${JSON.stringify(histogram(tally.statuses))}`);
    assert.ok(tally.refused > 0);
    assert.ok(answeredBefore >= 50);
    assert.equal(stopped.code, 0);
    assert.ok(stopped.ms < SHUTDOWN_BOUND_MS, `the stop took ${stopped.ms} ms`);

    const rows = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM session.sessions WHERE id = ANY($1)', [created]);
    assert.equal(rows[0]?.n, created.length, 'every 201 session is stored');
    // The other replica still serves.
    const after = await system.api(merchant.testKey).post('/gateway/sessions/', sessionRequest());
    assert.equal(after.status, 201);
  });
});

function histogram(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
