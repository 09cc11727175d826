/**
 * How an order ends. The outcome always comes from the acquirer's order
 * status (getOrderStatusExtended), never from a browser coming back; an
 * order whose status cannot be read stays unresolved (UNKNOWN) for
 * reconciliation (reconcile-orders.ts), which finishes through the same
 * functions. Approved and declined orders emit payment.approved or
 * payment.declined with their final state, in one transaction.
 */
import { idFrom, type PaymentStep, type SavedCard } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import { computeFee, type Pricing } from '@gateway/money';
import { describeError } from '@gateway/observability';
import { AcquirerUnreachable, type OrderBinding, type Terminal } from '../acquirer/acquirer.js';
import type { GiveBack, OrderRow } from '../db/order.repository.js';
import { connectorFor } from './connectors.js';
import { giveBackNow } from './give-back.js';
import type { AdapterDeps } from './deps.js';

/**
 * payment.approved's card_country (INTERFACE 6.2 `payment.card_country`), on
 * every path that announces or answers an approval. The acquirer's protocol
 * (spec/ACQUIRER.md: getOrderStatusExtended answers a masked PAN, no issuer
 * country) tells no card's country, and nothing here maps a BIN to one, so it
 * is never known: an empty string, as DECISIONS D2 writes every card field
 * that has no value, never omitted and never null (another type would break
 * v1, INTERFACE 9.5). Once the protocol carries a country, it goes here.
 */
export const CARD_COUNTRY_UNKNOWN = '';

const WALLET_AMOUNT_DIFFERS = "The wallet reported another amount than this payment's; nothing is recorded as paid, and what the wallet took is given back.";

/** The failure message of a payment that never reached the acquirer. */
export const NEVER_SENT = 'The payment was interrupted before the card was sent; nothing was charged.';

/** The part of an order settling needs. */
export type FinishingOrder = Pick<
  OrderRow,
  | 'attempt_id'
  | 'session_id'
  | 'merchant_id'
  | 'livemode'
  | 'amount'
  | 'card_brand'
  | 'card_last_four'
  | 'acquirer_order_id'
  | 'pricing_percent'
  | 'pricing_fixed'
  | 'capture_method'
  | 'save_customer'
  | 'save_usage'
  | 'payment_method_type'
  | 'order_number'
  | 'wallet_account_id'
>;

/**
 * Asks the acquirer how the order ended and records it. An order still open
 * is unresolved, unless the acquirer refused the step that would have
 * closed it (`refused`): then it never will be, and it is declined so.
 */
export async function confirmOutcome(
  deps: AdapterDeps,
  order: FinishingOrder & { acquirer_order_id: string },
  terminal: Terminal,
  correlationId: string,
  refused?: { code: string; message: string },
): Promise<PaymentStep> {
  let state;
  try {
    state = await connectorFor(deps, order.payment_method_type).status(terminal, { reference: order.acquirer_order_id, orderNumber: order.order_number });
  } catch (err) {
    return leaveUnknown(deps, order, err);
  }
  if (state.kind === 'paid' || state.kind === 'held') return approveAsStated(deps, order, state, correlationId);
  if (state.kind === 'declined') return decline(deps, order, state.failureCode, state.failureMessage, correlationId);
  if (refused && state.kind === 'open') return decline(deps, order, refused.code, refused.message, correlationId);
  // Registered but unpaid, or still in 3-D Secure: no outcome yet.
  return leaveUnknown(deps, order, new AcquirerUnreachable('getOrderStatusExtended.do', `order ${state.kind}`, true));
}

/**
 * Records an order the acquirer reports approved: held for a two-phase order
 * (D22: AUTHORIZED, payment.authorized, no fee yet), paid for any other. A
 * one-phase order held, or a two-phase one deposited before any capture of
 * ours, is never expected: the acquirer's word is recorded as it stands (a
 * hold stays unresolved, a deposit is approved) and an operator must look.
 */
async function approveAsStated(deps: AdapterDeps, order: FinishingOrder, state: { kind: 'paid' | 'held'; amount?: string }, correlationId: string): Promise<PaymentStep> {
  return (await finishApproved(deps, order, state, correlationId)).step;
}

