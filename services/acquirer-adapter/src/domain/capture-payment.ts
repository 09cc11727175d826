/**
 * Capturing a held payment (D22, ACQUIRER.md two-phase orders): payment.capture,
 * sent by the session, deposits the amount asked of a two-phase order's hold
 * (deposit.do), once. The hold is taken for the capture (orders.hold: HELD →
 * CAPTURING) before the acquirer is called, so a deposit and a reverse are
 * never both sent, and neither twice.
 *
 * The acquirer's answer decides: 0 done (payment.captured); 5 or 6 refused,
 * which leaves the hold HELD (payment.capture_failed); 7, no answer or an
 * unreadable one is unknown, and reconciliation (reconcile-holds.ts) asks the
 * order's status until it tells.
 */
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import { accountCurrency, checkAmount, compareTnd } from '@gateway/money';
import { AcquirerUnreachable, type OperationResult } from '../acquirer/acquirer.js';
import type { AdapterDeps } from './deps.js';
import { capturedData, recordCapture, RELEASED, returnHold } from './finish-hold.js';
import { connectorFor, orderAccount } from './connectors.js';

type CaptureRequest = CommandRequest<'payment.capture'>;
type CaptureReply = CommandReply<'payment.capture'>;

const NO_HOLD = 'There is no held payment to capture.';
const UNDER_WAY = 'A capture of this payment is under way; its outcome is not known yet.';
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
  if (!(await deps.holds.take(order.attempt_id, { capture: request.capture_id }))) return standing(deps, request);
  const resolved = await orderAccount(deps, order);
  const orderId = order.acquirer_order_id;
  if (resolved.status !== 'active' || !orderId) {
    const message = orderId ? `The merchant's live acquirer terminal is ${resolved.status}; nothing was captured.` : NO_HOLD;
    return (await returnHold(deps, order, request.capture_id, message, correlationId)) ? { outcome: 'refused', message } : standing(deps, request);
  }
  let result: OperationResult;
  try {
    result = await connectorFor(deps, order.payment_method_type).capture(resolved.terminal, orderId, request.amount);
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
