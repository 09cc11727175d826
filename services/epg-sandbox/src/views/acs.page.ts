/**
 * The sandbox's browser pages (the issuer's ACS and 3DS Method URL, and the
 * gateway's own 3-D Secure 2 finish): self-contained HTML, nothing external.
 * Only the page that hands the buyer back runs a script, and only its own
 * file (continue.js), which presses the visible Continue button.
 */
import { html, type Html } from '@gateway/runtime';
import type { AcsChallenge, AcsReturn } from '../domain/acs-challenge.js';
import { sandboxPage } from './layout.js';

/** Where the hand-back page's script is served. */
export const CONTINUE_SCRIPT_PATH = '/acs/continue.js';
/** Presses the hand-back page's Continue button: the form goes as soon as the page loads; without script, the buyer presses it. */
export const CONTINUE_SCRIPT = "document.getElementById('continue').click();\n";
/** Where the challenge page posts the cardholder's answer. */
export const ANSWER_PATH = '/acs/answer';

const HEADING = '3-D Secure authentication';

/** The page offering both answers, each posting the signed decision back to the ACS; every interpolated value is escaped. */
export function challengePage(challenge: AcsChallenge): string {
  const method = challenge.methodRan === undefined ? '' : html`\n<dt>3DS Method</dt><dd class="method">${challenge.methodRan ? 'ran' : 'did not run'}</dd>`;
  return page(
    html`<h1>${HEADING}</h1>
<p>Sandbox issuer: choose how the cardholder's authentication ends.</p>
<dl>
<dt>Protocol</dt><dd class="protocol">${challenge.protocol}</dd>
<dt>Amount</dt><dd>${challenge.amountTnd} TND</dd>
<dt>Card</dt><dd>${challenge.maskedPan}</dd>
<dt>Language asked by the merchant</dt><dd class="language">${challenge.language}</dd>${method}
</dl>
<form method="post" action="${ANSWER_PATH}">
<input type="hidden" name="decision" value="${challenge.decision}">
<button type="submit" name="result" value="Y">Complete authentication</button>
<button type="submit" name="result" value="N">Fail authentication</button>
</form>`,
  );
}

/** The page that hands the buyer back to the merchant: a form posting the answer, sent by its script, or by the buyer with Continue. */
export function returnPage(back: AcsReturn): string {
  const fields = Object.entries(back.fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">\n`);
  return page(
    html`<h1>${HEADING}</h1>
<p>Authentication finished. Continue to return to the merchant.</p>
<form method="post" action="${back.url}">
${fields}<button type="submit" id="continue">Continue</button>
</form>
<script src="${CONTINUE_SCRIPT_PATH}"></script>`,
  );
}

/** What the 3DS Method URL answers in the buyer's hidden frame. */
export function methodPage(): string {
  return page(html`<p>3DS Method complete.</p>`, '3DS Method');
}

/** The page of a request the ACS (or the finish) cannot act on, saying why. */
export function invalidRequestPage(reason = 'The authentication request is invalid.'): string {
  return page(
    html`<h1>${HEADING}</h1>
<p>${reason}</p>`,
  );
}

function page(body: Html, title = HEADING): string {
  return sandboxPage(title, body);
}
