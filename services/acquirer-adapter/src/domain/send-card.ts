/**
 * Sending the card to the acquirer and taking the step its answer asks for
 * (ACQUIRER.md, paymentorder.do's four answers): a 3-D Secure 1 or 2
 * challenge goes to the buyer's browser as a form to post; 3-D Secure 2's
 * first step either waits for the buyer's 3DS Method (the sealed card kept
 * until the repeat: METHOD) or sends the card again at once with its
 * transaction; anything else is confirmed with the order's status. The
 * repeat's own answer may only be a challenge or an end: a second first step,
 * or anything unreadable, sends nothing more and the status decides.
 */
import type { BrowserForm, PaymentStep } from '@gateway/contracts';
import { AcquirerUnreachable, type CardPayment, type PayResult, type SavedCardPayment, type Terminal } from '../acquirer/acquirer.js';
import type { AdapterDeps } from './deps.js';
import { confirmOutcome, decline, finishedStep, leaveUnknown, type FinishingOrder } from './finish-order.js';

export const PROCESSOR_UNAVAILABLE = 'The card processor is unavailable; nothing was charged. Please try again.';

/** A card on its way to a registered order: typed, or saved (D24). */
export interface CardSending {
  order: FinishingOrder & { acquirer_order_id: string };
  terminal: Terminal;
  payment: CardPayment | SavedCardPayment;
  /** The card (a saved card's security code) as it came, sealed for the adapter and this attempt: what a METHOD order keeps. */
  sealedCard: string;
  /** This attempt's address on the hosted page (3-D Secure 1's TermUrl). */
  termUrl: string;
  /** D24: the saved card paid with, kept with a METHOD order for its repeat. */
  paymentMethodId?: string;
}

/** Sends the card (again, when the payment names its 3-D Secure 2 transaction) and takes the step its answer asks for. */
export async function sendCard(deps: AdapterDeps, sending: CardSending, correlationId: string): Promise<PaymentStep> {
  let paid: PayResult;
  try {
    const { payment } = sending;
    paid =
      'card' in payment
        ? await deps.acquirer.pay(sending.terminal, sending.order.acquirer_order_id, payment)
        : await deps.acquirer.payWithBinding(sending.terminal, sending.order.acquirer_order_id, payment);
  } catch (err) {
    if (err instanceof AcquirerUnreachable && !err.maybeDelivered) return decline(deps, sending.order, 'processing_error', PROCESSOR_UNAVAILABLE, correlationId);
    // The card may have been charged: only the acquirer's order status can tell.
    return leaveUnknown(deps, sending.order, err);
  }
  return nextStep(deps, sending, paid, correlationId);
}

async function nextStep(deps: AdapterDeps, sending: CardSending, paid: PayResult, correlationId: string): Promise<PaymentStep> {
  const { order, terminal, payment } = sending;
  const repeated = payment.threeDSServerTransId !== undefined;
  switch (paid.kind) {
    case 'challenge': {
      await deps.orders.mark(order.attempt_id, 'CHALLENGED', order.acquirer_order_id, { returns: 'pa_res' });
      // Ours is the TermUrl, whatever termUrl the acquirer answered (ACQUIRER.md).
      const challenge: BrowserForm = { url: paid.acsUrl, fields: { PaReq: paid.paReq, MD: order.attempt_id, TermUrl: sending.termUrl } };
      return { outcome: 'challenge', challenge };
    }
    case 'challenge2': {
      await deps.orders.mark(order.attempt_id, 'CHALLENGED', order.acquirer_order_id, { returns: 'cres', serverTransId: paid.serverTransId ?? payment.threeDSServerTransId });
      const challenge: BrowserForm = { url: paid.acsUrl, fields: { creq: paid.creq } };
      return { outcome: 'challenge', challenge };
    }
    case 'method':
      if (repeated) return unexpectedStep(deps, sending, correlationId);
      return awaitMethod(deps, sending, paid);
    case 'repeat':
      if (repeated) return unexpectedStep(deps, sending, correlationId);
      return sendCard(deps, { ...sending, payment: { ...payment, threeDSServerTransId: paid.serverTransId } }, correlationId);
    case 'refused':
      deps.log.info({ attemptId: order.attempt_id, reason: paid.message }, 'payment refused by the acquirer');
      return confirmOutcome(deps, order, terminal, correlationId, { code: 'card_declined', message: 'The card was declined.' });
    case 'submitted':
      return confirmOutcome(deps, order, terminal, correlationId);
    default:
      return unreachable(paid);
  }
}

/** Keeps the sealed card for the repeat and has the browser run the 3DS Method. */
async function awaitMethod(deps: AdapterDeps, sending: CardSending, paid: Extract<PayResult, { kind: 'method' }>): Promise<PaymentStep> {
  const { order, payment } = sending;
  const kept = await deps.threeDS.awaitMethod(order.attempt_id, {
    acquirerOrderId: order.acquirer_order_id,
    serverTransId: paid.serverTransId,
    sealedCard: sending.sealedCard,
    repeat: {
      term_url: sending.termUrl,
      language: payment.language,
      ...(payment.buyer && { buyer: payment.buyer }),
      ...(sending.paymentMethodId !== undefined && { payment_method_id: sending.paymentMethodId }),
    },
  });
  if (!kept) {
    // Reconciliation gave up on it meanwhile: nothing is kept, and the browser has nothing to run.
    const row = await deps.orders.find(order.attempt_id);
    return row ? finishedStep(row) : { outcome: 'pending' };
  }
  const method: BrowserForm = { url: paid.url, fields: { threeDSMethodData: paid.data } };
  return { outcome: 'method', method };
}

/** The repeat answered a step only a first answer gives: the card is not sent a third time, and the status decides. */
function unexpectedStep(deps: AdapterDeps, sending: CardSending, correlationId: string): Promise<PaymentStep> {
  deps.log.warn({ attemptId: sending.order.attempt_id }, '3-D Secure 2 repeat answered another first step; left to the order status');
  return confirmOutcome(deps, sending.order, sending.terminal, correlationId);
}

function unreachable(paid: never): never {
  throw new Error(`unknown payment answer ${JSON.stringify(paid)}`);
}
