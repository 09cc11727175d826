/**
 * What reconciliation of orders (reconcile-orders.ts) and of holds
 * (reconcile-holds.ts) share: when a claimed order or hold is looked at again
 * and given up on, and the sweep that claims a batch at a time and asks the
 * acquirer about each one side by side.
 */
import { backoffDelay } from '@gateway/backoff';
import { inBatches } from '@gateway/db';
import type { ClaimedOrder } from '../db/order.repository.js';

/** When orders are looked at, and when they are given up on. */
export interface ReconcilePolicy {
  /** Age (since the order last changed) past which a payment step cannot still be moving it. */
  reconcileAfterSeconds: number;
  /**
   * Age past which an order the acquirer still has unpaid is declined: a
   * METHOD or CHALLENGED one whose buyer never finished 3-D Secure, or an
   * UNKNOWN one whose card or finish never took effect.
   */
  challengeTimeoutSeconds: number;
  /** The first wait after a check that finished nothing; doubled after each further one. */
  baseDelaySeconds: number;
  maxDelaySeconds: number;
  /** How long a claimed order is left to the replica asking about it. */
  leaseSeconds: number;
}

/** Orders (or holds) claimed, and asked about side by side, at once: each with its own acquirer call. */
export const RECONCILE_BATCH = 20;

/**
 * A sweep: claims batch after batch (`claim`, at most RECONCILE_BATCH at
 * once) and handles each claimed one side by side, until a batch comes short
 * or `stopping` says so; answers how many `handle` said it settled.
 */
export async function settleInBatches<T>(claim: () => Promise<T[]>, handle: (claimed: T) => Promise<boolean>, stopping: () => boolean): Promise<number> {
  let settled = 0;
  await inBatches({ size: RECONCILE_BATCH, stopping }, async () => {
    const due = await claim();
    const results = await Promise.all(due.map(handle));
    settled += results.filter(Boolean).length;
    return due.length;
  });
  return settled;
}

/**
 * Backoff: min(base × 2^(checks − 1), max) seconds, but never past the
 * moment the order could be given up on, so that happens on time.
 */
export function nextCheckDelay(policy: ReconcilePolicy, order: Pick<ClaimedOrder, 'status' | 'checks' | 'age_seconds'>): number {
  const backoff = backoffDelay({ first: policy.baseDelaySeconds, max: policy.maxDelaySeconds }, Math.max(order.checks - 1, 0));
  const giveUpAges =
    order.status === 'CHALLENGED' || order.status === 'METHOD'
      ? [policy.challengeTimeoutSeconds]
      : order.status === 'UNKNOWN'
        ? [policy.reconcileAfterSeconds, policy.challengeTimeoutSeconds]
        : [policy.reconcileAfterSeconds];
  const ahead = giveUpAges.map((age) => Math.ceil(age - order.age_seconds)).filter((seconds) => seconds > 0);
  return ahead.length > 0 ? Math.max(1, Math.min(backoff, ...ahead)) : backoff;
}
