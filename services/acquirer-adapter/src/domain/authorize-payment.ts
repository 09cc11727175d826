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
import type { CommandRequest, PaymentMethodType, PaymentStep, StartedAttempt } from '@gateway/contracts';
import { findTestCard } from '@gateway/test-cards';
import { AcquirerUnreachable, type CardPayment, type OrderRequest, type Terminal } from '../acquirer/acquirer.js';
import type { OrderRow } from '../db/order.repository.js';
import { cardBrand, lastFour } from './card.js';
import { decline, finishedStep } from './finish-order.js';
import type { AdapterDeps } from './deps.js';
import { newOrder } from './new-order.js';
import { PROCESSOR_UNAVAILABLE, sendCard } from './send-card.js';
import { eventEnvelope } from '@gateway/messaging';
import { connectorFor, resolveAccount, type ResolvedAccount } from './connectors.js';

/** What the buyer is told when the merchant's account cannot take a payment made so, or the connector could not be reached. */
const CANNOT_TAKE: Readonly<Record<PaymentMethodType, string>> = {
  card: 'This merchant cannot take card payments at the moment; nothing was charged.',
  flouci: 'This merchant cannot take Flouci payments at the moment; nothing was charged.',
};
const UNAVAILABLE: Readonly<Record<PaymentMethodType, string>> = { card: PROCESSOR_UNAVAILABLE, flouci: 'Flouci is unavailable; nothing was charged. Please try again.' };

/** payment.authorize: pays an attempt with its sealed card, once; a repeat reports where its order stands. */
export async function authorizePayment(deps: AdapterDeps, request: CommandRequest<'payment.authorize'>, correlationId: string): Promise<PaymentStep> {
  const { attempt } = request;
  let card;
  try {
    card = deps.cards.open(request.card, attempt.attempt_id);
  } catch (err) {
    if (!(err instanceof SealedCardError)) throw err;
    deps.log.warn({ attemptId: attempt.attempt_id, reason: err.message }, 'card data refused');
    const order = await recordOrder(deps, attempt, 'unknown', '');
    return order.fresh ? decline(deps, order.row, 'processing_error', 'The card details could not be read.', correlationId) : finishedStep(order.row);
  }

  const order = await recordOrder(deps, attempt, cardBrand(card.pan), lastFour(card.pan));
  if (!order.fresh) return finishedStep(order.row);
  const settling = order.row;

  if (attempt.livemode && findTestCard(card.pan)) {
    return decline(deps, settling, 'test_card_live_mode', 'Test cards cannot be used for live payments.', correlationId);
  }
  const language = request.language ?? 'fr';
  const registered = await registerOrder(
    deps,
    settling,
    {
      returnUrl: request.term_url,
      language,
      description: attempt.description || attempt.order_number,
      ...(attempt.save_card && { clientId: attempt.save_card.customer_id, saveCard: true }),
    },
    correlationId,
  );
  if (!registered.ok) return registered.step;
  const payment: CardPayment = { card, language, finishUrl: request.term_url, ...(request.buyer && { buyer: request.buyer }) };
  const sending = { order: { ...settling, acquirer_order_id: registered.orderId }, terminal: registered.terminal, payment, sealedCard: request.card, termUrl: request.term_url };
  return sendCard(deps, sending, correlationId);
}

/** What an order is registered with beside the attempt's own number, amount and description. */
type Registration = Pick<OrderRequest, 'returnUrl' | 'language' | 'description' | 'clientId' | 'saveCard' | 'wallet'>;

/**
 * Starts the attempt's payment at its connector, on the merchant's account
 * (a card order at its terminal, a wallet payment with its application, D26;
 * two-phase for a manual session, D22); the account, the connector's
 * reference and, for a wallet, the page the buyer is sent to; or the step
 * that ends the attempt when none could be started (nothing was sent that
 * can charge the buyer).
 */
