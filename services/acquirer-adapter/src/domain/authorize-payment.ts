/**
 * Paying an attempt (DESIGN, a payment end to end, step 3): open the sealed
 * card, record the order before any acquirer call, register a fresh
 * acquirer order (the session's order number plus the attempt number), send
 * the card with the buyer's contact, and hand back the step its answer asks
 * for (send-card.ts): a 3DS Method or a 3-D Secure challenge for the
 * browser, or the outcome confirmed with the acquirer. Nothing is charged
 * twice: the order is keyed on the attempt, and a repeated request only
 * reports where it stands.
 */
import { SealedCardError } from '@gateway/card-sealing';
import type { CommandRequest, PaymentStep } from '@gateway/contracts';
import { findTestCard } from '@gateway/test-cards';
import { AcquirerUnreachable, type CardPayment } from '../acquirer/acquirer.js';
import type { OrderRow } from '../db/order.repository.js';
import { cardBrand, lastFour } from './card.js';
import { decline, finishedStep, type FinishingOrder } from './finish-order.js';
import type { AdapterDeps } from './deps.js';
import { acquirerOrderNumber, newOrder } from './new-order.js';
import { PROCESSOR_UNAVAILABLE, sendCard } from './send-card.js';
import { resolveTerminal } from './terminals.js';

const CANNOT_TAKE_PAYMENTS = 'This merchant cannot take card payments at the moment; nothing was charged.';

/** payment.authorize: pays an attempt with its sealed card, once; a repeat reports where its order stands. */
export async function authorizePayment(deps: AdapterDeps, request: CommandRequest<'payment.authorize'>, correlationId: string): Promise<PaymentStep> {
  const { attempt } = request;
  let card;
  try {
    card = deps.cards.open(request.card, attempt.attempt_id);
  } catch (err) {
    if (!(err instanceof SealedCardError)) throw err;
    deps.log.warn({ attemptId: attempt.attempt_id, reason: err.message }, 'card data refused');
    const order = await recordOrder(deps, request, 'unknown', '');
    return order.fresh ? decline(deps, order.row, 'processing_error', 'The card details could not be read.', correlationId) : finishedStep(order.row);
  }

  const order = await recordOrder(deps, request, cardBrand(card.pan), lastFour(card.pan));
  if (!order.fresh) return finishedStep(order.row);
  const settling: FinishingOrder = order.row;

  if (attempt.livemode && findTestCard(card.pan)) {
    return decline(deps, settling, 'test_card_live_mode', 'Test cards cannot be used for live payments.', correlationId);
  }
  const resolved = await resolveTerminal(deps, attempt.merchant_id, attempt.livemode);
  if (resolved.status !== 'active') {
    deps.log.warn({ attemptId: attempt.attempt_id, terminal: resolved.status }, 'no usable terminal');
    return decline(deps, settling, 'processing_error', CANNOT_TAKE_PAYMENTS, correlationId);
  }
  const terminal = resolved.terminal;

  let registered;
  try {
    registered = await deps.acquirer.register(terminal, {
      orderNumber: acquirerOrderNumber(attempt),
      amount: attempt.amount,
      returnUrl: request.term_url,
      description: attempt.description || attempt.order_number,
      language: request.language ?? 'fr',
      twoPhase: attempt.capture_method === 'manual',
      ...(attempt.save_card && { saveFor: attempt.save_card.customer_id }),
    });
  } catch (err) {
    if (!(err instanceof AcquirerUnreachable)) throw err;
    // No card was sent: whatever the acquirer registered cannot be charged.
    deps.log.warn({ attemptId: attempt.attempt_id, reason: err.reason }, 'register failed');
    return decline(deps, settling, 'processing_error', PROCESSOR_UNAVAILABLE, correlationId);
  }
  if (registered.kind === 'credentials-rejected') {
    await deps.terminals.markRejected(attempt.merchant_id, attempt.livemode, terminal.userName, terminal.password);
    deps.log.error({ merchantId: attempt.merchant_id, livemode: attempt.livemode }, 'acquirer rejected the terminal credentials');
    return decline(deps, settling, 'processing_error', CANNOT_TAKE_PAYMENTS, correlationId);
  }
  if (registered.kind === 'refused') {
    deps.log.warn({ attemptId: attempt.attempt_id, reason: registered.message }, 'register refused');
    return decline(deps, settling, 'processing_error', PROCESSOR_UNAVAILABLE, correlationId);
  }
  if (!(await deps.orders.registered(attempt.attempt_id, registered.orderId))) {
    // Reconciliation gave up on the order meanwhile: the card is not sent.
    return finishedStep((await deps.orders.find(attempt.attempt_id)) ?? order.row);
  }
  const language = request.language ?? 'fr';
  const payment: CardPayment = { card, language, finishUrl: request.term_url, ...(request.buyer && { buyer: request.buyer }) };
  const sending = { order: { ...settling, acquirer_order_id: registered.orderId }, terminal, payment, sealedCard: request.card, termUrl: request.term_url };
  return sendCard(deps, sending, correlationId);
}

async function recordOrder(deps: AdapterDeps, request: CommandRequest<'payment.authorize'>, brand: string, last4: string): Promise<{ fresh: boolean; row: OrderRow }> {
  const { attempt } = request;
  const inserted = await deps.orders.insert(newOrder(attempt, brand, last4));
  if (inserted) return { fresh: true, row: inserted };
  const existing = await deps.orders.find(attempt.attempt_id);
  if (!existing) throw new Error('order vanished after a conflicting insert');
  return { fresh: false, row: existing };
}