/** approveAsStated, telling whether this call recorded the outcome (for reconciliation). */
export async function finishApproved(deps: AdapterDeps, order: FinishingOrder, state: { kind: 'paid' | 'held'; amount?: string; binding?: OrderBinding }, correlationId: string): Promise<Finished> {
  if (state.amount !== undefined && state.amount !== order.amount) {
    // Never expected; the amount we registered is what we record, and an operator must look.
    deps.log.error({ attemptId: order.attempt_id, acquirerAmount: state.amount, amount: order.amount, state: state.kind }, 'acquirer approved a different amount');
    // D26: a wallet payment of another amount than ours never pays the session; what the wallet took is given back.
    if (order.payment_method_type !== 'card') {
      // What the wallet took is owed back, written with the decline (so a race of verifies owes it once), and given back at once or by the sweep.
      const declined = await declineOrder(deps, order, 'wallet_declined', WALLET_AMOUNT_DIFFERS, correlationId, undefined, { kind: state.kind === 'held' ? 'release' : 'refund', amount: state.amount });
      if (declined.recorded) await giveBackNow(deps, order.attempt_id);
      return declined;
    }
  }
  const twoPhase = order.capture_method === 'manual';
  if (state.kind === 'held' && !twoPhase) {
    deps.log.error({ attemptId: order.attempt_id }, 'acquirer holds a one-phase order; left for an operator');
    return { step: { outcome: 'pending' }, recorded: false };
  }
  if (state.kind === 'paid' && twoPhase) deps.log.error({ attemptId: order.attempt_id }, 'acquirer deposited a two-phase order before any capture; recorded as paid');
  const savedCard = await saveCard(deps, order, state.binding);
  const finished = state.kind === 'held' ? await authorizeOrder(deps, order, correlationId, savedCard) : await approveOrder(deps, order, correlationId, savedCard);
  if (finished.recorded) deps.log.info({ attemptId: order.attempt_id, held: state.kind === 'held' }, 'payment approved');
  return finished;
}

/** Declines the order with `failureCode`, once, and answers the step as it stands. */
export async function decline(deps: AdapterDeps, order: FinishingOrder, failureCode: string, failureMessage: string, correlationId: string): Promise<PaymentStep> {
  const { step } = await declineOrder(deps, order, failureCode, failureMessage, correlationId);
  deps.log.info({ attemptId: order.attempt_id, failureCode }, 'payment declined');
  return step;
}

/** What settling did: the step to answer, and whether this call recorded it (false: the order was already final, nothing emitted). */
export interface Finished {
  step: PaymentStep;
  recorded: boolean;
}

/** The pricing an order's payment is charged: the merchant's own (`fees set`), else the configured default. */
export function pricingOf(order: Pick<FinishingOrder, 'pricing_percent' | 'pricing_fixed'>, defaultPricing: Pricing): Pricing {
  return order.pricing_percent !== null && order.pricing_fixed !== null ? { percent: order.pricing_percent, fixed: order.pricing_fixed } : defaultPricing;
}

/**
 * D24: keeps the binding an approved order made, when its card was to be
 * saved, under a payment method id drawn from the binding (the same card
 * saved again for the customer is the same payment method). Nothing is saved
 * without a binding or a readable expiry: the acquirer did not keep the card.
 */
async function saveCard(deps: AdapterDeps, order: FinishingOrder, binding: OrderBinding | undefined): Promise<SavedCard | undefined> {
  if (!order.save_customer || !order.save_usage) return undefined;
  if (!binding?.expiry) {
    deps.log.warn({ attemptId: order.attempt_id, binding: binding !== undefined }, 'card to be saved, but the acquirer answered no binding with its expiry');
    return undefined;
  }
  const paymentMethodId = idFrom('pm', `${order.merchant_id}|${order.livemode}|${order.save_customer}|${binding.bindingId}`);
  await deps.bindings.save({ paymentMethodId, merchantId: order.merchant_id, livemode: order.livemode, customerId: order.save_customer, bindingId: binding.bindingId });
  return {
    payment_method_id: paymentMethodId,
    customer_id: order.save_customer,
    card_brand: order.card_brand,
    card_last_four: order.card_last_four,
    exp_month: Number(binding.expiry.slice(4, 6)),
    exp_year: Number(binding.expiry.slice(0, 4)),
    usage: order.save_usage,
  };
}

/** Approves the order with its fee and net from the merchant's pricing; payment.approved commits with it. */
export async function approveOrder(deps: AdapterDeps, order: FinishingOrder, correlationId: string, savedCard?: SavedCard): Promise<Finished> {
  const { fee, net } = computeFee(order.amount, pricingOf(order, deps.defaultPricing));
  const event = eventEnvelope(
    'payment.approved',
    {
      ...paymentRef(order),
      amount: order.amount,
      card_country: CARD_COUNTRY_UNKNOWN,
      fee_amount: fee,
      net_amount: net,
      paid_at: deps.clock().toISOString(),
      ...(savedCard && { saved_card: savedCard }),
    },
    correlationId,
  );
  const recorded = await deps.orders.finish(order.attempt_id, order.acquirer_order_id ?? undefined, { status: 'APPROVED', feeAmount: fee, netAmount: net, ...(savedCard && { savedCard }) }, event);
  if (!recorded) return { step: await standing(deps, order), recorded };
  deps.afterCommit();
  return { step: { outcome: 'approved', approved: event.data }, recorded };
}

