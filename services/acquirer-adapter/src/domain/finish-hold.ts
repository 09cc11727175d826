/**
 * How a two-phase order's hold ends (D22), each once: captured (the deposit
 * recorded with its fee, payment.captured), a capture that ended without
 * capturing (the hold HELD again, or gone, payment.capture_failed), or
 * released (reverse.do sent, VOIDED or, refused, VOID_REFUSED for an
 * operator). A capture, a release and reconciliation (reconcile-holds.ts)
 * all end holds through these.
 */
import type { EventData } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import { computeFee } from '@gateway/money';
import { AcquirerUnreachable, type OperationResult } from '../acquirer/acquirer.js';
import type { OrderRow } from '../db/order.repository.js';
import type { AdapterDeps } from './deps.js';
import { CARD_COUNTRY_UNKNOWN, paymentRef, pricingOf } from './finish-order.js';
import { connectorFor, orderAccount } from './connectors.js';

/** What a capture is answered once the hold was released. */
export const RELEASED = 'The hold was released; nothing can be captured.';

/** What payment.captured says of a capture of `amount` at `at`. */
export function capturedData(order: OrderRow, amount: string, fee: { fee: string; net: string }, at: Date): EventData<'payment.captured'> {
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
export async function recordCapture(deps: AdapterDeps, order: OrderRow, amount: string, correlationId: string): Promise<EventData<'payment.captured'> | undefined> {
  const fee = computeFee(amount, pricingOf(order, deps.defaultPricing));
  const event = eventEnvelope('payment.captured', capturedData(order, amount, fee, deps.clock()), correlationId);
  if (!(await deps.holds.recordCapture(order.attempt_id, { amount, feeAmount: fee.fee, netAmount: fee.net }, event))) return undefined;
  deps.afterCommit();
  deps.log.info({ attemptId: order.attempt_id, amount }, 'capture recorded');
  return event.data;
}

/** Capture `captureId` did not happen: the hold is HELD again (gone, when `released`), with payment.capture_failed. */
export async function returnHold(deps: AdapterDeps, order: OrderRow, captureId: string, message: string, correlationId: string, released = false): Promise<boolean> {
  const event = eventEnvelope(
    'payment.capture_failed',
    { capture_id: captureId, attempt_id: order.attempt_id, session_id: order.session_id, merchant_id: order.merchant_id, livemode: order.livemode, message },
    correlationId,
  );
  const returned = await deps.holds.endCapture(order.attempt_id, event, released);
  if (returned) deps.afterCommit();
  return returned;
}

/** reverse.do of a hold taken for release; VOIDED when the acquirer confirms, VOID_REFUSED (an operator's case) when it refuses. */
export async function sendRelease(deps: AdapterDeps, order: OrderRow): Promise<void> {
  const resolved = await orderAccount(deps, order);
  if (resolved.status !== 'active' || !order.acquirer_order_id) {
    deps.log.error({ attemptId: order.attempt_id, terminal: resolved.status }, 'hold cannot be released here; an operator must release it');
    await deps.holds.finishRelease(order.attempt_id, 'VOID_REFUSED');
    return;
  }
  let result: OperationResult;
  try {
    result = await connectorFor(deps, order.payment_method_type).void(resolved.terminal, order.acquirer_order_id);
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
  await deps.holds.finishRelease(order.attempt_id, result.kind === 'done' ? 'VOIDED' : 'VOID_REFUSED');
}
