/**
 * The buyer's way through the hosted page (D9), one function per step: the
 * page, paying, the result, canceling. Each decides what the buyer is shown
 * next (domain/page-answers); the HTTP layer renders it. The return from
 * 3-D Secure is domain/three-d-secure; paying with a wallet, domain/wallet-flow.
 */
import type { Card } from '@gateway/card-sealing';
import { newId, type CheckoutView } from '@gateway/contracts';
import type { Language } from '@gateway/i18n';
import { AppError } from '@gateway/problem';
import { checkCardForm } from './card-form.js';
import { buyerLanguage, closedAnswer, expired, expiredIn, formLanguage, toResult, withSessionId, type Answer, type PaymentPage } from './page-answers.js';
import { afterPaymentStep, startAttempt, viewOf, type FlowDeps } from './payment-steps.js';

const PROCESSING_REFRESH_SECONDS = 2;

/** The page for a checkout link: the form while the session is payable, else where it stands. */
export async function showPage(deps: FlowDeps, token: string, acceptLanguage?: string): Promise<Answer> {
  const link = deps.checkoutLinks.verify(token, deps.clock());
  if (!link) return expired(acceptLanguage, 'expired');
  const view = await viewOf(deps, link);
  if (!view) return expired(acceptLanguage, 'expired');
  const language = buyerLanguage(view.locale, acceptLanguage);
  switch (view.status) {
    case 'CREATED':
    case 'PENDING':
      return payable(token, view, language);
    case 'PROCESSING':
      return processing(deps, token, view, language);
    // For the buyer a held payment (D22: AUTHORIZED, the merchant captures later) is paid.
    case 'AUTHORIZED':
    case 'SUCCEEDED':
      return expiredIn(language, 'paid');
    case 'EXPIRED':
      return expiredIn(language, 'expired');
    default:
      return expiredIn(language, 'closed');
  }
}

/**
 * The card form was submitted: check it, start an attempt, pay it. `buyerIp`:
 * the buyer's address as the page saw it, which the acquirer asks for (D30).
 */
export async function pay(deps: FlowDeps, token: string, form: Record<string, unknown>, acceptLanguage?: string, buyerIp?: string): Promise<Answer> {
  const verified = deps.checkoutLinks.verifyWithPaymentLink(token, deps.clock());
  if (!verified) return expired(acceptLanguage, 'expired');
  const link = verified.ref;
  const check = checkPaymentForm(form, deps.clock());
  if (!check.ok) {
    const view = await viewOf(deps, link);
    if (!view) return expired(acceptLanguage, 'expired');
    if (view.status !== 'CREATED' && view.status !== 'PENDING') return toResult(token);
    if (view.merchant_suspended) return { page: 'unavailable', language: buyerLanguage(view.locale, acceptLanguage) };
    return { ...paymentPage(token, view, buyerLanguage(view.locale, acceptLanguage)), ...check.refused };
  }

  // The card (or a saved card's security code, D24) is sealed for this attempt alone, so the page names the attempt.
  const attemptId = newId('pa');
  const language = formLanguage(form, acceptLanguage);
  const paying = 'card' in check ? { card: deps.cards.seal(check.card, attemptId) } : { saved_card: { payment_method: check.paymentMethod, code: deps.cards.sealCode(check.cvc, attemptId) } };
  const start = { link, paymentLink: verified.paymentLink, token, attemptId, language, acceptLanguage };
  // The attempt's own address takes the bank's answer (POST) and the acquirer's return (GET).
  const termUrl = `${pageUrl(deps, token)}/3ds/${attemptId}`;
  const started = await startAttempt(deps, start, () =>
    deps.call(
      'attempt.pay',
      { ...link, attempt_id: attemptId, ...paying, term_url: termUrl, language, ...(buyerIp !== undefined && { buyer_ip: buyerIp }), ...(form.save_card === 'yes' && { save_card: true }) },
      deps.paymentTimeoutMs,
    ),
  );
  return 'answer' in started ? started.answer : afterPaymentStep(deps, start, started.step);
}

