/**
 * What is done with a two-phase order's hold (D22, ACQUIRER.md two-phase
 * orders), once: a capture (deposit.do, sent by the session as
 * payment.capture) or a release (reverse.do, on session.hold_canceled when the
 * merchant cancels or the hold lapses). The hold is taken for the one or the
 * other before the acquirer is called (orders.hold: HELD → CAPTURING or
 * VOIDING), so a deposit and a reverse are never both sent, and neither twice.
 *
 * The acquirer's answer decides: 0 done; 5 or 6 refused (a refused capture
 * leaves the hold HELD, payment.capture_failed); 7, no answer or an unreadable
 * one is unknown, and reconciliation (reconcileDueHolds) asks the order's
 * status until it tells: deposited is captured (payment.captured, once),
 * still held after the longest a call can take is a capture that never
 * happened, reversed is released.
 */
import type { CommandReply, CommandRequest, EventData } from '@gateway/contracts';
import { eventEnvelope, type Change } from '@gateway/messaging';
import { accountCurrency, checkAmount, compareTnd, computeFee } from '@gateway/money';
import { describeError } from '@gateway/observability';
import { AcquirerUnreachable, type OperationResult, type OrderState } from '../acquirer/acquirer.js';
import type { ClaimedHold, OrderRow } from '../db/order.repository.js';
import type { AdapterDeps } from './deps.js';
import { CARD_COUNTRY_UNKNOWN, paymentRef, pricingOf } from './finish-order.js';
import { inBatches, nextCheckDelay, RECONCILE_BATCH, type ReconcilePolicy } from './reconcile-orders.js';
import { resolveTerminal } from './terminals.js';

type CaptureRequest = CommandRequest<'payment.capture'>;
type CaptureReply = CommandReply<'payment.capture'>;

const NO_HOLD = 'There is no held payment to capture.';
const RELEASED = 'The hold was released; nothing can be captured.';
const UNDER_WAY = 'A capture of this payment is under way; its outcome is not known yet.';
const NEVER_CAPTURED = 'The card processor did not capture the payment; the hold stands.';
const ENDED = 'This capture ended without capturing; the hold stands.';

/** payment.capture: deposits `amount` of the held order, once; a repeat answers where the capture stands. */
export async function capturePayment(deps: AdapterDeps, request: CaptureRequest, correlationId: string): Promise<CaptureReply> {
  const order = await deps.orders.find(request.attempt_id);
  if (!order || order.session_id !== request.session_id || order.merchant_id !== request.merchant_id || order.livemode !== request.livemode || order.hold === null) {
    return { outcome: 'refused', message: NO_HOLD };
  }
  // Never 0 (deposit.do's "the whole hold"), never above the hold, always TND at 3 decimals: the session checked it, and so does the one who sends it.
  const amount = checkAmount(request.amount, accountCurrency);
  if (!amount.ok || amount.text !== request.amount || compareTnd(request.amount, order.amount) > 0) {
    deps.log.warn({ attemptId: order.attempt_id, reason: amount.ok ? 'above the hold' : amount.code }, 'capture amount refused');
    return { outcome: 'refused', message: `The capture amount ${request.amount} is not a TND amount with 3 decimals above zero and at most the ${order.amount} TND held.` };
  }
  if (!(await deps.orders.takeHold(order.attempt_id, { capture: request.capture_id }))) return standing(deps, request);
  const resolved = await resolveTerminal(deps, order.merchant_id, order.livemode);
  const orderId = order.acquirer_order_id;
  if (resolved.status !== 'active' || !orderId) {
    const message = orderId ? `The merchant's live acquirer terminal is ${resolved.status}; nothing was captured.` : NO_HOLD;
    return (await returnHold(deps, order, request.capture_id, message, correlationId)) ? { outcome: 'refused', message } : standing(deps, request);
  }
  let result: OperationResult;
  try {
    result = await deps.acquirer.deposit(resolved.terminal, orderId, request.amount);
  } catch (err) {
    if (!(err instanceof AcquirerUnreachable)) throw err;
    if (!err.maybeDelivered) {
      const message = 'The card processor could not be reached; nothing was captured.';
      return (await returnHold(deps, order, request.capture_id, message, correlationId)) ? { outcome: 'unavailable', message } : standing(deps, request);
    }
    deps.log.warn({ attemptId: order.attempt_id, reason: err.reason }, 'capture unanswered; left for reconciliation');
    return { outcome: 'unknown', message: UNDER_WAY };
  }
  if (result.kind === 'done') {
    const captured = await recordCapture(deps, order, request.amount, correlationId);
    return captured ? { outcome: 'captured', captured, message: '' } : standing(deps, request);
  }
  if (result.kind === 'refused') {
    deps.log.info({ attemptId: order.attempt_id, errorCode: result.errorCode }, 'capture refused by the acquirer');
    return (await returnHold(deps, order, request.capture_id, result.message, correlationId)) ? { outcome: 'refused', message: result.message } : standing(deps, request);
  }
  deps.log.warn({ attemptId: order.attempt_id, errorCode: result.errorCode }, 'capture unconfirmed; left for reconciliation');
  return { outcome: 'unknown', message: UNDER_WAY };
}

