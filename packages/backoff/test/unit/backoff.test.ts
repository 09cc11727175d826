/** The one backoff rule: fixed schedules, doubling waits with a ceiling, jitter and steps for a query. */
import { strict as assert } from 'node:assert';
import { backoffDelay, backoffSteps, type Backoff } from '../../src/index.js';

const waits = (policy: Backoff, count: number): (number | undefined)[] =>
  Array.from({ length: count }, (_, retry) => backoffDelay(policy, retry));

describe('backoffDelay', () => {
  it('When the policy is a fixed schedule, then retry n waits its nth step and there is no retry past the last', () => {
    // The webhook redelivery schedule of INTERFACE 6: 1 minute, 2 hours, 1 day, then final.
    assert.deepEqual(waits({ schedule: [60, 7200, 86400] }, 4), [60, 7200, 86400, undefined]);
    assert.equal(backoffDelay({ schedule: [] }, 0), undefined);
  });

  it('When the wait grows, then it doubles from the first wait and stays at the ceiling', () => {
    assert.deepEqual(waits({ first: 50, max: 5_000 }, 9), [50, 100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000]);
    assert.deepEqual(waits({ first: 500, max: 30_000 }, 8), [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  it('When a retry count is very large, then the wait is the ceiling, not Infinity or NaN', () => {
    assert.equal(backoffDelay({ first: 5, max: 3_600 }, 10_000), 3_600);
    assert.equal(backoffDelay({ first: 0, max: 3_600 }, 10_000), 0);
    assert.equal(backoffDelay({ first: 10, max: 5 }, 3), 5);
  });

  it('When the policy has jitter, then the wait is spread by that fraction either side', () => {
    const policy = { first: 100, max: 5_000, jitter: 0.2 };
    assert.equal(backoffDelay(policy, 2, () => 0), 320);
    assert.equal(backoffDelay(policy, 2, () => 0.5), 400);
    assert.ok(Math.abs(backoffDelay(policy, 2, () => 0.999_999) - 480) < 0.001);
    for (let i = 0; i < 200; i += 1) {
      const wait = backoffDelay(policy, 10);
      assert.ok(wait >= 4_000 && wait <= 6_000, String(wait));
    }
  });

  it('When the retry number or the policy is nonsense, then it throws rather than waiting a wrong time', () => {
    assert.throws(() => backoffDelay({ first: 1, max: 2 }, -1), RangeError);
    assert.throws(() => backoffDelay({ first: 1, max: 2 }, 1.5), RangeError);
    assert.throws(() => backoffDelay({ first: -1, max: 2 }, 0), RangeError);
  });
});

describe('backoffSteps', () => {
  it('When the wait grows to a ceiling, then the steps end at the first wait that reaches it', () => {
    assert.deepEqual(backoffSteps({ first: 5, max: 3_600 }), [5, 10, 20, 40, 80, 160, 320, 640, 1_280, 2_560, 3_600]);
    assert.deepEqual(backoffSteps({ first: 5, max: 5 }), [5]);
    assert.deepEqual(backoffSteps({ first: 0, max: 5 }), [0]);
  });

  it('When the steps are indexed by the retry number, capped at the last, then they give what backoffDelay gives', () => {
    const policy = { first: 7, max: 1_000 };
    const steps = backoffSteps(policy);
    for (let retry = 0; retry < 20; retry += 1) assert.equal(steps[Math.min(retry, steps.length - 1)], backoffDelay(policy, retry));
  });

  it('When the policy is a schedule, then its steps are the schedule; with jitter, there are none', () => {
    assert.deepEqual(backoffSteps({ schedule: [60, 7200] }), [60, 7200]);
    assert.throws(() => backoffSteps({ first: 1, max: 10, jitter: 0.2 }), RangeError);
  });
});
