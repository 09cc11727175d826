/**
 * The one wait-before-retrying rule of every retry in the gateway: a fixed
 * schedule (the webhook redeliveries INTERFACE fixes) or a doubling wait with a
 * ceiling and optional jitter (the outbox relay, the broker reconnect, the
 * acquirer and session status checks, storing a webhook event). Unit-free: a
 * caller counting in seconds gets seconds, one counting in milliseconds gets
 * milliseconds.
 */

/** Waits given one by one; there is no retry past the last. */
interface FixedSchedule {
  schedule: readonly number[];
}

/** `first × 2^retry`, never above `max`, without end. */
export interface GrowingWait {
  first: number;
  max: number;
  /**
   * Spread as a fraction of the wait: 0.2 draws it uniformly from 80 % to 120 %
   * of the wait, so that many clients failing together do not retry together.
   */
  jitter?: number;
}

export type Backoff = FixedSchedule | GrowingWait;

/**
 * The wait before retry number `retry` (0 for the first retry, after the first
 * failure): always one for a growing wait; undefined past a schedule's end.
 * `random` (in [0, 1)) is taken only for jitter.
 */
export function backoffDelay(policy: GrowingWait, retry: number, random?: () => number): number;
export function backoffDelay(policy: Backoff, retry: number, random?: () => number): number | undefined;
export function backoffDelay(policy: Backoff, retry: number, random: () => number = Math.random): number | undefined {
  if (!Number.isInteger(retry) || retry < 0) throw new RangeError(`retry must be a non-negative integer, got ${retry}`);
  if ('schedule' in policy) return policy.schedule[retry];
  const wait = grownWait(policy, retry);
  const jitter = policy.jitter ?? 0;
  return jitter > 0 ? wait * (1 - jitter + 2 * jitter * random()) : wait;
}

/**
 * Every distinct wait of a policy without jitter, in order, up to the first
 * that reaches the ceiling: retry n waits `steps[min(n, steps.length - 1)]`.
 * For a query that picks each row's wait by its own retry count.
 */
export function backoffSteps(policy: Backoff): number[] {
  if ('schedule' in policy) return [...policy.schedule];
  if ((policy.jitter ?? 0) > 0) throw new RangeError('a policy with jitter has no fixed steps');
  const steps: number[] = [];
  for (let retry = 0; ; retry += 1) {
    const wait = grownWait(policy, retry);
    steps.push(wait);
    // At the ceiling, or not growing at all (a first wait of 0): later retries wait the same.
    if (wait >= policy.max || wait === 0) return steps;
  }
}

function grownWait(policy: GrowingWait, retry: number): number {
  if (!(policy.first >= 0) || !(policy.max >= 0)) throw new RangeError('first and max must be non-negative');
  if (policy.first === 0) return 0;
  // No more growth than reaching the ceiling needs: a large retry count stays finite.
  const toCeiling = Math.max(0, Math.ceil(Math.log2(policy.max / policy.first)));
  return Math.min(policy.max, policy.first * 2 ** Math.min(retry, toCeiling));
}
