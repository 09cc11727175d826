import { TEST_CARDS } from '@gateway/contracts';
import { escapeHtml, layout } from './html.js';
import { formatAmount, translate, type Language, type MessageKey } from './messages/index.js';
import { chargedAmount } from './order-summary.js';
import type { CardField, ItemView, OrderView, PaymentPageView } from './views.js';

/** The hosted payment page: the order, the test-mode banner when it applies, and the card form, in the view's language. */
export function renderPaymentPage(view: PaymentPageView): string {
  const { order, language } = view;
  const hasErrors = view.notice !== undefined || Object.values(view.fieldErrors ?? {}).some((message) => message !== undefined);
  const title = `${hasErrors ? translate(language, 'error_prefix') : ''}${translate(language, 'pay_title', { merchant: order.merchantName })}`;
  const body = [order.livemode ? '' : renderTestBanner(language), renderOrder(order, language), renderForm(view)].filter(Boolean).join('\n');
  return layout(language, title, body);
}

function renderTestBanner(language: Language): string {
  // Card numbers read left to right in every language, as on the card itself.
  const cards = TEST_CARDS.map(
    (card) => `<li><span class="card-number" dir="ltr">${escapeHtml(groupDigits(card.number))}</span> <span class="card-label" lang="en" dir="ltr">${escapeHtml(card.label)}</span></li>`,
  ).join('\n');
  // Not a heading: it sits above the page's h1, and a h2 there would break the outline.
  return `<section class="test-banner" aria-labelledby="test-mode-heading">
<p class="test-banner-title" id="test-mode-heading">${escapeHtml(translate(language, 'test_mode'))}</p>
<p>${escapeHtml(translate(language, 'test_mode_text'))}</p>
<ul class="test-cards">
${cards}
</ul>
</section>`;
}

