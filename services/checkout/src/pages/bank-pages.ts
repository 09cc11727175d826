/**
 * The pages that hand the buyer's browser to the issuer (D30): forms the
 * browser posts as they are, pressed by our script (hand-off-script.ts) and,
 * without script, by the buyer's visible Continue. Every URL, field name and
 * value is escaped; which URLs may appear here at all is the domain's check.
 */
import type { BrowserForm } from '@gateway/contracts';
import { html, joinHtml, type Html } from '@gateway/runtime';
import type { PageTranslate } from './catalogue/index.js';
import { HAND_OFF_SCRIPT_PATH } from './hand-off-script.js';
import { layout } from './layout.js';

/** The 3DS Method step: the method form, posted into a hidden frame, and the page's own form that goes on after it. */
export interface MethodView {
  form: BrowserForm;
  /** Where the page's own form posts (same origin). */
  continueUrl: string;
  /** How long the script waits for the frame before going on without it. */
  waitMs: number;
}

/** Takes the buyer to the issuer's ACS: `form` posted at once by the script, or by the buyer's Continue. */
export function renderBankPage(t: PageTranslate, form: BrowserForm): string {
  const heading = t('redirect_bank');
  const body = html`<h1>${heading}</h1>
<p>${t('bank_text')}</p>
<form id="bank-form" method="post" action="${form.url}">
${hiddenFields(form.fields)}
<p>${t('continue_text')}</p>
<p><button type="submit" class="button">${t('continue_button')}</button></p>
</form>`;
  return layout(t, heading, body, { script: HAND_OFF_SCRIPT_PATH });
}

/**
 * The 3DS Method: the script posts the method form into the hidden frame, then
 * the page's own form (completed true once the frame has loaded, false after
 * the wait). Without script the buyer's Continue posts the page's own form
 * (completed false): the issuer goes without the method's data.
 */
export function renderMethodPage(t: PageTranslate, view: MethodView): string {
  const heading = t('method_title');
  const body = html`<h1>${heading}</h1>
<p>${t('method_text')}</p>
<iframe id="method-frame" name="method-frame" title="${heading}" hidden></iframe>
<form id="method-form" method="post" action="${view.form.url}" target="method-frame">
${hiddenFields(view.form.fields)}
</form>
<form id="method-continue" method="post" action="${view.continueUrl}" data-wait-ms="${view.waitMs}">
<input type="hidden" name="completed" value="false">
<input type="hidden" name="language" value="${t.language}">
<p>${t('continue_text')}</p>
<p><button type="submit" class="button">${t('continue_button')}</button></p>
</form>`;
  return layout(t, heading, body, { script: HAND_OFF_SCRIPT_PATH });
}

/** The acquirer asked for a form the page will not post: nothing was sent to the bank, nothing charged. */
export function renderBankRefusedPage(t: PageTranslate): string {
  const heading = t('bank_refused_title');
  return layout(t, heading, html`<h1>${heading}</h1>\n<p>${t('bank_refused_text')}</p>`);
}

function hiddenFields(fields: Readonly<Record<string, string>>): Html {
  return joinHtml(
    Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`),
    '\n',
  );
}
