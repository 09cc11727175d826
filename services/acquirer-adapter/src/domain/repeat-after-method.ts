/**
 * After the 3DS Method (D30): the hosted page says the method frame loaded,
 * or that its 10 s passed, and the card goes to the acquirer again with the
 * 3-D Secure 2 transaction (ACQUIRER.md answer 2). The sealed card the order
 * kept is taken in the statement that claims the order, so a second method
 * return sends nothing; it is opened here, in memory only, for this one repeat.
 */
import { SealedCardError } from '@gateway/card-sealing';
import type { PaymentStep } from '@gateway/contracts';
import type { CardPayment, SavedCardPayment } from '../acquirer/acquirer.js';
import type { OrderRow } from '../db/order.repository.js';
import { SAVED_CARD_GONE } from './authorize-saved-card.js';
import type { AdapterDeps } from './deps.js';
import { decline, finishedStep } from './finish-order.js';
import { sendCard } from './send-card.js';
import { resolveTerminal } from './terminals.js';

/** The card again, once, for a METHOD order; any other order answers where it stands. */
export async function repeatAfterMethod(deps: AdapterDeps, order: OrderRow, completed: boolean, correlationId: string): Promise<PaymentStep> {
  const acquirerOrderId = order.acquirer_order_id;
  const serverTransId = order.three_ds_server_trans_id;
  if (order.status !== 'METHOD' || !acquirerOrderId || !serverTransId) return finishedStep(order);
  const kept = await deps.threeDS.takeForRepeat(order.attempt_id);
  if (!kept) return finishedStep((await deps.orders.find(order.attempt_id)) ?? order);
  deps.log.info({ attemptId: order.attempt_id, methodCompleted: completed }, '3DS Method over; card sent again');
  const sent = { ...order, acquirer_order_id: acquirerOrderId };

  const { repeat } = kept;
  const common = { language: repeat.language, finishUrl: repeat.term_url, ...(repeat.buyer && { buyer: repeat.buyer }), threeDSServerTransId: serverTransId };
  let payment: CardPayment | SavedCardPayment;
  try {
    payment = repeat.payment_method_id === undefined ? { ...common, card: deps.cards.open(kept.sealedCard, order.attempt_id) } : { ...common, binding: await keptBinding(deps, order, repeat.payment_method_id, kept.sealedCard, repeat.buyer?.ip) };
  } catch (err) {
    if (err instanceof SavedCardGone) return decline(deps, sent, 'processing_error', SAVED_CARD_GONE, correlationId);
    if (!(err instanceof SealedCardError)) throw err;
    // The key it was sealed for is gone (rotated meanwhile): the card cannot go again, and nothing was charged without it.
    deps.log.warn({ attemptId: order.attempt_id, reason: err.message }, 'kept card could not be opened');
    return decline(deps, sent, 'processing_error', 'The card details could not be read.', correlationId);
  }
  const resolved = await resolveTerminal(deps, order.merchant_id, order.livemode);
  if (resolved.status !== 'active') return decline(deps, sent, 'processing_error', 'This merchant cannot take card payments at the moment; nothing was charged.', correlationId);
  return sendCard(
    deps,
    {
      order: sent,
      terminal: resolved.terminal,
      payment,
      sealedCard: kept.sealedCard,
      termUrl: repeat.term_url,
      ...(repeat.payment_method_id !== undefined && { paymentMethodId: repeat.payment_method_id }),
    },
    correlationId,
  );
}

/** The saved card was removed while the buyer ran the 3DS Method. */
class SavedCardGone extends Error {}

/** D24: a saved card's binding for the repeat, with the security code the order kept sealed. */
async function keptBinding(deps: AdapterDeps, order: OrderRow, paymentMethodId: string, sealedCode: string, buyerIp: string | undefined): Promise<SavedCardPayment['binding']> {
  const cvc = deps.cards.openCode(sealedCode, order.attempt_id);
  const binding = await deps.bindings.usable(order.merchant_id, order.livemode, paymentMethodId);
  if (!binding) throw new SavedCardGone();
  return { bindingId: binding.bindingId, ip: buyerIp ?? '', tii: 'F', cvc };
}
