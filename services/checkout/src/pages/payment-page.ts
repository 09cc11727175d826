/** The hosted card page (D9): the order, the test-mode banner when it applies, the card form and, beside it, Flouci (D26). */
import { formatAmount } from '@gateway/i18n';
import { TEST_CARDS } from '@gateway/test-cards';
import { html, joinHtml, trustedHtml, type Html } from '@gateway/runtime';
import type { CardField } from '../domain/card-form.js';
import type { MessageKey, PageTranslate } from './catalogue/index.js';
import { renderFormField } from './form-field.js';
import { brandLogo, layout } from './layout.js';
import { chargedAmount } from './order-summary.js';
import type { ItemView, OrderView, PaymentPageView } from './views.js';

/** The hosted payment page in the words of `t`: the order, the test-mode banner when it applies, and the card form. */
export function renderPaymentPage(t: PageTranslate, view: PaymentPageView): string {
  const { order } = view;
  const hasErrors = view.notice !== undefined || Object.values(view.fieldErrors ?? {}).some((message) => message !== undefined);
  const title = `${hasErrors ? t('error_prefix') : ''}${t('pay_title', { merchant: order.merchantName })}`;
  const parts = [order.livemode ? undefined : renderTestBanner(t), renderOrder(t, order, view.brand?.logoPath), renderForm(t, view)].filter((part) => part !== undefined);
  return layout(t, title, onLines(parts), view.brand?.accentColor === undefined ? {} : { accentColor: view.brand.accentColor });
}

/** Pieces of markup one per line. */
function onLines(parts: readonly Html[]): Html {
  return joinHtml(parts, '\n');
}

function renderTestBanner(t: PageTranslate): Html {
  // Card numbers read left to right in every language, as on the card itself.
  const cards = TEST_CARDS.map(
    (card) => html`<li><span class="card-number" dir="ltr">${groupDigits(card.number)}</span> <span class="card-label" lang="en" dir="ltr">${card.label}</span></li>`,
  );
  // Not a heading: it sits above the page's h1, and a h2 there would break the outline.
  return html`<section class="test-banner" aria-labelledby="test-mode-heading">
<p class="test-banner-title" id="test-mode-heading">${t('test_mode')}</p>
<p>${t('test_mode_text')}</p>
<ul class="test-cards">
${onLines(cards)}
</ul>
</section>`;
}

