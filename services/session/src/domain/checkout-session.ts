/**
 * The session as the hosted page works with it: what the page shows, the
 * buyer's cancel, and paying (INTERFACE 3.1: CREATED or PENDING to
 * PROCESSING, one attempt at a time; then the acquirer adapter's answer).
 * The buyer is authorised by the signed checkout link the checkout service
 * verified; the session checks that the checkout link is one it issued.
 */
import type { BuyerContact, CheckoutStep, CheckoutView, CommandRequest, Language, PaymentMethodType, PaymentStep, StartedAttempt } from '@gateway/contracts';
import { RpcTimeoutError } from '@gateway/messaging';
import { describeError } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import { cancelOpenSession } from './cancel-session.js';
import { applyPaymentStep } from './payment-outcome.js';
import { cardExpired } from './customers.js';
import { effectiveStatus, type SessionRow } from './session.js';
import type { SessionDeps } from './deps.js';

/** A checkout link as the checkout service names it: its session, and its own id. */
export interface CheckoutLinkRef {
  session_id: string;
  link_id: string;
}

const UNKNOWN_CHECKOUT_LINK = 'No session issued this link.';

/** The session as the hosted page shows it, for a checkout link the session issued. */
export async function viewForCheckout(deps: SessionDeps, ref: CheckoutLinkRef): Promise<CheckoutView> {
  const found = await deps.sessions.findForCheckout(ref.session_id, ref.link_id);
  if (!found?.checkoutLinkKnown) throw new AppError('not-found', UNKNOWN_CHECKOUT_LINK);
  const now = deps.clock();
  const view: CheckoutView = { ...toCheckoutView(found.row, now), merchant_suspended: found.merchantSuspended };
  if (offersWallet(found.row, found.flouciLive)) view.wallets = ['flouci'];
  // D24: a customer's unexpired saved cards are offered on the page (read only for a session with a customer); a deleted customer's session saves and offers none.
  const customerId = found.row.customer_id;
  if (customerId !== null && !(await deps.customers.find({ merchantId: found.row.merchant_id, livemode: found.row.livemode }, customerId))) {
    delete view.save_card;
  } else if (customerId !== null) {
    const cards = (await deps.customers.paymentMethods([customerId])).get(customerId) ?? [];
    view.saved_cards = cards
      .filter((card) => !cardExpired(card, now))
      .map((card) => ({ id: card.id, card_brand: card.card_brand, card_last_four: card.card_last_four, exp_month: card.exp_month, exp_year: card.exp_year }));
  }
  return view;
}

/** The buyer's "Cancel payment": as a merchant cancel, open sessions only. */
export async function cancelForBuyer(deps: SessionDeps, ref: CheckoutLinkRef, correlationId: string): Promise<CheckoutView> {
  const found = await deps.sessions.findForCheckout(ref.session_id, ref.link_id);
  if (!found?.checkoutLinkKnown) throw new AppError('not-found', UNKNOWN_CHECKOUT_LINK);
  const now = deps.clock();
  return toCheckoutView(await cancelOpenSession(deps, ref.session_id, correlationId, now), now);
}

/**
 * Starts the attempt and has the adapter pay it. The adapter's answer
 * carries the outcome it committed, which is recorded here at once and
 * answered with the session as it now stands; the adapter's event records
 * the same outcome if this answer is lost.
 */
export async function payAttempt(deps: SessionDeps, request: CommandRequest<'attempt.pay'>, correlationId: string): Promise<CheckoutStep> {
  if (request.saved_card) return payWithSavedCard(deps, request, request.saved_card, correlationId);
  const { card } = request;
  if (card === undefined) throw new AppError('validation-error', 'A payment needs a card.');
  const started = await startAttempt(deps, request, request.attempt_id, request.language);
  // A card is saved only for a customer that is still there (D24): a deleted one's would stay bound at the acquirer for nobody.
  const asked = started.save_card === 'off_session' || (started.save_card === 'on_session' && request.save_card === true);
  const saving = asked && started.customer_id !== null && (await deps.customers.find({ merchantId: started.merchant_id, livemode: started.livemode }, started.customer_id)) !== undefined;
  return adapterStep(deps, correlationId, request, started, () =>
    deps.adapter.call(
      'payment.authorize',
      { attempt: attemptOf(started, request.attempt_id, saving), card, term_url: request.term_url, buyer: buyerOf(started, request.buyer_ip), language: request.language },
      { timeoutMs: deps.adapterTimeoutMs, correlationId },
    ),
  );
}

/**
 * D24: the buyer pays with one of the session's customer's saved cards, by
 * its security code: the card must be the customer's, attached and
 * unexpired, before any attempt starts; the adapter pays with its binding.
 */
