import { TEST_CARDS } from '@gateway/contracts';
import { escapeHtml, layout } from './html.js';
import { formatTnd } from './order-summary.js';
import type { CardField, ItemView, OrderView, PaymentPageView } from './views.js';

/** The hosted payment page: the order, the test-mode banner when it applies, and the card form. */
export function renderPaymentPage(view: PaymentPageView): string {
  const { order } = view;
  const hasErrors = view.notice !== undefined || Object.values(view.fieldErrors ?? {}).some((message) => message !== undefined);
  const title = `${hasErrors ? 'Error: ' : ''}Pay ${order.merchantName}`;
  const body = [order.livemode ? '' : renderTestBanner(), renderOrder(order), renderForm(view)].filter(Boolean).join('\n');
  return layout(title, body);
}

function renderTestBanner(): string {
  const cards = TEST_CARDS.map(
    (card) => `<li><span class="card-number">${escapeHtml(groupDigits(card.number))}</span> <span class="card-label">${escapeHtml(card.label)}</span></li>`,
  ).join('\n');
  // Not a heading: it sits above the page's h1, and a h2 there would break the outline.
  return `<section class="test-banner" aria-labelledby="test-mode-heading">
<p class="test-banner-title" id="test-mode-heading">Test mode</p>
<p>This is a test payment: no real money moves and no card is charged. Use one of these test card numbers with any future expiry date, any 3-digit security code.</p>
<ul class="test-cards">
${cards}
</ul>
</section>`;
}

/** "4242424242424242" → "4242 4242 4242 4242". */
function groupDigits(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

function renderOrder(order: OrderView): string {
  const lines = [
    `<p class="merchant">${escapeHtml(order.merchantName)}</p>`,
    `<h1 class="amount">${escapeHtml(formatTnd(order.amount))}</h1>`,
  ];
  if (order.original !== undefined) {
    lines.push(`<p class="original">Ordered as ${escapeHtml(`${order.original.amount} ${order.original.currency}`)}</p>`);
  }
  if (order.description !== '') lines.push(`<p class="description">${escapeHtml(order.description)}</p>`);
  if (order.items.length > 0) lines.push(renderItems(order.items, order.original?.currency ?? 'TND'));
  lines.push(`<p class="order-number">Order number ${escapeHtml(order.orderNumber)}</p>`);
  return `<section class="order" aria-label="Order">\n${lines.join('\n')}\n</section>`;
}

/** Unit prices are in the currency the merchant asked in, so they carry that code. */
function renderItems(items: readonly ItemView[], currency: string): string {
  const withPrices = items.some((item) => item.unit_price !== undefined);
  const rows = items.map((item) => {
    const description = item.description === undefined ? '' : `<span class="item-description">${escapeHtml(item.description)}</span>`;
    const price = withPrices ? `<td class="num">${item.unit_price === undefined ? '' : escapeHtml(`${item.unit_price} ${currency}`)}</td>` : '';
    return `<tr><th scope="row">${escapeHtml(item.name)}${description}</th><td class="num">${escapeHtml(item.quantity)}</td>${price}</tr>`;
  });
  const priceHeader = withPrices ? '<th scope="col" class="num">Unit price</th>' : '';
  return `<table class="items">
<caption>Items</caption>
<thead><tr><th scope="col">Item</th><th scope="col" class="num">Quantity</th>${priceHeader}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
}

interface FieldSpec {
  name: CardField;
  label: string;
  /** Attributes beyond id, name and type, already safe (constants only). */
  attributes: string;
  hint?: string;
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'card_number', label: 'Card number', attributes: 'inputmode="numeric" autocomplete="cc-number" spellcheck="false"' },
  { name: 'expiry', label: 'Expiry date', attributes: 'autocomplete="cc-exp" placeholder="MM/YY" spellcheck="false"', hint: 'Month and year, for example 04/29' },
  { name: 'cvc', label: 'Security code', attributes: 'inputmode="numeric" autocomplete="cc-csc" maxlength="4" spellcheck="false"', hint: 'The 3 digits on the back of the card' },
  { name: 'cardholder_name', label: 'Name on card', attributes: 'autocomplete="cc-name" spellcheck="false"' },
];

function renderForm(view: PaymentPageView): string {
  const fields = FIELDS.map((field) => renderField(field, view.fieldErrors?.[field.name], putBack(view, field.name))).join('\n');
  return `${renderNotice(view)}<form class="payment-form" method="post" action="${escapeHtml(view.actionUrl)}" autocomplete="on" novalidate>
${fields}
<button type="submit" class="pay">Pay ${escapeHtml(formatTnd(view.order.amount))}</button>
</form>
<p class="cancel"><a href="${escapeHtml(view.cancelHref)}" rel="nofollow">Cancel payment</a></p>`;
}

/** Only expiry and name are ever put back: the card number and security code are re-typed, whatever the caller passes. */
function putBack(view: PaymentPageView, field: CardField): string | undefined {
  if (field === 'expiry') return view.values?.expiry;
  if (field === 'cardholder_name') return view.values?.cardholder_name;
  return undefined;
}

function renderNotice(view: PaymentPageView): string {
  const attempts = view.attemptsLeft === undefined ? '' : `<p class="attempts">${escapeHtml(attemptsText(view.attemptsLeft))}</p>`;
  if (view.notice === undefined) return attempts === '' ? '' : `${attempts}\n`;
  return `<div class="notice" role="alert">
<p>${escapeHtml(view.notice)}</p>${attempts === '' ? '' : `\n${attempts}`}
</div>
`;
}

function attemptsText(left: number): string {
  if (left <= 0) return 'No attempts left.';
  return left === 1 ? 'You can try 1 more time.' : `You can try ${left} more times.`;
}

function renderField(field: FieldSpec, error: string | undefined, value: string | undefined): string {
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
  const lines = [`<div class="field${error === undefined ? '' : ' field-invalid'}">`, `<label for="${field.name}">${field.label}</label>`];
  if (field.hint !== undefined) lines.push(`<p class="hint" id="${hintId}">${field.hint}</p>`);
  if (error !== undefined) lines.push(`<p class="field-error" id="${errorId}"><span class="visually-hidden">Error: </span>${escapeHtml(error)}</p>`);
  lines.push(`<input ${attributes.join(' ')}>`, '</div>');
  return lines.join('\n');
}
