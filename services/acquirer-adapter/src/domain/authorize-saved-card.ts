/**
 * Paying an attempt with a saved card (D24, payment.authorize_saved): the
 * buyer chose one of their saved cards on the hosted page and gave its
 * security code, sealed for this adapter and attempt. The order is recorded
 * before any acquirer call, registered for the card's customer (a binding
 * pays only its client's orders), and paid with the binding
 * (paymentOrderBinding.do, tii F); 3-D Secure then goes as for a typed card
 * (send-card.ts). A repeated request only reports where the order stands.
 */
import { SealedCardError } from '@gateway/card-sealing';
import type { CommandRequest, PaymentStep } from '@gateway/contracts';
import type { SavedCardPayment } from '../acquirer/acquirer.js';
import { recordOrder, registerOrder } from './authorize-payment.js';
import type { AdapterDeps } from './deps.js';
import { decline, finishedStep } from './finish-order.js';
import { sendCard } from './send-card.js';

/** The failure of a saved card the adapter holds no usable binding for (removed meanwhile). */
export const SAVED_CARD_GONE = 'This saved card can no longer be used; nothing was charged.';

/** payment.authorize_saved: pays the attempt with the saved card, once; a repeat reports where its order stands. */
export async function authorizeSavedCard(deps: AdapterDeps, request: CommandRequest<'payment.authorize_saved'>, correlationId: string): Promise<PaymentStep> {
  const { attempt } = request;
  const order = await recordOrder(deps, attempt, request.card_brand, request.card_last_four);
  if (!order.fresh) return finishedStep(order.row);
  let cvc: string;
  try {
    cvc = deps.cards.openCode(request.code, attempt.attempt_id);
  } catch (err) {
    if (!(err instanceof SealedCardError)) throw err;
    deps.log.warn({ attemptId: attempt.attempt_id, reason: err.message }, 'security code refused');
    return decline(deps, order.row, 'processing_error', 'The card details could not be read.', correlationId);
  }
  const binding = await deps.bindings.usable(attempt.merchant_id, attempt.livemode, request.payment_method_id);
  if (!binding) return decline(deps, order.row, 'processing_error', SAVED_CARD_GONE, correlationId);
  const language = request.language ?? 'fr';
  const registered = await registerOrder(
    deps,
    order.row,
    { returnUrl: request.term_url, language, description: attempt.description || attempt.order_number, clientId: binding.customerId },
    correlationId,
  );
  if (!registered.ok) return registered.step;
  const payment: SavedCardPayment = {
    binding: { bindingId: binding.bindingId, ip: request.buyer?.ip ?? '', tii: 'F', cvc },
    language,
    finishUrl: request.term_url,
    ...(request.buyer && { buyer: request.buyer }),
  };
  const sending = { ...order.row, acquirer_order_id: registered.orderId };
  return sendCard(deps, { order: sending, terminal: registered.terminal, payment, sealedCard: request.code, termUrl: request.term_url, paymentMethodId: request.payment_method_id }, correlationId);
}