export async function registerOrder(
  deps: AdapterDeps,
  settling: OrderRow,
  registration: Registration,
  correlationId: string,
): Promise<{ ok: true; terminal: Terminal; orderId: string; redirectUrl?: string } | { ok: false; step: PaymentStep }> {
  const resolved = await resolveAccount(deps, settling.payment_method_type, settling.merchant_id, settling.livemode);
  if (resolved.status !== 'active') {
    deps.log.warn({ attemptId: settling.attempt_id, terminal: resolved.status }, 'no usable terminal');
    return { ok: false, step: await decline(deps, settling, 'processing_error', CANNOT_TAKE[settling.payment_method_type], correlationId) };
  }
  const terminal = resolved.terminal;
  let registered;
  try {
    registered = await connectorFor(deps, settling.payment_method_type).start(terminal, {
      orderNumber: settling.order_number,
      amount: settling.amount,
      twoPhase: settling.capture_method === 'manual',
      ...registration,
    });
  } catch (err) {
    if (!(err instanceof AcquirerUnreachable)) throw err;
    // No card was sent: whatever the acquirer registered cannot be charged.
    deps.log.warn({ attemptId: settling.attempt_id, reason: err.reason }, 'register failed');
    return { ok: false, step: await decline(deps, settling, 'processing_error', UNAVAILABLE[settling.payment_method_type], correlationId) };
  }
  if (registered.kind === 'credentials-rejected') {
    await markRejected(deps, settling, resolved, correlationId);
    deps.log.error({ merchantId: settling.merchant_id, livemode: settling.livemode, method: settling.payment_method_type }, 'acquirer rejected the terminal credentials');
    return { ok: false, step: await decline(deps, settling, 'processing_error', CANNOT_TAKE[settling.payment_method_type], correlationId) };
  }
  if (registered.kind === 'refused') {
    deps.log.warn({ attemptId: settling.attempt_id, reason: registered.message }, 'register refused');
    return { ok: false, step: await decline(deps, settling, 'processing_error', UNAVAILABLE[settling.payment_method_type], correlationId) };
  }
  if (!(await deps.orders.registered(settling.attempt_id, registered.orderId, resolved.walletAccountId))) {
    // Reconciliation gave up on the order meanwhile: the card is not sent.
    return { ok: false, step: finishedStep((await deps.orders.find(settling.attempt_id)) ?? settling) };
  }
  return { ok: true, terminal, orderId: registered.orderId, ...(registered.redirectUrl !== undefined && { redirectUrl: registered.redirectUrl }) };
}

/**
 * Credentials the connector refused take no more payments: a card terminal is
 * marked refused (an operator sets it again); a merchant's Flouci application
 * too, and the page stops offering Flouci (wallet.connected) until an owner
 * saves keys again. The sandbox's are never marked.
 */
async function markRejected(deps: AdapterDeps, settling: OrderRow, resolved: ResolvedAccount & { status: 'active' }, correlationId: string): Promise<void> {
  if (settling.payment_method_type === 'card') {
    await deps.terminals.markRejected(settling.merchant_id, settling.livemode, resolved.terminal.userName, resolved.terminal.password);
    return;
  }
  if (resolved.walletAccountId === undefined) return;
  const announce = () => eventEnvelope('wallet.connected', { merchant_id: settling.merchant_id, livemode: true, connected: false }, correlationId, deps.clock());
  if (await deps.walletAccounts.markRejected(resolved.walletAccountId, announce)) deps.afterCommit();
}

/** The attempt's order, recorded before anything is sent to the acquirer; `fresh` when this call recorded it. */
export async function recordOrder(deps: AdapterDeps, attempt: StartedAttempt, brand: string, last4: string, method: PaymentMethodType = 'card'): Promise<{ fresh: boolean; row: OrderRow }> {
  const inserted = await deps.orders.insert(newOrder(attempt, brand, last4, method));
  if (inserted) return { fresh: true, row: inserted };
  const existing = await deps.orders.find(attempt.attempt_id);
  if (!existing) throw new Error('order vanished after a conflicting insert');
  return { fresh: false, row: existing };
}