/** "4242424242424242" → "4242 4242 4242 4242". */
function groupDigits(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

function renderOrder(t: PageTranslate, order: OrderView, logoPath: string | undefined): Html {
  const lines = [html`${brandLogo(logoPath, order.merchantName)}<p class="merchant">${order.merchantName}</p>`, html`<h1 class="amount">${chargedAmount(t, order)}</h1>`];
  if (order.original !== undefined) {
    const original = formatAmount(order.original.amount, order.original.currency, t.language);
    lines.push(html`<p class="original">${t('ordered_as', { amount: original })}</p>`);
  }
  if (order.description !== '') lines.push(html`<p class="description">${order.description}</p>`);
  if (order.items.length > 0) lines.push(renderItems(t, order.items, order.original?.currency ?? 'TND'));
  lines.push(html`<p class="order-number">${t('order_number_line', { number: order.orderNumber })}</p>`);
  return html`<section class="order" aria-label="${t('order_label')}">\n${onLines(lines)}\n</section>`;
}

/** Unit prices are in the currency the merchant asked in, so they carry that code. */
function renderItems(t: PageTranslate, items: readonly ItemView[], currency: string): Html {
  const withPrices = items.some((item) => item.unit_price !== undefined);
  const rows = items.map((item) => {
    const description = item.description === undefined ? '' : html`<span class="item-description">${item.description}</span>`;
    const price = withPrices ? html`<td class="num">${item.unit_price === undefined ? '' : formatAmount(item.unit_price, currency, t.language)}</td>` : '';
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

function renderForm(t: PageTranslate, view: PaymentPageView): Html {
  const fields = FIELDS.map((field) => renderField(t, field, view.fieldErrors?.[field.name], putBack(view, field.name)));
  const pay = t('pay_button', { amount: chargedAmount(t, view.order) });
  // The page's language travels with the card, so the payment continues in it (3-D Secure, the acquirer's pages).
  const cardForm = html`<form class="payment-form" method="post" action="${view.actionUrl}" autocomplete="on" novalidate>
<input type="hidden" name="language" value="${t.language}">
${onLines(fields)}${renderSaveCard(t, view.saveCard)}
<button type="submit" class="pay">${pay}</button>
</form>`;
  const savedCards = view.savedCards ?? [];
  // D24: with saved cards the usual form is "Use another card", open when it is the one that was refused.
  const forms =
    savedCards.length === 0
      ? cardForm
      : html`${renderSavedCards(t, view, savedCards, pay)}
<details class="another-card"${view.fieldErrors === undefined ? '' : html` open`}><summary>${t('use_another_card')}</summary>
${cardForm}
</details>`;
  return html`${renderNotice(t, view)}${forms}${renderWallets(t, view.flouciActionUrl)}
<p class="cancel"><a href="${view.cancelHref}" rel="nofollow">${t('cancel_link')}</a></p>`;
}

/** D24: the customer's saved cards, one chosen (the first, or the one refused), paid with by its security code alone. */
function renderSavedCards(t: PageTranslate, view: PaymentPageView, cards: readonly { id: string; label: string }[], pay: string): Html {
  const chosen = cards.some((card) => card.id === view.savedRefused?.paymentMethod) ? view.savedRefused?.paymentMethod : cards[0]?.id;
  const choices = cards.map(
    (card) =>
      html`<p class="saved-card"><input type="radio" id="card-${card.id}" name="payment_method" value="${card.id}"${card.id === chosen ? html` checked` : ''}> <label for="card-${card.id}"><bdi dir="ltr">${card.label}</bdi></label></p>`,
  );
  const code = renderFormField(t, {
    name: 'saved_cvc',
    type: 'text',
    label: t('cvc'),
    attributes: trustedHtml('inputmode="numeric" autocomplete="cc-csc" maxlength="3" spellcheck="false" dir="ltr"'),
    hint: t('cvc_hint'),
    ...(view.savedRefused !== undefined && { error: view.savedRefused.error }),
  });
  return html`<form class="payment-form saved-card-form" method="post" action="${view.actionUrl}" novalidate>
<input type="hidden" name="language" value="${t.language}">
<fieldset><legend>${t('saved_cards_title')}</legend>
${onLines(choices)}
</fieldset>
${code}
<button type="submit" class="pay">${pay}</button>
</form>`;
}

/**
 * D26: Flouci beside the card form, in a form of its own that asks nothing of
 * the buyer here (Flouci's page does): the button, and the page's language
 * for the payment to go on in. Shown again after a failed attempt, as the card form is.
 */
function renderWallets(t: PageTranslate, actionUrl: string | undefined): Html | string {
  if (actionUrl === undefined) return '';
  return html`
<section class="wallets" aria-labelledby="wallets-heading">
<h2 id="wallets-heading">${t('wallets_title')}</h2>
<form class="wallet-form" method="post" action="${actionUrl}">
<input type="hidden" name="language" value="${t.language}">
<button type="submit" class="button">${t('pay_with_flouci')}</button>
</form>
</section>`;
}

/** D24: the box that saves the card for the buyer's next payments (unticked), or the sentence that says the merchant may charge it later. */
function renderSaveCard(t: PageTranslate, saveCard: PaymentPageView['saveCard']): Html | string {
  if (saveCard === 'on_session') return html`
<p class="save-card"><input type="checkbox" id="save_card" name="save_card" value="yes"> <label for="save_card">${t('save_card')}</label></p>`;
  if (saveCard === 'off_session') return html`
<p class="save-card mandate">${t('save_card_mandate')}</p>`;
  return '';
}

/** Only expiry and name are ever put back: the card number and security code are re-typed, whatever the caller passes. */
function putBack(view: PaymentPageView, field: CardField): string | undefined {
  if (field === 'expiry') return view.values?.expiry;
  if (field === 'cardholder_name') return view.values?.cardholder_name;
  return undefined;
}

function renderNotice(t: PageTranslate, view: PaymentPageView): Html {
  // No attempt left and fewer are the same to the buyer.
  const attempts = view.attemptsLeft === undefined ? undefined : html`<p class="attempts">${t('attempts_left', { count: Math.max(0, view.attemptsLeft) })}</p>`;
  if (view.notice === undefined) return attempts === undefined ? html`` : html`${attempts}\n`;
  return html`<div class="notice" role="alert">
<p>${view.notice}</p>${attempts === undefined ? '' : html`\n${attempts}`}
</div>
`;
}

function renderField(t: PageTranslate, field: FieldSpec, error: string | undefined, value: string | undefined): Html {
  return renderFormField(t, {
    name: field.name,
    type: 'text',
    label: t(field.name),
    attributes: field.attributes,
    ...(field.hint !== undefined && { hint: t(field.hint) }),
    ...(error !== undefined && { error }),
    ...(value !== undefined && { value }),
  });
}
