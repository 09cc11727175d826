/**
 * What a declined wallet payment owes the buyer (D26): the wallet reported
 * another amount than ours and took it, so the session was not paid by it.
 * The debt is written with the decline (orders.give_back); it is given back
 * through the connector the payment was made with, on the application it was
 * made with: its hold released, or the payment refunded whole. It is tried at
 * once, then by the sweep with backoff until the wallet confirms; a wallet
 * that refuses leaves it to an operator (logged at error), never retried.
 */
import { backoffDelay } from '@gateway/backoff';
import { describeError } from '@gateway/observability';
import { AcquirerUnreachable, type OperationResult } from '../acquirer/acquirer.js';
import type { OwedOrder } from '../db/order.repository.js';
import { connectorFor, orderAccount } from './connectors.js';
import type { AdapterDeps } from './deps.js';
import { RECONCILE_BATCH, settleInBatches, type ReconcilePolicy } from './reconciliation.js';

/** How long a give-back tried now is left to this replica: longer than a call to the wallet can take. */
const GIVE_BACK_LEASE_SECONDS = 60;

/** Gives back what `attemptId`'s order owes, once, now; what does not settle is the sweep's. */
export async function giveBackNow(deps: AdapterDeps, attemptId: string): Promise<void> {
  try {
    const owed = await deps.orders.claimGiveBack(attemptId, GIVE_BACK_LEASE_SECONDS);
    if (owed) await giveBack(deps, owed, 0);
  } catch (err) {
    deps.log.warn({ attemptId, err: describeError(err) }, 'give-back not made now; the sweep makes it');
    await deps.orders.rescheduleGiveBack(attemptId, 0).catch(() => undefined);
  }
}

/** One sweep of the give-backs that are due; how many were settled. */
export async function giveBackDue(deps: AdapterDeps, policy: ReconcilePolicy, stopping: () => boolean = () => false): Promise<number> {
  return settleInBatches(
    () => deps.orders.claimDueGiveBacks(RECONCILE_BATCH, policy.leaseSeconds),
    async (owed) => {
      try {
        return await giveBack(deps, owed, backoffDelay({ first: policy.baseDelaySeconds, max: policy.maxDelaySeconds }, Math.max(owed.give_back_checks - 1, 0)));
      } catch (err) {
        // Its lease runs out and a later sweep tries again.
        deps.log.warn({ attemptId: owed.attempt_id, err: describeError(err) }, 'give-back failed; tried again later');
        return false;
      }
    },
    stopping,
  );
}

/** Gives back one claimed debt; true when it is settled (given back, or an operator's), else tried again after `retryAfterSeconds`. */
async function giveBack(deps: AdapterDeps, owed: OwedOrder, retryAfterSeconds: number): Promise<boolean> {
  const resolved = await orderAccount(deps, owed);
  const reference = owed.acquirer_order_id;
  let result: OperationResult;
  if (resolved.status !== 'active' || !reference) {
    result = { kind: 'refused', errorCode: -1, message: 'no account or reference to give it back with' };
  } else {
    const connector = connectorFor(deps, owed.payment_method_type);
    try {
      result =
        owed.give_back === 'release'
          ? await connector.void(resolved.terminal, reference)
          : await connector.refund(resolved.terminal, { reference, amount: owed.give_back_amount, refundedAtMost: '0.000', paymentAmount: owed.give_back_amount });
    } catch (err) {
      if (!(err instanceof AcquirerUnreachable)) throw err;
      result = { kind: 'unconfirmed', errorCode: -1, message: err.reason };
    }
  }
  const logged = { attemptId: owed.attempt_id, giveBack: owed.give_back, amount: owed.give_back_amount };
  if (result.kind === 'unconfirmed') {
    deps.log.warn({ ...logged, errorCode: result.errorCode }, 'give-back unconfirmed; tried again later');
    await deps.orders.rescheduleGiveBack(owed.attempt_id, retryAfterSeconds);
    return false;
  }
  if (result.kind === 'done') deps.log.warn(logged, 'wallet payment of another amount given back');
  else deps.log.error({ ...logged, errorCode: result.errorCode }, 'wallet payment of another amount not given back; an operator must give it back at the wallet');
  await deps.orders.endGiveBack(owed.attempt_id);
  return true;
}
