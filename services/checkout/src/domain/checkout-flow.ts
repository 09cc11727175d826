/**
 * The buyer's way through the hosted page (D9), one function per step. Each
 * decides what the buyer is shown next: a page (which one, with what data,
 * in which language) or a redirect within the page's own origin; the HTTP
 * layer renders the page. Leaving for another origin (the merchant, the
 * bank) is a page that refreshes there, because a redirect answering a form
 * post would break the page's form-action 'self' policy. Every page speaks
 * the session's language, or the buyer's (D18): the session's locale unless
 * `auto`, then the buyer's Accept-Language, then French.
 */
import type { CardSealer } from '@gateway/card-sealing';
import { newId, type CheckoutStep, type CheckoutView, type CommandReply, type CommandRequest, type CommandType, type Locale } from '@gateway/contracts';
import { chooseLanguage, isLanguage, type Language } from '@gateway/i18n';
import { AppError, unlessNotFound } from '@gateway/problem';
import { RpcTimeoutError } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { checkCardForm, type CardField, type CardFieldError, type CardFormValues } from './card-form.js';
import type { CheckoutLinkRef, CheckoutLinkVerifier } from './checkout-link-verifier.js';
import type { PaymentLinkSlots } from './payment-link-slots.js';

/** What a step answers: a page to show, or a redirect within the page's own origin. */
export type Answer = CheckoutPage | { redirect: string };

/** A page of the hosted checkout and what it shows, in the buyer's language. */
export type CheckoutPage = { language: Language } & (
  | {
      /** The card form; `refused` after the page's own checks failed, `previousDecline` when an attempt was declined. */
      page: 'payment';
      token: string;
      session: CheckoutView;
      previousDecline?: { failureCode: string; attemptsLeft: number };
      refused?: { errors: Partial<Record<CardField, CardFieldError>>; values: CardFormValues };
    }
  | { page: 'processing'; session: CheckoutView; refreshUrl: string; refreshSeconds: number }
  | { page: 'challenge'; challenge: { acsUrl: string; paReq: string; md: string; termUrl: string } }
  /** Leaving for the merchant's `url` after the session `outcome`. */
  | { page: 'leaving'; outcome: 'succeeded' | 'failed'; url: string }
  /** The end of the road when the merchant gave no URL to return to. */
  | { page: 'outcome'; outcome: 'succeeded' | 'failed' | 'canceled'; session: CheckoutView }
  /** A lapsed, used or unknown checkout link. */
  | { page: 'checkout-link-expired'; reason: 'expired' | 'paid' | 'closed' }
  /**
   * An open session that takes no payment now: its merchant is suspended, or
   * (D19) the payment link it was made through is used up or has each of its
   * payments under way for other buyers.
   */
  | { page: 'unavailable'; reason?: 'payment-link-used' | 'payment-link-held' }
);

/** The card form page. */
export type PaymentPage = Extract<CheckoutPage, { page: 'payment' }>;

export interface FlowDeps {
  checkoutLinks: CheckoutLinkVerifier;
  /** The slots of payment links that may be paid only so many times (D19): an attempt on one of their sessions needs one. */
  slots: PaymentLinkSlots;
  cards: CardSealer;
  call: <C extends CommandType>(type: C, data: CommandRequest<C>, timeoutMs?: number) => Promise<CommandReply<C>>;
  publicBaseUrl: string;
  paymentTimeoutMs: number;
  /** How long after its checkout link lapsed a payment under way may come back from 3-D Secure and show its result. */
  paymentReturnGraceSeconds: number;
  clock: () => Date;
  log: Logger;
}

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

/** The card form was submitted: check it, start an attempt, pay it. */
export async function pay(deps: FlowDeps, token: string, form: Record<string, unknown>, acceptLanguage?: string): Promise<Answer> {
  const link = deps.checkoutLinks.verify(token, deps.clock());
  if (!link) return expired(acceptLanguage, 'expired');
  const check = checkCardForm(form, deps.clock());
  if (!check.ok) {
    const view = await viewOf(deps, link);
    if (!view) return expired(acceptLanguage, 'expired');
    if (view.status !== 'CREATED' && view.status !== 'PENDING') return toResult(token);
    if (view.merchant_suspended) return { page: 'unavailable', language: buyerLanguage(view.locale, acceptLanguage) };
    return { ...paymentPage(token, view, buyerLanguage(view.locale, acceptLanguage)), refused: { errors: check.errors, values: check.values } };
  }

  // The card is sealed for this attempt alone, so the page names the attempt.
  const attemptId = newId('pa');
  const language = isLanguage(form.language) ? form.language : buyerLanguage(undefined, acceptLanguage);
  const sealed = deps.cards.seal(check.card, attemptId);
  // A session of a payment link that may be paid only so many times starts an attempt only with a slot of the payment link.
  const slot = await deps.slots.claim(link, attemptId);
  if (!slot.ok) return { page: 'unavailable', language, reason: slot.paid ? 'payment-link-used' : 'payment-link-held' };
  let step: CheckoutStep;
  try {
    step = await paymentStep(deps, () =>
      deps.call('attempt.pay', { ...link, attempt_id: attemptId, card: sealed, term_url: `${pageUrl(deps, token)}/3ds`, language }, deps.paymentTimeoutMs),
    );
  } catch (err) {
    // Another attempt running, the session closed meanwhile, or its merchant suspended: the result page says which.
    if (err instanceof AppError) {
      await slot.notStarted();
      return err.code === 'not-found' ? expired(acceptLanguage, 'expired') : toResult(token);
    }
    throw err;
  }
  await deps.slots.afterStep(link.session_id, attemptId, step);
  if (step.outcome === 'challenge' && step.challenge) {
    const fields = step.challenge.fields;
    return { page: 'challenge', language, challenge: { acsUrl: step.challenge.url, paReq: fields['PaReq'] ?? '', md: fields['MD'] ?? attemptId, termUrl: fields['TermUrl'] ?? '' } };
  }
  return afterStep(token, step, acceptLanguage);
}