/**
 * Where a capture stands, for a command that could not take the hold: the
 * capture recorded, one under way, this capture ended without capturing (its
 * claim is over: it is never sent again), or no hold to capture.
 */
async function standing(deps: AdapterDeps, request: CaptureRequest): Promise<CaptureReply> {
  const order = await deps.orders.find(request.attempt_id);
  if (order?.hold === 'CAPTURED' && order.captured_amount !== null && order.captured_at !== null && order.fee_amount !== null && order.net_amount !== null) {
    return { outcome: 'captured', captured: capturedData(order, order.captured_amount, { fee: order.fee_amount, net: order.net_amount }, order.captured_at), message: '' };
  }
  if (order?.hold === 'CAPTURING') return { outcome: 'unknown', message: UNDER_WAY };
  if (order?.ended_captures.includes(request.capture_id)) return { outcome: 'refused', message: ENDED };
  return { outcome: 'refused', message: order?.hold === 'VOIDING' || order?.hold === 'VOIDED' || order?.hold === 'VOID_REFUSED' ? RELEASED : NO_HOLD };
}

/** What payment.captured says of a capture of `amount` at `at`. */
function capturedData(order: OrderRow, amount: string, fee: { fee: string; net: string }, at: Date): EventData<'payment.captured'> {
  return {
    ...paymentRef(order),
    amount,
    card_country: CARD_COUNTRY_UNKNOWN,
    fee_amount: fee.fee,
    net_amount: fee.net,
    paid_at: at.toISOString(),
  };
}

/** Records the capture of `amount` with the fee on it, and payment.captured; the data, or undefined when it was recorded already. */
async function recordCapture(deps: AdapterDeps, order: OrderRow, amount: string, correlationId: string): Promise<EventData<'payment.captured'> | undefined> {
  const fee = computeFee(amount, pricingOf(order, deps.defaultPricing));
  const event = eventEnvelope('payment.captured', capturedData(order, amount, fee, deps.clock()), correlationId);
  if (!(await deps.orders.recordCapture(order.attempt_id, { amount, feeAmount: fee.fee, netAmount: fee.net }, event))) return undefined;
  deps.afterCommit();
  deps.log.info({ attemptId: order.attempt_id, amount }, 'capture recorded');
  return event.data;
}

/** Capture `captureId` did not happen: the hold is HELD again (gone, when `released`), with payment.capture_failed. */
async function returnHold(deps: AdapterDeps, order: OrderRow, captureId: string, message: string, correlationId: string, released = false): Promise<boolean> {
  const event = eventEnvelope(
    'payment.capture_failed',
    { capture_id: captureId, attempt_id: order.attempt_id, session_id: order.session_id, merchant_id: order.merchant_id, livemode: order.livemode, message },
    correlationId,
  );
  const returned = await deps.orders.returnHold(order.attempt_id, event, released);
  if (returned) deps.afterCommit();
  return returned;
}

/**
 * Releasing the hold of a session canceled or lapsed while AUTHORIZED: the
 * change session.hold_canceled carries, applied once (the hold is taken from
 * HELD to VOIDING); reverse.do is sent, and an unknown outcome is left to
 * reconciliation.
 */
export function holdRelease(deps: AdapterDeps): Change<'session.hold_canceled', EventData<'session.hold_canceled'>, true> {
  return {
    name: 'hold-release',
    events: ['session.hold_canceled'],
    fromEvent: (data) => data,
    apply: async (data) => {
      const order = await deps.orders.find(data.attempt_id);
      if (!order || order.session_id !== data.session_id || !(await deps.orders.takeHold(order.attempt_id, 'VOIDING'))) {
        deps.log.debug({ attemptId: data.attempt_id }, 'hold not HELD (released already, or captured); nothing to release');
        return undefined;
      }
      await sendRelease(deps, order);
      return true;
    },
  };
}