/** Where the buyer lands after a payment step. */
export async function showResult(deps: FlowDeps, token: string, acceptLanguage?: string): Promise<Answer> {
  const link = deps.checkoutLinks.verify(token, deps.clock(), deps.paymentReturnGraceSeconds);
  if (!link) return expired(acceptLanguage, 'expired');
  // The session recorded any outcome before answering the payment step; one
  // still PROCESSING awaits the acquirer, and the processing page looks again.
  const view = await viewOf(deps, link);
  if (!view) return expired(acceptLanguage, 'expired');
  const language = buyerLanguage(view.locale, acceptLanguage);
  const closed = closedAnswer(view, language);
  if (closed) return closed;
  return view.status === 'PROCESSING' ? processing(deps, token, view, language) : payable(token, view, language);
}

/** An open session: the card form, unless its merchant is suspended (the session service would refuse the payment). */
function payable(token: string, view: CheckoutView, language: Language): Answer {
  return view.merchant_suspended ? { page: 'unavailable', language } : paymentPage(token, view, language);
}

/** "Cancel payment": cancels the session and goes to the merchant's cancel_url. */
export async function cancelPayment(deps: FlowDeps, token: string, acceptLanguage?: string): Promise<Answer> {
  const link = deps.checkoutLinks.verify(token, deps.clock());
  if (!link) return expired(acceptLanguage, 'expired');
  let view: CheckoutView;
  try {
    view = await deps.call('checkout.cancel', link);
  } catch (err) {
    if (err instanceof AppError) return err.code === 'not-found' ? expired(acceptLanguage, 'expired') : toResult(token);
    throw err;
  }
  // A link click, not a form post: an HTTP redirect may leave the origin.
  if (view.cancel_url) return { redirect: withSessionId(view.cancel_url, view.session_id) };
  return { page: 'outcome', language: buyerLanguage(view.locale, acceptLanguage), outcome: 'canceled', session: view };
}

function processing(deps: FlowDeps, token: string, view: CheckoutView, language: Language): Answer {
  return { page: 'processing', language, session: view, refreshUrl: `${pageUrl(deps, token)}/result`, refreshSeconds: PROCESSING_REFRESH_SECONDS };
}

/** The card form, with the previous attempt's decline when the session has one. */
function paymentPage(token: string, view: CheckoutView, language: Language): PaymentPage {
  const page: PaymentPage = { page: 'payment', language, token, session: view };
  if (view.status === 'PENDING' && view.last_failure_message) {
    page.previousDecline = { failureCode: view.last_failure_code, attemptsLeft: view.max_attempts - view.attempts_count };
  }
  return page;
}

type PaymentForm =
  | { ok: true; card: Card }
  | { ok: true; paymentMethod: string; cvc: string }
  | { ok: false; refused: Pick<PaymentPage, 'refused' | 'savedRefused'> };

/**
 * The form posted: a typed card (card-form.ts), or one of the customer's saved
 * cards with its security code (D24: `payment_method` and `saved_cvc`, the
 * code of three digits the acquirer takes for a saved card).
 */
function checkPaymentForm(form: Record<string, unknown>, now: Date): PaymentForm {
  const paymentMethod = form.payment_method;
  if (typeof paymentMethod === 'string') {
    const cvc = typeof form.saved_cvc === 'string' ? form.saved_cvc.trim() : '';
    if (!/^pm_[0-9A-Za-z]{20,}$/.test(paymentMethod) || !/^[0-9]{3}$/.test(cvc)) return { ok: false, refused: { savedRefused: { paymentMethod, error: 'error_saved_cvc' } } };
    return { ok: true, paymentMethod, cvc };
  }
  const check = checkCardForm(form, now);
  return check.ok ? check : { ok: false, refused: { refused: { errors: check.errors, values: check.values } } };
}

/** The checkout link's page, as buyers' URLs start (PUBLIC_BASE_URL). */
export function pageUrl(deps: FlowDeps, token: string): string {
  return `${deps.publicBaseUrl}/checkout/${token}`;
}
