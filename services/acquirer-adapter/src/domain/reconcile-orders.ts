/**
 * Reconciliation (ACQUIRER.md: "Timeouts are unknown outcomes, not failures:
 * reconcile by orderNumber"). An order the adapter could not finish stays
 * unresolved: STARTED (its replica died mid-payment, perhaps after the card
 * was charged), METHOD or CHALLENGED (the buyer never came back from 3-D
 * Secure; a METHOD order forgets the card it kept when it is given up on),
 * REDIRECTED (the buyer is, or was, on a wallet's page, D26) or UNKNOWN (the
 * acquirer did not answer in time). It speaks only the neutral Connector
 * interface, whichever connector took the payment. Every sweep claims the
 * orders whose check has come (a lease claim skipping locked rows: any number of replicas
 * sweep side by side), asks the acquirer about each by the order number it
 * was registered under, outside any transaction, and finishes it through the
 * same path as a payment, so the attempt moves on through payment.approved
 * or payment.declined. What the acquirer cannot tell yet is asked again
 * later, with backoff.
 *
 * What the acquirer says decides: paid is approved (held, for a two-phase
 * order, is authorized) and declined is declined,
 * whenever asked. Giving up (the acquirer never saw the order, or nothing
 * was paid and nothing more will be) is only done on an order left untouched
 * long enough that no payment step of ours can still be moving it, and the
 * write itself checks that again, so it never overtakes a payment step that
 * took the order meanwhile. Finishing loses any race to a normal finish
 * quietly: an order already final changes nothing and emits nothing.
 */
import { describeError } from '@gateway/observability';
import { AcquirerUnreachable, type OrderState, type Terminal } from '../acquirer/acquirer.js';
import type { ClaimedOrder } from '../db/order.repository.js';
import { connectorFor, orderAccount } from './connectors.js';
import type { AdapterDeps } from './deps.js';
import { declineOrder, finishApproved, NEVER_SENT, type Finished } from './finish-order.js';
import { nextCheckDelay, RECONCILE_BATCH, settleInBatches, type ReconcilePolicy } from './reconciliation.js';

const NEVER_RECEIVED = 'The card processor never received this payment; nothing was charged.';
const CHALLENGE_ABANDONED = '3-D Secure was not completed.';
const NEVER_COMPLETED = 'The card processor never completed this payment; nothing was charged.';

/** One sweep: batch after batch until nothing is due (or `stopping` says so); answers how many orders it finished. */
export async function reconcileDueOrders(deps: AdapterDeps, policy: ReconcilePolicy, stopping: () => boolean = () => false): Promise<number> {
  return settleInBatches(() => deps.orders.claimDue(RECONCILE_BATCH, policy.leaseSeconds), (order) => reconcileOrder(deps, policy, order), stopping);
}

/** Asks the acquirer about one claimed order and finishes it, or puts its next check on; true when it finished it. */
async function reconcileOrder(deps: AdapterDeps, policy: ReconcilePolicy, order: ClaimedOrder): Promise<boolean> {
  try {
    const resolution = await resolve(deps, policy, order);
    if (!resolution) {
      await deps.orders.reschedule(order.attempt_id, order.checks, nextCheckDelay(policy, order));
      return false;
    }
    const { acquirer, finished } = resolution;
    const { outcome, failure_code: failureCode } = finished.step;
    deps.log.info(
      { attemptId: order.attempt_id, was: order.status, acquirer, outcome, ...(failureCode ? { failureCode } : {}), checks: order.checks, recorded: finished.recorded },
      finished.recorded ? 'order reconciled' : 'order already finished elsewhere; reconciliation changed nothing',
    );
    return finished.recorded;
  } catch (err) {
    // Its lease runs out and a later sweep asks again.
    deps.log.warn({ attemptId: order.attempt_id, err: describeError(err) }, 'reconciliation of an order failed');
    return false;
  }
}

/** How the order ended, and what the acquirer said of it; undefined: not yet. */
type Resolution = { acquirer: OrderState['kind']; finished: Finished } | undefined;