/** "4242424242424242" → "4242 4242 4242 4242". */
function groupDigits(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

function renderOrder(order: OrderView, language: Language): string {
  const lines = [
    `<p class="merchant">${escapeHtml(order.merchantName)}</p>`,
    `<h1 class="amount">${escapeHtml(chargedAmount(order, language))}</h1>`,
  ];
  if (order.original !== undefined) {
    const original = formatAmount(order.original.amount, order.original.currency, language);
    lines.push(`<p class="original">${escapeHtml(translate(language, 'ordered_as', { amount: original }))}</p>`);
  }
  if (order.description !== '') lines.push(`<p class="description">${escapeHtml(order.description)}</p>`);
  if (order.items.length > 0) lines.push(renderItems(order.items, order.original?.currency ?? 'TND', language));
  lines.push(`<p class="order-number">${escapeHtml(translate(language, 'order_number_line', { number: order.orderNumber }))}</p>`);
  return `<section class="order" aria-label="${escapeHtml(translate(language, 'order_label'))}">\n${lines.join('\n')}\n</section>`;
}

/** Unit prices are in the currency the merchant asked in, so they carry that code. */
function renderItems(items: readonly ItemView[], currency: string, language: Language): string {
  const t = (key: MessageKey) => escapeHtml(translate(language, key));
  const withPrices = items.some((item) => item.unit_price !== undefined);
  const rows = items.map((item) => {
    const description = item.description === undefined ? '' : `<span class="item-description">${escapeHtml(item.description)}</span>`;
    const price = withPrices ? `<td class="num">${item.unit_price === undefined ? '' : escapeHtml(formatAmount(item.unit_price, currency, language))}</td>` : '';
    return `<tr><th scope="row">${escapeHtml(item.name)}${description}</th><td class="num">${escapeHtml(item.quantity)}</td>${price}</tr>`;
  });
  const priceHeader = withPrices ? `<th scope="col" class="num">${t('unit_price')}</th>` : '';
  return `<table class="items">
<caption>${t('items_caption')}</caption>
<thead><tr><th scope="col">${t('item')}</th><th scope="col" class="num">${t('quantity')}</th>${priceHeader}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
}

interface FieldSpec {
  name: CardField;
  /** Attributes beyond id, name and type, already safe (constants only). */
  attributes: string;
  hint?: MessageKey;
}

// Card number, expiry and code are typed left to right whatever the page's direction, as on the card and as bank pages do.
const FIELDS: readonly FieldSpec[] = [
  { name: 'card_number', attributes: 'inputmode="numeric" autocomplete="cc-number" spellcheck="false" dir="ltr"' },
  { name: 'expiry', attributes: 'autocomplete="cc-exp" placeholder="MM/YY" spellcheck="false" dir="ltr"', hint: 'expiry_hint' },
  { name: 'cvc', attributes: 'inputmode="numeric" autocomplete="cc-csc" maxlength="4" spellcheck="false" dir="ltr"', hint: 'cvc_hint' },
  { name: 'cardholder_name', attributes: 'autocomplete="cc-name" spellcheck="false"' },
];

function renderForm(view: PaymentPageView): string {
  const { language } = view;
  const fields = FIELDS.map((field) => renderField(language, field, view.fieldErrors?.[field.name], putBack(view, field.name))).join('\n');
  const pay = translate(language, 'pay_button', { amount: chargedAmount(view.order, language) });
  // The page's language travels with the card, so the payment continues in it (3-D Secure, the acquirer's pages).
  return `${renderNotice(view)}<form class="payment-form" method="post" action="${escapeHtml(view.actionUrl)}" autocomplete="on" novalidate>
<input type="hidden" name="language" value="${language}">
${fields}
<button type="submit" class="pay">${escapeHtml(pay)}</button>
</form>
<p class="cancel"><a href="${escapeHtml(view.cancelHref)}" rel="nofollow">${escapeHtml(translate(language, 'cancel_link'))}</a></p>`;
}

/** Only expiry and name are ever put back: the card number and security code are re-typed, whatever the caller passes. */
function putBack(view: PaymentPageView, field: CardField): string | undefined {
  if (field === 'expiry') return view.values?.expiry;
  if (field === 'cardholder_name') return view.values?.cardholder_name;
  return undefined;
}

function renderNotice(view: PaymentPageView): string {
  const attempts = view.attemptsLeft === undefined ? '' : `<p class="attempts">${escapeHtml(attemptsText(view.language, view.attemptsLeft))}</p>`;
  if (view.notice === undefined) return attempts === '' ? '' : `${attempts}\n`;
  return `<div class="notice" role="alert">
<p>${escapeHtml(view.notice)}</p>${attempts === '' ? '' : `\n${attempts}`}
</div>
`;
}

function attemptsText(language: Language, left: number): string {
  if (left <= 0) return translate(language, 'attempts_none');
  return left === 1 ? translate(language, 'attempts_one') : translate(language, 'attempts_many', { n: left });
}

function renderField(language: Language, field: FieldSpec, error: string | undefined, value: string | undefined): string {
  const hintId = `${field.name}-hint`;
  const errorId = `${field.name}-error`;
  const describedBy = [field.hint === undefined ? undefined : hintId, error === undefined ? undefined : errorId].filter((id) => id !== undefined);
  const attributes = [
    `id="${field.name}"`,
    `name="${field.name}"`,
    'type="text"',
    field.attributes,
    'required',
    describedBy.length > 0 ? `aria-describedby="${describedBy.join(' ')}"` : '',
    error === undefined ? '' : 'aria-invalid="true"',
    value === undefined ? '' : `value="${escapeHtml(value)}"`,
  ].filter(Boolean);
  const label = escapeHtml(translate(language, field.name));
  const lines = [`<div class="field${error === undefined ? '' : ' field-invalid'}">`, `<label for="${field.name}">${label}</label>`];
  if (field.hint !== undefined) lines.push(`<p class="hint" id="${hintId}">${escapeHtml(translate(language, field.hint))}</p>`);
  if (error !== undefined) {
    lines.push(`<p class="field-error" id="${errorId}"><span class="visually-hidden">${escapeHtml(translate(language, 'error_prefix'))}</span>${escapeHtml(error)}</p>`);
  }
  lines.push(`<input ${attributes.join(' ')}>`, '</div>');
  return lines.join('\n');
}
