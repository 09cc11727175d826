/**
 * What the tests that break things under load (a replica killed, an engine
 * failing over) share: running tasks a few at a time, and asking the
 * acquirer's sandbox what it really charged and refunded.
 */
import Big from 'big.js';
import type { TestSystem } from '@gateway/testkit';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `task(i)` for i in 0..count-1, `concurrency` at a time; the results in order. */
export async function inParallel<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

/** How many of a session's orders the sandbox took money for (approved or deposited). */
export async function chargesAtSandbox(system: TestSystem, sessionId: string): Promise<number> {
  const orders = await system.db.query<{ order_number: string }>('SELECT order_number FROM acquirer.orders WHERE session_id = $1', [sessionId]);
  let charged = 0;
  for (const order of orders) {
    const state = await system.sandboxOrder(order.order_number);
    if ((state.paymentAmountInfo?.depositedAmount ?? 0) > 0 || (state.paymentAmountInfo?.approvedAmount ?? 0) > 0) charged += 1;
  }
  return charged;
}

/** What the sandbox refunded of a session's paid order, in TND (a reversal refunds the whole amount). */
export async function refundedAtSandbox(system: TestSystem, sessionId: string): Promise<string> {
  const orders = await system.db.query<{ order_number: string; amount: string }>(`SELECT order_number, amount::text FROM acquirer.orders WHERE session_id = $1 AND status = 'APPROVED'`, [sessionId]);
  let refunded = new Big(0);
  for (const order of orders) {
    const state = await system.sandboxOrder(order.order_number);
    // The sandbox counts in millimes.
    refunded = refunded.plus(state.orderStatus === 3 ? order.amount : new Big(state.paymentAmountInfo?.refundedAmount ?? 0).div(1000));
  }
  return refunded.toFixed(3);
}
