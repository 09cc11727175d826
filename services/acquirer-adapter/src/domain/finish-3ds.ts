/**
 * The buyer is back from 3-D Secure with the bank's answer (paRes). The
 * adapter hands it to the acquirer, then, as always, reads the outcome from
 * the acquirer's order status: the browser's return proves nothing.
 */
import type { CommandRequest, PaymentStep } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { finishedStep } from './finish-order.js';
import { confirmOutcome, decline, leaveUnknown } from './finish-order.js';
import { resolveTerminal } from './terminals.js';
import type { AdapterDeps } from './deps.js';

/** payment.finish_3ds: the buyer is back from 3-D Secure; the acquirer finishes the payment and its outcome is confirmed. */
export async function finish3dsPayment(deps: AdapterDeps, request: CommandRequest<'payment.finish_3ds'>, correlationId: string): Promise<PaymentStep> {
  const order = await deps.orders.find(request.attempt_id);
  if (!order || order.session_id !== request.session_id) throw new AppError('not-found', 'No payment attempt with this id awaits 3-D Secure.');
  const acquirerOrderId = order.acquirer_order_id;
  if (order.status !== 'CHALLENGED' || !acquirerOrderId || request.returned.kind !== 'pa_res') return finishedStep(order);
  const paRes = request.returned.pa_res;
  // Taking the order makes this the one finish sent: a second post of the
  // buyer's page, or a finish after reconciliation gave up on the challenge,
  // sends nothing and answers where the order stands.
  if (!(await deps.orders.takeChallenged(order.attempt_id))) return finishedStep((await deps.orders.find(order.attempt_id)) ?? order);
  const challenged = { ...order, acquirer_order_id: acquirerOrderId };
  const resolved = await resolveTerminal(deps, order.merchant_id, order.livemode);
  if (resolved.status !== 'active') return decline(deps, order, 'processing_error', 'This merchant cannot take card payments at the moment; nothing was charged.', correlationId);
  let finished;
  try {
    finished = await deps.acquirer.finish3ds(resolved.terminal, acquirerOrderId, paRes);
  } catch (err) {
    return leaveUnknown(deps, order, err);
  }
  if (finished.kind !== 'refused') return confirmOutcome(deps, challenged, resolved.terminal, correlationId);
  deps.log.info({ attemptId: order.attempt_id, reason: finished.message }, '3-D Secure finish refused by the acquirer');
  return confirmOutcome(deps, challenged, resolved.terminal, correlationId, { code: 'authentication_failed', message: '3-D Secure authentication failed.' });
}
