/**
 * SIGTERM to the sandbox acquirer under a stream of register.do calls: every
 * call under way is answered (errorCode 0), the rest are refused at connect,
 * and the process exits 0 within SHUTDOWN_TIMEOUT_MS (5 s in test systems).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { keepSending, pollUntil, SANDBOX_TERMINAL, TestSystem } from '@gateway/testkit';

const SHUTDOWN_BOUND_MS = 5_000 + 1_000;

describe('Sandbox acquirer, graceful stop', function () {
  this.timeout(60_000);
  let system: TestSystem;

  before(async () => {
    // Child processes: a graceful stop is a real process's answer to SIGTERM.
    system = await TestSystem.start({ launch: 'child-process', services: ['epg-sandbox'] });
  });
  after(async () => {
    await system?.shutdown();
  });

  it('when the sandbox gets SIGTERM under a stream of register.do calls, then every answer is a success, the rest are refused at connect, and it exits 0 within the bound', async () => {
    const port = await system.startService('epg-sandbox', 'epg-sandbox-2');
    const codes: string[] = [];
    const load = keepSending(async () => {
      const res = await fetch(`http://127.0.0.1:${port}/payment/rest/register.do`, {
        method: 'POST',
        body: new URLSearchParams({
          userName: SANDBOX_TERMINAL.user,
          password: SANDBOX_TERMINAL.password,
          orderNumber: randomUUID().slice(0, 30),
          amount: '12500',
          currency: '788',
          returnUrl: 'https://shop.example.tn/back',
        }),
      });
      // A successful register.do carries no error code (as deployed): "0" then.
      const answer = (await res.json()) as { errorCode?: string; orderId?: string };
      codes.push(answer.errorCode ?? (answer.orderId ? '0' : 'none'));
      return res.status;
    }, 8);
    await pollUntil(() => load.tally.statuses.length >= 100, 10_000, '100 registrations before the stop');
    const stopped = await system.stopServiceTimed('epg-sandbox-2');
    const refusedAtExit = load.tally.refused;
    await pollUntil(() => load.tally.refused >= refusedAtExit + 8, 5_000, 'calls after the exit were refused');
    const tally = await load.stop();

    assert.ok(tally.statuses.every((status) => status === 200), JSON.stringify([...new Set(tally.statuses)]));
    assert.deepEqual([...new Set(codes)], ['0']);
    assert.deepEqual(tally.dropped, [], 'every call without an answer was refused at connect');
    assert.equal(stopped.code, 0);
    assert.ok(stopped.ms < SHUTDOWN_BOUND_MS, `the stop took ${stopped.ms} ms`);
  });
});