async function resolve(deps: AdapterDeps, policy: ReconcilePolicy, order: ClaimedOrder): Promise<Resolution> {
  const correlationId = `reconcile-${order.attempt_id}`;
  const giveUp = async (acquirer: OrderState['kind'], code: string, message: string, unchangedForSeconds: number): Promise<Resolution> => ({
    acquirer,
    finished: await declineOrder(deps, order, code, message, correlationId, unchangedForSeconds),
  });
  const oldEnough = order.age_seconds >= policy.reconcileAfterSeconds;

  const wallet = order.payment_method_type !== 'card';
  if (wallet && order.acquirer_order_id === null) {
    // The wallet never gave this payment an id, so the buyer was never sent to it: nothing can be paid.
    return oldEnough ? giveUp('not-found', 'processing_error', NEVER_RECEIVED, policy.reconcileAfterSeconds) : undefined;
  }
  const asked = await orderTerminal(deps, order);
  if (!asked && wallet) {
    // A wallet order is started only with an application: one removed since leaves the payment to an operator, asked again later.
    deps.log.error({ attemptId: order.attempt_id, merchantId: order.merchant_id }, "the merchant's wallet application is gone; the order cannot be verified");
    return undefined;
  }
  if (!asked) {
    // A live order with no terminal at all: nothing can have been sent for it.
    return oldEnough ? giveUp('not-found', 'processing_error', NEVER_RECEIVED, policy.reconcileAfterSeconds) : undefined;
  }
  let state: OrderState;
  try {
    state = await connectorFor(deps, order.payment_method_type).status(asked.terminal, { reference: order.acquirer_order_id, orderNumber: order.order_number, byNumber: true });
  } catch (err) {
    if (!(err instanceof AcquirerUnreachable)) throw err;
    deps.log.warn({ attemptId: order.attempt_id, reason: err.reason, checks: order.checks }, 'acquirer unreachable for reconciliation; asked again later');
    return undefined;
  }

  switch (state.kind) {
    case 'paid':
    case 'held': {
      // Held: a two-phase order's payment went through (D22); one-phase, it stays unresolved for an operator.
      const finished = await finishApproved(deps, order, state, correlationId);
      return finished.step.outcome === 'pending' ? undefined : { acquirer: state.kind, finished };
    }
    case 'declined':
      return { acquirer: 'declined', finished: await declineOrder(deps, order, state.failureCode, state.failureMessage, correlationId) };
    case 'not-found':
      if (!oldEnough) return undefined;
      // A wallet that gave the payment an id and now says it does not know it may be answering vaguely:
      // only once its buyer's time is long over can no payment come (WALLET.md: only EXPIRED says so).
      if (wallet && order.age_seconds < deps.wallet.timeoutSeconds + policy.reconcileAfterSeconds) return undefined;
      if (asked.changedSinceOrder) {
        // Asked on other credentials than the order may have been made with: "unknown" proves nothing.
        deps.log.error({ attemptId: order.attempt_id, merchantId: order.merchant_id }, 'order unknown to the acquirer, but the live terminal was set again since; an operator must look');
        return undefined;
      }
      return giveUp('not-found', 'processing_error', NEVER_RECEIVED, policy.reconcileAfterSeconds);
    case 'open':
      // A buyer who never finished 3-D Secure: never back from the challenge, or from the 3DS Method step.
      if ((order.status === 'CHALLENGED' || order.status === 'METHOD') && order.age_seconds >= policy.challengeTimeoutSeconds) {
        return giveUp('open', 'authentication_failed', CHALLENGE_ABANDONED, policy.challengeTimeoutSeconds);
      }
      // Registered, but the replica died before the card was sent or answered for.
      if (order.status === 'STARTED' && oldEnough) return giveUp('open', 'processing_error', NEVER_SENT, policy.reconcileAfterSeconds);
      // A card or 3-D Secure finish that may have been sent, yet the acquirer still has the order
      // unpaid long after any payment step could still be moving it: it never took that step.
      if (order.status === 'UNKNOWN' && order.age_seconds >= policy.challengeTimeoutSeconds) {
        return giveUp('open', 'processing_error', NEVER_COMPLETED, policy.challengeTimeoutSeconds);
      }
      return undefined;
    default:
      return unreachable(state);
  }
}

/**
 * The terminal the order was made on: test mode's sandbox, or the merchant's
 * live terminal (inactive or refused credentials still name it; a refusal
 * reads as unreachable and is asked again).
 */
async function orderTerminal(deps: AdapterDeps, order: ClaimedOrder): Promise<{ terminal: Terminal; changedSinceOrder: boolean } | undefined> {
  if (order.payment_method_type !== 'card') {
    // The application the payment was started with, whatever the merchant's keys are now.
    const resolved = await orderAccount(deps, order);
    return resolved.status === 'active' ? { terminal: resolved.terminal, changedSinceOrder: false } : undefined;
  }
  if (!order.livemode) return { terminal: deps.sandbox, changedSinceOrder: false };
  const row = await deps.terminals.find(order.merchant_id, true);
  if (!row) return undefined;
  return {
    terminal: { baseUrl: deps.liveUrl, userName: row.user_name, password: row.password },
    changedSinceOrder: row.updated_at.getTime() > order.created_at.getTime(),
  };
}

function unreachable(state: never): never {
  throw new Error(`unknown order state ${JSON.stringify(state)}`);
}