/** The buyer is back from 3-D Secure (the TermUrl): the session has the adapter finish and confirm. */
export async function returnFromChallenge(deps: FlowDeps, token: string, form: Record<string, unknown>, acceptLanguage?: string): Promise<Answer> {
  // The buyer may have spent the checkout link's last minutes at the bank: the payment they started finishes all the same.
  const link = deps.checkoutLinks.verify(token, deps.clock(), deps.paymentReturnGraceSeconds);
  if (!link) return expired(acceptLanguage, 'expired');
  const paRes = typeof form.PaRes === 'string' ? form.PaRes : '';
  const attemptId = typeof form.MD === 'string' ? form.MD : '';
  if (paRes && attemptId) {
    try {
      const step = await paymentStep(deps, () => deps.call('attempt.finish_3ds', { ...link, attempt_id: attemptId, returned: { kind: 'pa_res', pa_res: paRes } }, deps.paymentTimeoutMs));
      await deps.slots.afterStep(link.session_id, attemptId, step);
      return afterStep(token, step, acceptLanguage);
    } catch (err) {
      // An attempt that is not this checkout link's, or not awaiting 3-D Secure: the result page shows where things stand.
      if (!(err instanceof AppError)) throw err;
    }
  }
  return toResult(token);
}

/**
 * After a payment step: a session the step closed is answered at once
 * (leaving for the merchant, or the final page), as a refresh can pay
 * nothing; one that can still take a card goes to its result page (a GET),
 * so that a refresh never sends the card again.
 */
function afterStep(token: string, step: CheckoutStep, acceptLanguage: string | undefined): Answer {
  return (step.session && closedAnswer(step.session, buyerLanguage(step.session.locale, acceptLanguage))) ?? toResult(token);
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

/** The answer for a session that can take no more payments; undefined while it can. */
function closedAnswer(view: CheckoutView, language: Language): Answer | undefined {
  switch (view.status) {
    case 'AUTHORIZED':
    case 'SUCCEEDED':
      return view.return_url
        ? { page: 'leaving', language, outcome: 'succeeded', url: withSessionId(view.return_url, view.session_id) }
        : { page: 'outcome', language, outcome: 'succeeded', session: view };
    case 'EXPIRED':
      return expiredIn(language, 'expired');
    case 'FAILED':
    case 'CANCELED':
      return leave(view, language, view.status === 'CANCELED' ? 'canceled' : 'failed');
    default:
      return undefined;
  }
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

async function viewOf(deps: FlowDeps, link: CheckoutLinkRef): Promise<CheckoutView | undefined> {
  return unlessNotFound(deps.call('checkout.view', link));
}

/** Runs a payment step; no answer in time means the outcome is pending, shown as processing. */
async function paymentStep(deps: FlowDeps, step: () => Promise<CheckoutStep>): Promise<CheckoutStep> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof RpcTimeoutError) {
      deps.log.warn('payment step unanswered in time; shown as processing');
      return { outcome: 'pending' };
    }
    throw err;
  }
}

/** A session that failed or was canceled: back to the merchant when it said where, else the end of the road. */
function leave(view: CheckoutView, language: Language, outcome: 'failed' | 'canceled'): Answer {
  if (view.cancel_url) return { page: 'leaving', language, outcome: 'failed', url: withSessionId(view.cancel_url, view.session_id) };
  return { page: 'outcome', language, outcome, session: view };
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

/** A checkout link that leads to no session: the buyer's own language, as there is no session to ask. */
function expired(acceptLanguage: string | undefined, reason: 'expired' | 'paid' | 'closed'): Answer {
  return expiredIn(buyerLanguage(undefined, acceptLanguage), reason);
}

function expiredIn(language: Language, reason: 'expired' | 'paid' | 'closed'): Answer {
  return { page: 'checkout-link-expired', language, reason };
}

/** D18: the session's locale unless `auto` (or no session), then the buyer's Accept-Language, then French. */
function buyerLanguage(locale: Locale | undefined, acceptLanguage: string | undefined): Language {
  return chooseLanguage(locale, acceptLanguage, 'fr');
}

function toResult(token: string): Answer {
  return { redirect: `/checkout/${token}/result` };
}

function pageUrl(deps: FlowDeps, token: string): string {
  return `${deps.publicBaseUrl}/checkout/${token}`;
}

/** `url` with session_id added to its query (D9). */
function withSessionId(url: string, sessionId: string): string {
  const target = new URL(url);
  target.searchParams.set('session_id', sessionId);
  return target.toString();
}
