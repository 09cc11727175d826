import assert from 'node:assert/strict';
import { createLogger } from '@gateway/observability';
import { cronEvery, every } from '../../src/periodic.js';

describe('periodic jobs', () => {
  it('when an interval is turned into cron, then seconds use the seconds field and whole minutes the minutes field', () => {
    assert.equal(cronEvery(1), '*/1 * * * * *');
    assert.equal(cronEvery(30), '*/30 * * * * *');
    assert.equal(cronEvery(120), '0 */2 * * * *');
    for (const bad of [0, 61, 90, 7200, 1.5]) assert.throws(() => cronEvery(bad), RangeError, String(bad));
  });

  it('when a run is slower than the interval, then runs never overlap, a failed run does not stop the next, and stop waits for the run under way', async function () {
    this.timeout(10_000);
    let active = 0;
    let most = 0;
    let runs = 0;
    const job = every(
      1,
      'test-job',
      async () => {
        runs += 1;
        const run = runs;
        active += 1;
        most = Math.max(most, active);
        // The first run outlasts the interval, so a tick comes while it runs; the next is short.
        await new Promise((resolve) => setTimeout(resolve, run === 1 ? 1_050 : 150));
        active -= 1;
        if (run === 1) throw new Error('first run fails');
      },
      createLogger({ service: 'test', level: 'silent' }),
    );
    await job.runNow();
    // The next tick after the failed run starts the second run; stop comes while it is under way.
    while (runs < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    await job.stop();
    assert.equal(most, 1);
    assert.ok(runs >= 2, `${runs} runs`);
    assert.equal(active, 0, 'stop waited for the run under way');
  });
});
