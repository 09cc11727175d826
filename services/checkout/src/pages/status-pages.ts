import { html, type Html } from '@gateway/runtime';
import { layout } from './layout.js';
import { translate, type Language, type MessageKey } from './messages/index.js';
import { renderOrderSummary } from './order-summary.js';
import type { OrderView } from './views.js';

/** Shown while the acquirer's answer is awaited; reloads itself every `seconds`. */
export function renderProcessingPage(language: Language, order: OrderView, refreshUrl: string, seconds: number): string {
  const t = (key: MessageKey) => translate(language, key);
  const body = html`<h1>${t('processing_title')}</h1>
<p>${t('processing_text')}</p>
<p class="warning">${t('processing_warning')}</p>
${renderOrderSummary(order, language)}
<p><a href="${refreshUrl}">${t('check_again')}</a></p>`;
  return layout(language, translate(language, 'processing_title'), body, { refresh: { seconds, url: refreshUrl } });
}

/** The end of the road when the merchant gave no URL to return to; `message` is already in `language`. */
export function renderOutcomePage(language: Language, outcome: 'succeeded' | 'failed', message: string, order?: OrderView): string {
  const heading = translate(language, outcome === 'succeeded' ? 'succeeded_title' : 'failed_title');
  const summary = order === undefined ? '' : html`\n${renderOrderSummary(order, language)}`;
  const body = html`<h1 class="outcome outcome-${outcome}">${heading}</h1>
<p>${message}</p>${summary}`;
  return layout(language, heading, body);
}

/**
 * Leaves the page for `url` (the merchant's site, the bank). A page rather than an HTTP
 * redirect, because a redirect answering a form post would break the form-action 'self' policy.
 */
export function renderRedirectPage(language: Language, url: string, heading: string): string {
  return layout(language, heading, continueBody(language, heading, url), { refresh: { seconds: 0, url } });
}

const LINK_EXPIRED_REASONS: Readonly<Record<'expired' | 'paid' | 'closed', MessageKey>> = {
  expired: 'link_expired_expired',
  paid: 'link_expired_paid',
  closed: 'link_expired_closed',
};

const UNAVAILABLE_TEXTS: Readonly<Record<'merchant' | 'link-held' | 'link-used', [MessageKey, MessageKey]>> = {
  merchant: ['unavailable_title', 'unavailable_text'],
  'link-held': ['link_held_title', 'link_held_text'],
  'link-used': ['link_used_title', 'link_used_text'],
};

/**
 * A payment that cannot be made now, and nothing was charged: the merchant
 * may not take payments (suspended), or (D19) the payment link is used up
 * or has each of its payments left under way for other buyers.
 */
export function renderUnavailablePage(language: Language, reason: 'merchant' | 'link-held' | 'link-used' = 'merchant'): string {
  const [title, text] = UNAVAILABLE_TEXTS[reason];
  const heading = translate(language, title);
  return layout(language, heading, html`<h1>${heading}</h1>\n<p>${translate(language, text)}</p>`);
}

/** A lapsed, used or unknown link; says nothing that identifies the session. */
export function renderLinkExpiredPage(language: Language, reason: 'expired' | 'paid' | 'closed'): string {
  const heading = translate(language, 'link_expired_title');
  return layout(language, heading, html`<h1>${heading}</h1>\n<p>${translate(language, LINK_EXPIRED_REASONS[reason])}</p>`);
}

export interface ChallengeView {
  acsUrl: string;
  paReq: string;
  md: string;
  termUrl: string;
}

/** Sends the buyer to the bank's 3-D Secure page, the challenge data in the query. */
export function renderChallengePage(language: Language, challenge: ChallengeView): string {
  const heading = translate(language, 'redirect_bank');
  const query = new URLSearchParams({ PaReq: challenge.paReq, MD: challenge.md, TermUrl: challenge.termUrl });
  const url = appendQuery(challenge.acsUrl, query);
  return layout(language, heading, continueBody(language, heading, url), { refresh: { seconds: 0, url } });
}

/** Adds `query` after any query `url` already has, kept byte for byte; a fragment stays last. */
export function appendQuery(url: string, query: URLSearchParams): string {
  const hashAt = url.indexOf('#');
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : url.slice(hashAt);
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${query.toString()}${fragment}`;
}

/** A generic error page; the status picks the wording, nothing else shows. */
export function renderErrorPage(language: Language, status: number): string {
  const notFound = status === 404;
  const heading = translate(language, notFound ? 'not_found_title' : 'error_title');
  const text = translate(language, notFound ? 'not_found_text' : 'error_text');
  return layout(language, heading, html`<h1>${heading}</h1>\n<p>${text}</p>`);
}

function continueBody(language: Language, heading: string, url: string): Html {
  return html`<h1>${heading}</h1>
<p>${translate(language, 'continue_text')}</p>
<p><a class="button" href="${url}">${translate(language, 'continue_button')}</a></p>`;
}