/** reverse.do of a hold taken for release; VOIDED when the acquirer confirms, VOID_REFUSED (an operator's case) when it refuses. */
async function sendRelease(deps: AdapterDeps, order: OrderRow): Promise<void> {
  const resolved = await resolveTerminal(deps, order.merchant_id, order.livemode);
  if (resolved.status !== 'active' || !order.acquirer_order_id) {
    deps.log.error({ attemptId: order.attempt_id, terminal: resolved.status }, 'hold cannot be released here; an operator must release it');
    await deps.orders.finishVoid(order.attempt_id, 'VOID_REFUSED');
    return;
  }
  let result: OperationResult;
  try {
    result = await deps.acquirer.reverse(resolved.terminal, order.acquirer_order_id);
  } catch (err) {
    if (!(err instanceof AcquirerUnreachable)) throw err;
    deps.log.warn({ attemptId: order.attempt_id, reason: err.reason }, 'hold release unanswered; left for reconciliation');
    return;
  }
  if (result.kind === 'unconfirmed') {
    deps.log.warn({ attemptId: order.attempt_id, errorCode: result.errorCode }, 'hold release unconfirmed; left for reconciliation');
    return;
  }
  if (result.kind === 'refused') deps.log.error({ attemptId: order.attempt_id, errorCode: result.errorCode }, 'acquirer refused to release a hold; an operator must look');
  else deps.log.info({ attemptId: order.attempt_id }, 'hold released');
  await deps.orders.finishVoid(order.attempt_id, result.kind === 'done' ? 'VOIDED' : 'VOID_REFUSED');
}

/** One sweep over captures and releases whose outcome is unknown; answers how many it settled. */
export async function reconcileDueHolds(deps: AdapterDeps, policy: ReconcilePolicy, stopping: () => boolean = () => false): Promise<number> {
  return inBatches(
    // As many at once as a round of orders: the adapter's acquirer connections are sized for that (acquirerConnections).
    () => deps.orders.claimDueHolds(RECONCILE_BATCH, policy.leaseSeconds),
    RECONCILE_BATCH,
    (hold) => reconcileHold(deps, policy, hold),
    stopping,
  );
}

/** Asks the acquirer how one claimed hold stands and settles it, or puts its next check on; true when settled. */
export async function reconcileHold(deps: AdapterDeps, policy: ReconcilePolicy, hold: ClaimedHold): Promise<boolean> {
  const correlationId = `reconcile-hold-${hold.attempt_id}`;
  try {
    const resolved = await resolveTerminal(deps, hold.merchant_id, hold.livemode);
    let state: OrderState | undefined;
    if (resolved.status === 'active' && hold.acquirer_order_id) {
      try {
        state = await deps.acquirer.status(resolved.terminal, hold.acquirer_order_id);
      } catch (err) {
        if (!(err instanceof AcquirerUnreachable)) throw err;
      }
    }
    const settled = state ? await settleHold(deps, policy, hold, state, correlationId) : false;
    if (!settled) {
      const delay = nextCheckDelay(policy, { status: 'UNKNOWN', checks: hold.hold_checks, age_seconds: hold.hold_age_seconds });
      await deps.orders.rescheduleHold(hold.attempt_id, hold.hold_checks, delay);
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
    if (state.kind === 'paid') return (await recordCapture(deps, hold, state.amount, correlationId)) !== undefined;
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
  if (state.kind === 'declined' && state.reversed) return deps.orders.finishVoid(hold.attempt_id, 'VOIDED');
  if (state.kind === 'held') {
    // The release never took effect: sent again (reverse.do releases a hold once).
    if (!settledLong) return false;
    await sendRelease(deps, hold);
    return (await deps.orders.find(hold.attempt_id))?.hold !== 'VOIDING';
  }
  if (state.kind === 'paid') {
    deps.log.error({ attemptId: hold.attempt_id }, 'acquirer deposited a hold being released; an operator must look');
    return deps.orders.finishVoid(hold.attempt_id, 'VOID_REFUSED');
  }
  return false;
}
