/**
 * The sandbox's Flouci payment page (WALLET.md "The sandbox"): the amount, a
 * Phone number field and two buttons, Confirm payment and Cancel, in one
 * form posted to the page itself; no script, nothing external, every value
 * escaped. The test phones are told on the page, as the 3-D Secure page tells
 * its choices.
 */
import { html } from '@gateway/runtime';
import type { PayPage } from '../domain/flouci/buyer-answer.js';
import { DECLINED_PHONE, NEVER_APPROVED_PHONE } from '../domain/flouci/wallet-payment.js';
import { PAY_PAGE_PATH } from '../domain/flouci/wallet.js';
import { sandboxPage } from './layout.js';

const TITLE = 'Flouci payment';
const STYLE = 'label,input{display:block}input{margin:.25rem 0;padding:.5rem;font-size:1rem}.error{color:#b00020}';

/** The payment's page; `error` (the answer to correct) above the form, tied to the field it is about. */
export function payPage(page: PayPage, error?: string): string {
  const errorId = 'phone-error';
  return sandboxPage(
    TITLE,
    html`<h1>${TITLE}</h1>
<p>Sandbox wallet: pay with the phone number of a Flouci account.</p>
<dl>
<dt>Amount</dt><dd class="amount">${page.amountTnd} TND</dd>
</dl>
${error === undefined ? '' : html`<p class="error" id="${errorId}" role="alert">${error}</p>\n`}<form method="post" action="${PAY_PAGE_PATH}${page.paymentId}">
<label for="phone">Phone number</label>
<input id="phone" name="phone" type="tel" inputmode="numeric" autocomplete="tel" pattern="[0-9]{8}" maxlength="8" required${error === undefined ? '' : html` aria-invalid="true" aria-describedby="${errorId}"`}>
<button type="submit" name="action" value="confirm">Confirm payment</button>
<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
</form>
<p>Test phones: ${DECLINED_PHONE} is declined (insufficient balance), ${NEVER_APPROVED_PHONE} never completes (the payment expires), any other 8 digits pay.</p>`,
    STYLE,
  );
}

/** The page of a payment that has none: unknown, or no longer awaiting its buyer. */
export function noPayPage(message: string): string {
  return sandboxPage(TITLE, html`<h1>${TITLE}</h1>\n<p>${message}</p>`);
}
