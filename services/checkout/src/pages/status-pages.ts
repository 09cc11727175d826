/** The pages around a payment: processing, its outcome, a lapsed checkout link, a payment not possible now, leaving for the merchant, an error. */
import { html, type Html } from '@gateway/runtime';
import type { MessageKey, PageTranslate } from './catalogue/index.js';
import { layout } from './layout.js';
import { renderOrderSummary } from './order-summary.js';
import type { OrderView } from './views.js';

/** Shown while the acquirer's answer is awaited; reloads itself every `seconds`. */
export function renderProcessingPage(t: PageTranslate, order: OrderView, refreshUrl: string, seconds: number): string {
  const body = html`<h1>${t('processing_title')}</h1>
<p>${t('processing_text')}</p>
<p class="warning">${t('processing_warning')}</p>
${renderOrderSummary(t, order)}
<p><a href="${refreshUrl}">${t('check_again')}</a></p>`;
  return layout(t, t('processing_title'), body, { refresh: { seconds, url: refreshUrl } });
}

/** The end of the road when the merchant gave no URL to return to; `message` is already in the page's language. */
export function renderOutcomePage(t: PageTranslate, outcome: 'succeeded' | 'failed', message: string, order?: OrderView): string {
  const heading = t(outcome === 'succeeded' ? 'succeeded_title' : 'failed_title');
  const summary = order === undefined ? '' : html`\n${renderOrderSummary(t, order)}`;
  const body = html`<h1 class="outcome outcome-${outcome}">${heading}</h1>
<p>${message}</p>${summary}`;
  return layout(t, heading, body);
}

/**
 * Leaves the page for `url` (the merchant's site). A page rather than an HTTP
 * redirect, because a redirect answering a form post would break the form-action 'self' policy.
 */
export function renderRedirectPage(t: PageTranslate, url: string, heading: string): string {
  return layout(t, heading, continueBody(t, heading, url), { refresh: { seconds: 0, url } });
}

const CHECKOUT_LINK_EXPIRED_TEXTS: Readonly<Record<'expired' | 'paid' | 'closed', MessageKey>> = {
  expired: 'checkout_link_expired_text',
  paid: 'checkout_link_paid_text',
  closed: 'checkout_link_closed_text',
};

type UnavailableReason = 'merchant' | 'payment-link-closed' | 'payment-link-held' | 'payment-link-used';

const UNAVAILABLE_TEXTS: Readonly<Record<UnavailableReason, [MessageKey, MessageKey]>> = {
  merchant: ['unavailable_title', 'unavailable_text'],
  // D29: the link's own page's wording of a closed link.
  'payment-link-closed': ['payment_link_closed_title', 'payment_link_closed_text'],
  'payment-link-held': ['payment_link_held_title', 'payment_link_held_text'],
  'payment-link-used': ['payment_link_used_title', 'payment_link_used_text'],
};

/**
 * A payment that cannot be made now, and nothing was charged: the merchant
 * may not take payments (suspended), or (D19) the payment link is closed
 * (D29), used up, or has each of its payments left under way for other buyers.
 */
export function renderUnavailablePage(t: PageTranslate, reason: UnavailableReason = 'merchant'): string {
  const [title, text] = UNAVAILABLE_TEXTS[reason];
  const heading = t(title);
  return layout(t, heading, html`<h1>${heading}</h1>\n<p>${t(text)}</p>`);
}

/** A lapsed, used or unknown checkout link; says nothing that identifies the session. */
export function renderCheckoutLinkExpiredPage(t: PageTranslate, reason: 'expired' | 'paid' | 'closed'): string {
  const heading = t('checkout_link_expired_title');
  return layout(t, heading, html`<h1>${heading}</h1>\n<p>${t(CHECKOUT_LINK_EXPIRED_TEXTS[reason])}</p>`);
}

/** A generic error page; the status picks the wording, nothing else shows. */
export function renderErrorPage(t: PageTranslate, status: number): string {
  const notFound = status === 404;
  const heading = t(notFound ? 'not_found_title' : 'error_title');
  const text = t(notFound ? 'not_found_text' : 'error_text');
  return layout(t, heading, html`<h1>${heading}</h1>\n<p>${text}</p>`);
}

function continueBody(t: PageTranslate, heading: string, url: string): Html {
  return html`<h1>${heading}</h1>
<p>${t('continue_text')}</p>
<p><a class="button" href="${url}">${t('continue_button')}</a></p>`;
}
