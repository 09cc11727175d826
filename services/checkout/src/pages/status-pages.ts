import { escapeHtml, layout } from './html.js';
import { renderOrderSummary } from './order-summary.js';
import type { OrderView } from './views.js';

/** Shown while the acquirer's answer is awaited; reloads itself every `seconds`. */
export function renderProcessingPage(order: OrderView, refreshUrl: string, seconds: number): string {
  const body = `<h1>Payment processing</h1>
<p>We are confirming your payment with the bank. This page updates by itself.</p>
<p class="warning">Please do not pay again.</p>
${renderOrderSummary(order)}
<p><a href="${escapeHtml(refreshUrl)}">Check again</a></p>`;
  return layout('Payment processing', body, { refresh: { seconds, url: refreshUrl } });
}

/** The end of the road when the merchant gave no URL to return to. */
export function renderOutcomePage(outcome: 'succeeded' | 'failed', message: string, order?: OrderView): string {
  const heading = outcome === 'succeeded' ? 'Payment successful' : 'Payment failed';
  const summary = order === undefined ? '' : `\n${renderOrderSummary(order)}`;
  const body = `<h1 class="outcome outcome-${outcome}">${heading}</h1>
<p>${escapeHtml(message)}</p>${summary}`;
  return layout(heading, body);
}

/**
 * Leaves the page for `url` (the merchant's site, the bank). A page rather than an HTTP
 * redirect, because a redirect answering a form post would break the form-action 'self' policy.
 */
export function renderRedirectPage(url: string, heading: string): string {
  return layout(heading, continueBody(heading, url), { refresh: { seconds: 0, url } });
}

const LINK_EXPIRED_REASONS: Readonly<Record<'expired' | 'paid' | 'closed', string>> = {
  expired: 'Please ask the merchant for a new payment link.',
  paid: 'This order has already been paid.',
  closed: 'This payment is no longer open.',
};

/** A lapsed, used or unknown link; says nothing that identifies the session. */
export function renderLinkExpiredPage(reason: 'expired' | 'paid' | 'closed'): string {
  const heading = 'This payment link has expired';
  return layout(heading, `<h1>${heading}</h1>\n<p>${LINK_EXPIRED_REASONS[reason]}</p>`);
}

export interface ChallengeView {
  acsUrl: string;
  paReq: string;
  md: string;
  termUrl: string;
}

/** Sends the buyer to the bank's 3-D Secure page, the challenge data in the query. */
export function renderChallengePage(challenge: ChallengeView): string {
  const heading = 'Redirecting to your bank';
  const query = new URLSearchParams({ PaReq: challenge.paReq, MD: challenge.md, TermUrl: challenge.termUrl });
  const url = appendQuery(challenge.acsUrl, query);
  return layout(heading, continueBody(heading, url), { refresh: { seconds: 0, url } });
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
export function renderErrorPage(status: number): string {
  const notFound = status === 404;
  const heading = notFound ? 'Page not found' : 'Something went wrong';
  const text = notFound ? 'Check the payment link you were given.' : 'Please try again later.';
  return layout(heading, `<h1>${heading}</h1>\n<p>${text}</p>`);
}

function continueBody(heading: string, url: string): string {
  return `<h1>${escapeHtml(heading)}</h1>
<p>If nothing happens, select Continue.</p>
<p><a class="button" href="${escapeHtml(url)}">Continue</a></p>`;
}
