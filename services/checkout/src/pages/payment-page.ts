import { TEST_CARDS } from '@gateway/test-cards';
import { html, joinHtml, trustedHtml, type Html } from '@gateway/runtime';
import { renderFormField } from './form-field.js';
import { brandLogo, layout } from './layout.js';
import { formatAmount, translate, type Language, type MessageKey } from './messages/index.js';
import { chargedAmount } from './order-summary.js';
import type { CardField } from '../domain/card-form.js';
import type { ItemView, OrderView, PaymentPageView } from './views.js';

/** The hosted payment page: the order, the test-mode banner when it applies, and the card form, in the view's language. */
export function renderPaymentPage(view: PaymentPageView): string {
  const { order, language } = view;
  const hasErrors = view.notice !== undefined || Object.values(view.fieldErrors ?? {}).some((message) => message !== undefined);
  const title = `${hasErrors ? translate(language, 'error_prefix') : ''}${translate(language, 'pay_title', { merchant: order.merchantName })}`;
  const parts = [order.livemode ? undefined : renderTestBanner(language), renderOrder(order, language, view.brand?.logoPath), renderForm(view)].filter((part) => part !== undefined);
  return layout(language, title, onLines(parts), view.brand?.accentColor === undefined ? {} : { accentColor: view.brand.accentColor });
}

/** Pieces of markup one per line. */
function onLines(parts: readonly Html[]): Html {
  return joinHtml(parts, '\n');
}

function renderTestBanner(language: Language): Html {
  // Card numbers read left to right in every language, as on the card itself.
  const cards = TEST_CARDS.map(
    (card) => html`<li><span class="card-number" dir="ltr">${groupDigits(card.number)}</span> <span class="card-label" lang="en" dir="ltr">${card.label}</span></li>`,
  );
  // Not a heading: it sits above the page's h1, and a h2 there would break the outline.
  return html`<section class="test-banner" aria-labelledby="test-mode-heading">
<p class="test-banner-title" id="test-mode-heading">${translate(language, 'test_mode')}</p>
<p>${translate(language, 'test_mode_text')}</p>
<ul class="test-cards">
${onLines(cards)}
</ul>
</section>`;
}

/** "4242424242424242" → "4242 4242 4242 4242". */
function groupDigits(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

function renderOrder(order: OrderView, language: Language, logoPath: string | undefined): Html {
  const lines = [html`${brandLogo(logoPath, order.merchantName)}<p class="merchant">${order.merchantName}</p>`, html`<h1 class="amount">${chargedAmount(order, language)}</h1>`];
  if (order.original !== undefined) {
    const original = formatAmount(order.original.amount, order.original.currency, language);
    lines.push(html`<p class="original">${translate(language, 'ordered_as', { amount: original })}</p>`);
  }
  if (order.description !== '') lines.push(html`<p class="description">${order.description}</p>`);
  if (order.items.length > 0) lines.push(renderItems(order.items, order.original?.currency ?? 'TND', language));
  lines.push(html`<p class="order-number">${translate(language, 'order_number_line', { number: order.orderNumber })}</p>`);
  return html`<section class="order" aria-label="${translate(language, 'order_label')}">\n${onLines(lines)}\n</section>`;
}

/** Unit prices are in the currency the merchant asked in, so they carry that code. */
function renderItems(items: readonly ItemView[], currency: string, language: Language): Html {
  const t = (key: MessageKey) => translate(language, key);
  const withPrices = items.some((item) => item.unit_price !== undefined);
  const rows = items.map((item) => {
    const description = item.description === undefined ? '' : html`<span class="item-description">${item.description}</span>`;
    const price = withPrices ? html`<td class="num">${item.unit_price === undefined ? '' : formatAmount(item.unit_price, currency, language)}</td>` : '';
    return html`<tr><th scope="row">${item.name}${description}</th><td class="num">${item.quantity}</td>${price}</tr>`;
  });
  const priceHeader = withPrices ? html`<th scope="col" class="num">${t('unit_price')}</th>` : '';
  return html`<table class="items">
<caption>${t('items_caption')}</caption>
<thead><tr><th scope="col">${t('item')}</th><th scope="col" class="num">${t('quantity')}</th>${priceHeader}</tr></thead>
<tbody>
${onLines(rows)}
</tbody>
</table>`;
}

interface FieldSpec {
  name: CardField;
  /** Attributes beyond id, name and type: constants of this file, written as they are. */
  attributes: Html;
  hint?: MessageKey;
}

// Card number, expiry and code are typed left to right whatever the page's direction, as on the card and as bank pages do.
const FIELDS: readonly FieldSpec[] = [
  { name: 'card_number', attributes: trustedHtml('inputmode="numeric" autocomplete="cc-number" spellcheck="false" dir="ltr"') },
  { name: 'expiry', attributes: trustedHtml('autocomplete="cc-exp" placeholder="MM/YY" spellcheck="false" dir="ltr"'), hint: 'expiry_hint' },
  { name: 'cvc', attributes: trustedHtml('inputmode="numeric" autocomplete="cc-csc" maxlength="4" spellcheck="false" dir="ltr"'), hint: 'cvc_hint' },
  { name: 'cardholder_name', attributes: trustedHtml('autocomplete="cc-name" spellcheck="false"') },
];

function renderForm(view: PaymentPageView): Html {
  const { language } = view;
  const fields = FIELDS.map((field) => renderField(language, field, view.fieldErrors?.[field.name], putBack(view, field.name)));
  const pay = translate(language, 'pay_button', { amount: chargedAmount(view.order, language) });
  // The page's language travels with the card, so the payment continues in it (3-D Secure, the acquirer's pages).
  return html`${renderNotice(view)}<form class="payment-form" method="post" action="${view.actionUrl}" autocomplete="on" novalidate>
<input type="hidden" name="language" value="${language}">
${onLines(fields)}
<button type="submit" class="pay">${pay}</button>
</form>
<p class="cancel"><a href="${view.cancelHref}" rel="nofollow">${translate(language, 'cancel_link')}</a></p>`;
}

/** Only expiry and name are ever put back: the card number and security code are re-typed, whatever the caller passes. */
function putBack(view: PaymentPageView, field: CardField): string | undefined {
  if (field === 'expiry') return view.values?.expiry;
  if (field === 'cardholder_name') return view.values?.cardholder_name;
  return undefined;
}

function renderNotice(view: PaymentPageView): Html {
  const attempts = view.attemptsLeft === undefined ? undefined : html`<p class="attempts">${attemptsText(view.language, view.attemptsLeft)}</p>`;
  if (view.notice === undefined) return attempts === undefined ? html`` : html`${attempts}\n`;
  return html`<div class="notice" role="alert">
<p>${view.notice}</p>${attempts === undefined ? '' : html`\n${attempts}`}
</div>
`;
}

function attemptsText(language: Language, left: number): string {
  if (left <= 0) return translate(language, 'attempts_none');
  return left === 1 ? translate(language, 'attempts_one') : translate(language, 'attempts_many', { n: left });
}

function renderField(language: Language, field: FieldSpec, error: string | undefined, value: string | undefined): Html {
  return renderFormField(language, {
    name: field.name,
    type: 'text',
    label: translate(language, field.name),
    attributes: field.attributes,
    ...(field.hint !== undefined && { hint: translate(language, field.hint) }),
    ...(error !== undefined && { error }),
    ...(value !== undefined && { value }),
  });
}