/** D22: the order's payment is held, not taken: AUTHORIZED with payment.authorized, the fee left for the capture. */
async function authorizeOrder(deps: AdapterDeps, order: FinishingOrder, correlationId: string, savedCard?: SavedCard): Promise<Finished> {
  const event = eventEnvelope(
    'payment.authorized',
    { ...paymentRef(order), amount: order.amount, card_country: CARD_COUNTRY_UNKNOWN, authorized_at: deps.clock().toISOString(), ...(savedCard && { saved_card: savedCard }) },
    correlationId,
  );
  const recorded = await deps.orders.finish(order.attempt_id, order.acquirer_order_id ?? undefined, { status: 'AUTHORIZED', ...(savedCard && { savedCard }) }, event);
  if (!recorded) return { step: await standing(deps, order), recorded };
  deps.afterCommit();
  return { step: { outcome: 'approved', authorized: event.data }, recorded };
}

/**
 * Declines the order; payment.declined commits with it. With
 * `unchangedForSeconds`, only an order left untouched that long is declined:
 * giving up must not overtake a payment that is moving again.
 */
export async function declineOrder(
  deps: AdapterDeps,
  order: FinishingOrder,
  failureCode: string,
  failureMessage: string,
  correlationId: string,
  unchangedForSeconds?: number,
  giveBack?: GiveBack,
): Promise<Finished> {
  const event = eventEnvelope(
    'payment.declined',
    {
      ...paymentRef(order),
      failure_code: failureCode,
      failure_message: failureMessage,
    },
    correlationId,
  );
  const recorded = await deps.orders.finish(
    order.attempt_id,
    order.acquirer_order_id ?? undefined,
    { status: 'DECLINED', failureCode, failureMessage, ...(giveBack && { giveBack }) },
    event,
    unchangedForSeconds,
  );
  if (!recorded) return { step: await standing(deps, order), recorded };
  deps.afterCommit();
  return { step: { outcome: 'declined', failure_code: failureCode, failure_message: failureMessage, declined: event.data }, recorded };
}

/**
 * The step an order stands at when settling it changed nothing: the outcome
 * recorded first (by another step or by reconciliation) is the one answered,
 * never the one this call would have recorded.
 */
async function standing(deps: AdapterDeps, order: FinishingOrder): Promise<PaymentStep> {
  const row = await deps.orders.find(order.attempt_id);
  return row ? finishedStep(row) : { outcome: 'pending' };
}

/**
 * Where an order stands, as a payment step; a final one carries the data its
 * payment.* event carried, so whoever asks can record the outcome from it.
 */
export function finishedStep(order: OrderRow): PaymentStep {
  // A two-phase order's payment step ended with its hold, whatever was done with the hold since.
  if (order.capture_method === 'manual' && (order.status === 'AUTHORIZED' || order.status === 'APPROVED')) {
    return {
      outcome: 'approved',
      authorized: {
        ...paymentRef(order),
        amount: order.amount,
        card_country: CARD_COUNTRY_UNKNOWN,
        authorized_at: order.updated_at.toISOString(),
        ...(order.saved_card && { saved_card: order.saved_card }),
      },
    };
  }
  if (order.status === 'APPROVED') {
    return {
      outcome: 'approved',
      approved: {
        ...paymentRef(order),
        amount: order.amount,
        card_country: CARD_COUNTRY_UNKNOWN,
        fee_amount: order.fee_amount ?? '0.000',
        net_amount: order.net_amount ?? order.amount,
        paid_at: order.updated_at.toISOString(),
        ...(order.saved_card && { saved_card: order.saved_card }),
      },
    };
  }
  if (order.status === 'DECLINED') {
    return {
      outcome: 'declined',
      failure_code: order.failure_code,
      failure_message: order.failure_message,
      declined: { ...paymentRef(order), failure_code: order.failure_code, failure_message: order.failure_message },
    };
  }
  return { outcome: 'pending' };
}

/** What every payment.* event says of the attempt. */
export function paymentRef(order: FinishingOrder) {
  return {
    attempt_id: order.attempt_id,
    session_id: order.session_id,
    merchant_id: order.merchant_id,
    livemode: order.livemode,
    card_brand: order.card_brand,
    card_last_four: order.card_last_four,
    payment_method_type: order.payment_method_type,
  };
}

/** No answer: the attempt stays PROCESSING until reconciliation learns the outcome. */
export async function leaveUnknown(deps: AdapterDeps, order: FinishingOrder, err: unknown): Promise<PaymentStep> {
  await deps.orders.mark(order.attempt_id, 'UNKNOWN', order.acquirer_order_id ?? undefined);
  deps.log.warn({ attemptId: order.attempt_id, err: describeError(err) }, 'payment outcome unknown; left for reconciliation');
  return { outcome: 'pending' };
}
