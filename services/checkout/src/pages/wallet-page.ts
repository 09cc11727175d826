/**
 * The pages of a wallet payment (D26): the one that takes the buyer to
 * Flouci's page, and the one shown when the page will not send them there.
 * No script and no form: a refresh at once, and a link the buyer can follow
 * when the browser does not refresh. Both are navigations, which the page's
 * policy (form-action 'self', D9) leaves alone, where a redirect answering
 * the "Pay with Flouci" post would be blocked. Which URLs may appear here is
 * the domain's check.
 */
import { html } from '@gateway/runtime';
import type { PageTranslate } from './catalogue/index.js';
import { layout } from './layout.js';

/** Takes the buyer to Flouci's page at `url`. */
export function renderWalletPage(t: PageTranslate, url: string): string {
  const heading = t('wallet_redirect_title');
  const body = html`<h1>${heading}</h1>
<p>${t('wallet_redirect_text')}</p>
<p>${t('wallet_continue_text')}</p>
<p><a class="button" href="${url}" rel="noreferrer">${t('continue_to_flouci')}</a></p>`;
  return layout(t, heading, body, { refresh: { seconds: 0, url } });
}

/** Flouci's page was at a URL the page refuses: the buyer stays here, and nothing was charged. */
export function renderWalletRefusedPage(t: PageTranslate): string {
  const heading = t('wallet_refused_title');
  return layout(t, heading, html`<h1>${heading}</h1>\n<p>${t('wallet_refused_text')}</p>`);
}
