/**
 * What a step of the hosted page answers: a page to show (which one, with what
 * data, in which language) or a redirect within the page's own origin. Leaving
 * for another origin (the merchant, the bank) is a page, because a redirect
 * answering a form post would break the page's form-action policy. Every page
 * speaks the session's language, or the buyer's (D18): the session's locale
 * unless `auto`, then the buyer's Accept-Language, then French.
 */
import type { BrowserForm, CheckoutStep, CheckoutView, Locale } from '@gateway/contracts';
import { chooseLanguage, isLanguage, type Language } from '@gateway/i18n';
import type { CardField, CardFieldError, CardFormValues } from './card-form.js';

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
      /** D24: the saved card chosen, and its security code refused by the page's own check. */
      savedRefused?: { paymentMethod: string; error: 'error_saved_cvc' };
    }
  | { page: 'processing'; session: CheckoutView; refreshUrl: string; refreshSeconds: number }
  /** Hands the buyer to the issuer's ACS (3-D Secure 1 or 2): `form` posted as it is to `origin` (D30). */
  | { page: 'bank'; form: BrowserForm; origin: string }
  /**
   * The 3DS Method (D30): `form` posted to `origin` in a hidden frame; then, once
   * the frame has loaded or `waitMs` passed, the page posts `continueUrl`.
   */
  | { page: 'method'; form: BrowserForm; origin: string; continueUrl: string; waitMs: number }
  /**
   * The acquirer asked for a form the page will not post, or (`wallet`, D26) the
   * wallet for a page the page will not send the buyer to (not https:, nor the
   * test sandbox's): nothing was sent to the browser.
   */
  | { page: 'bank-refused'; wallet?: 'flouci' }
  /**
   * Hands the buyer to the wallet's page at `url` (D26), a URL checked as a
   * bank's form is, by a refresh and a link: a redirect answering the page's
   * form post would break its form-action policy.
   */
  | { page: 'wallet'; url: string }
  /** Leaving for the merchant's `url` after the session `outcome`. */
  | { page: 'leaving'; outcome: 'succeeded' | 'failed'; url: string }
  /** The end of the road when the merchant gave no URL to return to. */
  | { page: 'outcome'; outcome: 'succeeded' | 'failed' | 'canceled'; session: CheckoutView }
  /** A lapsed, used or unknown checkout link. */
  | { page: 'checkout-link-expired'; reason: 'expired' | 'paid' | 'closed' }
  /**
   * An open session that takes no payment now: its merchant is suspended, or
   * (D19) the payment link it was made through is closed (deactivated or
   * expired, D29), used up, or has each of its payments under way for other buyers.
   */
  | { page: 'unavailable'; reason?: 'payment-link-closed' | 'payment-link-used' | 'payment-link-held' }
);

/** The card form page. */
export type PaymentPage = Extract<CheckoutPage, { page: 'payment' }>;

/** D18: the session's locale unless `auto` (or no session), then the buyer's Accept-Language, then French. */
export function buyerLanguage(locale: Locale | undefined, acceptLanguage: string | undefined): Language {
  return chooseLanguage(locale, acceptLanguage, 'fr');
}

/** The language a form of the page posted (its hidden `language`), so the payment goes on in the page's words; else the buyer's. */
export function formLanguage(form: Record<string, unknown>, acceptLanguage: string | undefined): Language {
  return isLanguage(form.language) ? form.language : buyerLanguage(undefined, acceptLanguage);
}

/** A checkout link that leads to no session: the buyer's own language, as there is no session to ask. */
export function expired(acceptLanguage: string | undefined, reason: 'expired' | 'paid' | 'closed'): Answer {
  return expiredIn(buyerLanguage(undefined, acceptLanguage), reason);
}

/** A checkout link that leads to no session, in `language`. */
export function expiredIn(language: Language, reason: 'expired' | 'paid' | 'closed'): Answer {
  return { page: 'checkout-link-expired', language, reason };
}

/** The result page of the checkout link `token` (a GET, so a refresh never posts anything again). */
export function toResult(token: string): Answer {
  return { redirect: `/checkout/${token}/result` };
}

/**
 * After a payment step: a session the step closed is answered at once
 * (leaving for the merchant, or the final page), as a refresh can pay
 * nothing; one that can still take a card goes to its result page (a GET),
 * so that a refresh never sends the card again.
 */
export function afterStep(token: string, step: CheckoutStep, acceptLanguage: string | undefined): Answer {
  return (step.session && closedAnswer(step.session, buyerLanguage(step.session.locale, acceptLanguage))) ?? toResult(token);
}

/** The answer for a session that can take no more payments; undefined while it can. */
export function closedAnswer(view: CheckoutView, language: Language): Answer | undefined {
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

/** A session that failed or was canceled: back to the merchant when it said where, else the end of the road. */
function leave(view: CheckoutView, language: Language, outcome: 'failed' | 'canceled'): Answer {
  if (view.cancel_url) return { page: 'leaving', language, outcome: 'failed', url: withSessionId(view.cancel_url, view.session_id) };
  return { page: 'outcome', language, outcome, session: view };
}

/** `url` with session_id added to its query (D9). */
export function withSessionId(url: string, sessionId: string): string {
  const target = new URL(url);
  target.searchParams.set('session_id', sessionId);
  return target.toString();
}