async function payWithSavedCard(
  deps: SessionDeps,
  request: CommandRequest<'attempt.pay'>,
  saved: { payment_method: string; code: string },
  correlationId: string,
): Promise<CheckoutStep> {
  const found = await deps.sessions.findForCheckout(request.session_id, request.link_id);
  if (!found?.checkoutLinkKnown) throw new AppError('not-found', UNKNOWN_CHECKOUT_LINK);
  const card = found.row.customer_id === null ? undefined : await deps.customers.paymentMethod(found.row.customer_id, saved.payment_method);
  // Removed, expired or not the customer's: the page shows the session again (its cards as they now are), never "expired".
  if (!card || cardExpired(card, deps.clock())) throw new AppError('validation-error', 'This saved card cannot pay this session.');
  const started = await startAttempt(deps, request, request.attempt_id, request.language);
  return adapterStep(deps, correlationId, request, started, () =>
    deps.adapter.call(
      'payment.authorize_saved',
      {
        attempt: attemptOf(started, request.attempt_id, false),
        payment_method_id: card.id,
        card_brand: card.card_brand,
        card_last_four: card.card_last_four,
        code: saved.code,
        term_url: request.term_url,
        buyer: buyerOf(started, request.buyer_ip),
        language: request.language,
      },
      { timeoutMs: deps.adapterTimeoutMs, correlationId },
    ),
  );
}

/**
 * D26: the buyer pressed "Pay with Flouci": an attempt starts (a wallet
 * attempt, payment_method_type flouci) and the adapter starts the wallet's
 * payment, answered with the wallet's page the buyer is sent to; nothing is
 * recorded until the wallet's word comes (finishWalletPayment, the notice, or
 * the sweep).
 */
export async function payWithWallet(deps: SessionDeps, request: CommandRequest<'attempt.pay_wallet'>, correlationId: string): Promise<CheckoutStep> {
  const found = await deps.sessions.findForCheckout(request.session_id, request.link_id);
  if (!found?.checkoutLinkKnown) throw new AppError('not-found', UNKNOWN_CHECKOUT_LINK);
  // Only a wallet the page offers starts an attempt: a live merchant without Flouci keys spends none of the buyer's attempts.
  if (!offersWallet(found.row, found.flouciLive)) throw new AppError('validation-error', 'Flouci is not offered for this session.');
  const started = await startAttempt(deps, request, request.attempt_id, request.language, request.wallet);
  return adapterStep(deps, correlationId, request, started, () =>
    deps.adapter.call(
      'payment.start_wallet',
      { attempt: attemptOf(started, request.attempt_id, false), wallet: request.wallet, return_url: request.return_url, webhook_url: request.webhook_url, language: request.language },
      { timeoutMs: deps.adapterTimeoutMs, correlationId },
    ),
  );
}

/** D26: the buyer is back from the wallet's page: the adapter verifies the payment with the wallet; its outcome is recorded as above. */
export async function finishWalletPayment(deps: SessionDeps, request: CommandRequest<'attempt.finish_wallet'>, correlationId: string): Promise<CheckoutStep> {
  const found = await deps.sessions.findForCheckout(request.session_id, request.link_id);
  if (!found?.checkoutLinkKnown) throw new AppError('not-found', UNKNOWN_CHECKOUT_LINK);
  return adapterStep(deps, correlationId, request, found.row, () =>
    deps.adapter.call('payment.verify', { attempt_id: request.attempt_id, session_id: request.session_id }, { timeoutMs: deps.adapterTimeoutMs, correlationId }),
  );
}

/** The buyer is back from 3-D Secure: the adapter finishes the payment; its outcome is recorded as above. */
export async function payAfterChallenge(deps: SessionDeps, request: CommandRequest<'attempt.finish_3ds'>, correlationId: string): Promise<CheckoutStep> {
  const found = await deps.sessions.findForCheckout(request.session_id, request.link_id);
  if (!found?.checkoutLinkKnown) throw new AppError('not-found', UNKNOWN_CHECKOUT_LINK);
  return adapterStep(deps, correlationId, request, found.row, () =>
    deps.adapter.call(
      'payment.finish_3ds',
      { session_id: request.session_id, attempt_id: request.attempt_id, returned: request.returned },
      { timeoutMs: deps.adapterTimeoutMs, correlationId },
    ),
  );
}

/**
 * Runs the adapter's step for `session` (its row as the attempt left it) and
 * applies the outcome it answers; answered with the session as it now stands
 * when the step ended it, also when the adapter's event applied the outcome
 * first, so the page shows the end at once.
 */
export async function adapterStep(deps: SessionDeps, correlationId: string, ref: CheckoutLinkRef & { attempt_id: string }, session: SessionRow, call: () => Promise<{ body: PaymentStep }>): Promise<CheckoutStep> {
  // Its outcome is recorded here; the event announcing the same outcome, should it come to this process meanwhile, waits for that.
  return deps.underway.run(ref.attempt_id, () => recordStep(deps, correlationId, ref, session, call), outcomeRecorded);
}

/** Whether a step's answer reports the attempt's outcome recorded: it carries the session as it then stood (not a 3-D Secure form, not an answer that did not come). */
export function outcomeRecorded(answer: CheckoutStep): boolean {
  return answer.session !== undefined;
}

