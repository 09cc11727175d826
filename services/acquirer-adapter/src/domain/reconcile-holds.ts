/**
 * Reconciliation of holds (D22): a capture or a release whose outcome the
 * acquirer did not tell (7, no answer, an unreadable one) is left CAPTURING
 * or VOIDING, and every sweep claims those whose check has come and asks the
 * order's status until it tells: deposited is captured (payment.captured,
 * once), still held after the longest a call can take is a capture that
 * never happened (or a release sent again), reversed is released.
 */
import { describeError } from '@gateway/observability';
import { AcquirerUnreachable, type OrderState } from '../acquirer/acquirer.js';
import type { ClaimedHold } from '../db/order-hold.repository.js';
import type { AdapterDeps } from './deps.js';
import { recordCapture, RELEASED, returnHold, sendRelease } from './finish-hold.js';
import { nextCheckDelay, RECONCILE_BATCH, settleInBatches, type ReconcilePolicy } from './reconciliation.js';
import { connectorFor, orderAccount } from './connectors.js';

const NEVER_CAPTURED = 'The card processor did not capture the payment; the hold stands.';

/** One sweep over captures and releases whose outcome is unknown; answers how many it settled. */
export async function reconcileDueHolds(deps: AdapterDeps, policy: ReconcilePolicy, stopping: () => boolean = () => false): Promise<number> {
  return settleInBatches(
    // As many at once as a round of orders: the adapter's acquirer connections are sized for that (acquirerConnections).
    () => deps.holds.claimDue(RECONCILE_BATCH, policy.leaseSeconds),
    (hold) => reconcileHold(deps, policy, hold),
    stopping,
  );
}

/** Asks the acquirer how one claimed hold stands and settles it, or puts its next check on; true when settled. */
async function reconcileHold(deps: AdapterDeps, policy: ReconcilePolicy, hold: ClaimedHold): Promise<boolean> {
  const correlationId = `reconcile-hold-${hold.attempt_id}`;
  try {
    const resolved = await orderAccount(deps, hold);
    let state: OrderState | undefined;
    if (resolved.status === 'active' && hold.acquirer_order_id) {
      try {
        state = await connectorFor(deps, hold.payment_method_type).status(resolved.terminal, { reference: hold.acquirer_order_id, orderNumber: hold.order_number });
      } catch (err) {
        if (!(err instanceof AcquirerUnreachable)) throw err;
      }
    }
    const settled = state ? await settleHold(deps, policy, hold, state, correlationId) : false;
    if (!settled) {
      const delay = nextCheckDelay(policy, { status: 'UNKNOWN', checks: hold.hold_checks, age_seconds: hold.hold_age_seconds });
      await deps.holds.reschedule(hold.attempt_id, hold.hold_checks, delay);
    }
    return settled;
  } catch (err) {
    // Its lease runs out and a later sweep asks again.
    deps.log.warn({ attemptId: hold.attempt_id, err: describeError(err) }, 'reconciliation of a hold failed');
    return false;
  }
}

async function settleHold(deps: AdapterDeps, policy: ReconcilePolicy, hold: ClaimedHold, state: OrderState, correlationId: string): Promise<boolean> {
  const settledLong = hold.hold_age_seconds >= policy.reconcileAfterSeconds;
  if (hold.hold === 'CAPTURING') {
    if (state.kind === 'paid') {
      // Without paymentAmountInfo the acquirer does not say what it deposited, and a partial capture's amount is never guessed.
      if (state.amount === undefined) {
        deps.log.error({ attemptId: hold.attempt_id }, 'acquirer deposited a hold without saying the amount; an operator must record the capture');
        return false;
      }
      return (await recordCapture(deps, hold, state.amount, correlationId)) !== undefined;
    }
    // Still held long after any deposit of ours could be on its way: it never took effect.
    const captureId = hold.capture_id ?? '';
    if (state.kind === 'held') return settledLong && returnHold(deps, hold, captureId, NEVER_CAPTURED, correlationId);
    if (state.kind === 'declined' && state.reversed) {
      deps.log.error({ attemptId: hold.attempt_id }, 'acquirer released a hold under capture; an operator must look');
      return returnHold(deps, hold, captureId, RELEASED, correlationId, true);
    }
    return false;
  }
  // VOIDING
  if (state.kind === 'declined' && state.reversed) return deps.holds.finishRelease(hold.attempt_id, 'VOIDED');
  if (state.kind === 'held') {
    // The release never took effect: sent again (reverse.do releases a hold once).
    if (!settledLong) return false;
    await sendRelease(deps, hold);
    return (await deps.orders.find(hold.attempt_id))?.hold !== 'VOIDING';
  }
  if (state.kind === 'paid') {
    deps.log.error({ attemptId: hold.attempt_id }, 'acquirer deposited a hold being released; an operator must look');
    return deps.holds.finishRelease(hold.attempt_id, 'VOID_REFUSED');
  }
  return false;
}
