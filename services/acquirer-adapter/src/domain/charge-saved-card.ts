/**
 * Charging a saved card without the buyer (D24, payment.charge_saved): the
 * order is recorded before any acquirer call, registered, and paid with the
 * card's binding (paymentOrderBinding.do, tii U); the outcome is confirmed
 * by the order's status as every payment's. No buyer can meet 3-D Secure: an
 * issuer that asks for them fails the charge with authentication_required.
 * A repeated request only reports where the order stands.
 */
import type { CommandRequest, PaymentStep } from '@gateway/contracts';
import { AcquirerUnreachable, type PayResult } from '../acquirer/acquirer.js';
import { recordOrder, registerOrder } from './authorize-payment.js';
import type { AdapterDeps } from './deps.js';
import { confirmOutcome, decline, finishedStep, leaveUnknown } from './finish-order.js';
import { PROCESSOR_UNAVAILABLE } from './send-card.js';
import { SAVED_CARD_GONE } from './authorize-saved-card.js';

const AUTHENTICATION_REQUIRED = { code: 'authentication_required', message: 'The card issuer requires the cardholder to authenticate this payment.' };

/** payment.charge_saved: charges the saved card once; a repeat reports where its order stands. */
export async function chargeSavedCard(deps: AdapterDeps, request: CommandRequest<'payment.charge_saved'>, correlationId: string): Promise<PaymentStep> {
  const { attempt } = request;
  const order = await recordOrder(deps, attempt, request.card_brand, request.card_last_four);
  if (!order.fresh) return finishedStep(order.row);
  const binding = await deps.bindings.usable(attempt.merchant_id, attempt.livemode, request.payment_method_id);
  if (!binding) return decline(deps, order.row, 'processing_error', SAVED_CARD_GONE, correlationId);
  const registered = await registerOrder(
    deps,
    order.row,
    { returnUrl: request.return_url, language: 'fr', description: attempt.description || attempt.order_number, clientId: binding.customerId },
    correlationId,
  );
  if (!registered.ok) return registered.step;
  const settling = { ...order.row, acquirer_order_id: registered.orderId };
  let paid: PayResult;
  try {
    paid = await deps.acquirer.payWithBinding(registered.terminal, registered.orderId, { binding: { bindingId: binding.bindingId, ip: request.ip, tii: 'U' }, language: 'fr', finishUrl: request.return_url });
  } catch (err) {
    if (err instanceof AcquirerUnreachable && !err.maybeDelivered) return decline(deps, settling, 'processing_error', PROCESSOR_UNAVAILABLE, correlationId);
    // The card may have been charged: only the order's status can tell, and reconciliation asks it.
    return leaveUnknown(deps, settling, err);
  }
  if (paid.kind === 'submitted') return confirmOutcome(deps, settling, registered.terminal, correlationId);
  if (paid.kind === 'refused') {
    deps.log.info({ attemptId: attempt.attempt_id, reason: paid.message }, 'charge without the buyer refused by the acquirer');
    // The card removed while its charge was under way: the acquirer refused an unbound binding, which is no decline of the card.
    const gone = (await deps.bindings.usable(attempt.merchant_id, attempt.livemode, request.payment_method_id)) === undefined;
    return confirmOutcome(deps, settling, registered.terminal, correlationId, gone ? { code: 'processing_error', message: SAVED_CARD_GONE } : { code: 'card_declined', message: 'The card was declined.' });
  }
  // A 3-D Secure step: the issuer wants the cardholder, who is not there.
  return confirmOutcome(deps, settling, registered.terminal, correlationId, AUTHENTICATION_REQUIRED);
}