async function recordStep(deps: SessionDeps, correlationId: string, ref: CheckoutLinkRef, session: SessionRow, call: () => Promise<{ body: PaymentStep }>): Promise<CheckoutStep> {
  let step: PaymentStep;
  try {
    step = (await call()).body;
  } catch (err) {
    // No answer in time: the outcome is unknown, and the adapter's event (or reconciliation) will tell.
    if (!(err instanceof RpcTimeoutError)) throw err;
    deps.log.warn({ err: describeError(err) }, 'payment step unanswered in time; the attempt stays PROCESSING');
    return { outcome: 'pending' };
  }
  const now = deps.clock();
  const moved = await applyPaymentStep(deps.outcomes, 'reply', step, { correlationId, at: now, session });
  if (moved) {
    deps.afterCommit();
    return { ...step, session: toCheckoutView(moved, now) };
  }
  if (!step.approved && !step.declined) return step;
  // The outcome was applied already, by its event: the session as it stands.
  const current = await deps.sessions.findForCheckout(ref.session_id, ref.link_id);
  return current ? { ...step, session: toCheckoutView(current.row, now) } : step;
}

/** The session's row once the attempt started (PROCESSING), or the reason none could. */
async function startAttempt(deps: SessionDeps, ref: CheckoutLinkRef, attemptId: string, pageLanguage: Language, method: PaymentMethodType = 'card'): Promise<SessionRow> {
  const now = deps.clock();
  const started = await deps.attempts.start(ref.session_id, ref.link_id, attemptId, now, pageLanguage, method);
  if (started) return started;
  // Nothing started: say why.
  const found = await deps.sessions.findForCheckout(ref.session_id, ref.link_id);
  if (!found?.checkoutLinkKnown) throw new AppError('not-found', UNKNOWN_CHECKOUT_LINK);
  throw refusalToStart(found.row, now, found.merchantSuspended);
}

/** Why no attempt could start on a session the checkout link is known for: its merchant suspended (403), one already running (409 conflict), or none can any more. */
export function refusalToStart(row: SessionRow, now: Date, merchantSuspended = false): AppError {
  const status = effectiveStatus(row, now);
  if (merchantSuspended && (status === 'CREATED' || status === 'PENDING')) return new AppError('forbidden', 'This merchant account is suspended: it takes no payment.');
  if (status === 'PROCESSING') return new AppError('conflict', 'A payment attempt for this session is already in progress.');
  return new AppError('session-terminal', `The session is ${status}.`);
}

/** The buyer as the acquirer asks to know them with the card (D30): the page's view of their address, and the session's email and phone, when known. */
function buyerOf(session: SessionRow, ip: string | undefined): BuyerContact {
  return { ...(ip && { ip }), ...(session.buyer_email && { email: session.buyer_email }), ...(session.buyer_phone && { phone: session.buyer_phone }) };
}

/**
 * The attempt as the adapter is told of it. D24: `save` when its card is to be
 * saved for the session's customer, for the use the session names.
 */
export function attemptOf(session: SessionRow, attemptId: string, save: boolean): StartedAttempt {
  const usage = save && session.save_card !== 'off' ? session.save_card : undefined;
  return {
    attempt_id: attemptId,
    attempt_number: session.attempts_count,
    session_id: session.id,
    merchant_id: session.merchant_id,
    livemode: session.livemode,
    order_number: session.order_number,
    amount: session.amount,
    description: session.description,
    capture_method: session.capture_method,
    ...(usage && session.customer_id && { save_card: { customer_id: session.customer_id, usage } }),
  };
}

function toCheckoutView(row: SessionRow, now: Date): CheckoutView {
  return {
    session_id: row.id,
    status: effectiveStatus(row, now),
    merchant_id: row.merchant_id,
    merchant_name: row.merchant_name,
    livemode: row.livemode,
    order_number: row.order_number,
    amount: row.amount,
    original: { amount: row.original_amount, currency: row.original_currency, rate: row.rate },
    description: row.description,
    items: row.items,
    return_url: row.return_url,
    cancel_url: row.cancel_url,
    max_attempts: row.max_attempts,
    attempts_count: row.attempts_count,
    last_failure_code: row.last_failure_code,
    last_failure_message: row.last_failure_message,
    locale: row.locale,
    ...(row.customer_id && row.save_card !== 'off' && { save_card: row.save_card }),
  };
}

/**
 * D26: whether the page offers "Pay with Flouci": in test mode always (the
 * sandbox's Flouci), in live mode once the merchant saved its Flouci keys;
 * never to a session that is to save the buyer's card for the merchant's
 * later charges (a wallet payment saves no card).
 */
function offersWallet(row: SessionRow, flouciLive: boolean): boolean {
  if (row.customer_id && row.save_card === 'off_session') return false;
  return !row.livemode || flouciLive;
}
