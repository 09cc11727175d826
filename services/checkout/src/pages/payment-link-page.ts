/** A payment link's page (D19): what the link sells and the buyer's form; and the pages of a payment link that takes no payment. */
import { formatAmount } from '@gateway/i18n';
import { html, joinHtml, trustedHtml, type Html } from '@gateway/runtime';
import type { BrandView } from '../domain/branding.js';
import type { BuyerField, BuyerFieldProblem, PaymentLinkPageView } from '../domain/pay-by-payment-link.js';
import type { MessageKey, PageTranslate } from './catalogue/index.js';
import { renderFormField } from './form-field.js';
import { brandLogo, layout } from './layout.js';

interface FieldSpec {
  name: BuyerField;
  label: MessageKey;
  type: 'text' | 'email' | 'tel';
  /** Attributes beyond id, name and type: constants of this file, written as they are. */
  attributes: Html;
}

// An email, a phone number and an amount read left to right in every language.
const FIELDS: readonly FieldSpec[] = [
  { name: 'first_name', label: 'payment_link_first_name', type: 'text', attributes: trustedHtml('autocomplete="given-name" maxlength="100"') },
  { name: 'last_name', label: 'payment_link_last_name', type: 'text', attributes: trustedHtml('autocomplete="family-name" maxlength="100"') },
  { name: 'email', label: 'payment_link_email', type: 'email', attributes: trustedHtml('autocomplete="email" maxlength="255" spellcheck="false" dir="ltr"') },
  { name: 'phone', label: 'payment_link_phone', type: 'tel', attributes: trustedHtml('autocomplete="tel" maxlength="20" dir="ltr"') },
  { name: 'amount', label: 'payment_link_amount', type: 'text', attributes: trustedHtml('inputmode="decimal" placeholder="0.000" spellcheck="false" dir="ltr"') },
];

/** The payment link's page: merchant, description, price (or the open amount's bounds), items, and the buyer's form. */
export function renderPaymentLinkPage(t: PageTranslate, view: PaymentLinkPageView, brand: BrandView = {}): string {
  const hasErrors = Object.keys(view.fieldErrors).length > 0;
  const title = `${hasErrors ? t('error_prefix') : ''}${t('pay_title', { merchant: view.merchantName })}`;
  const lines: Html[] = [];
  if (!view.livemode) lines.push(html`<p class="test-tag">${t('test_tag')}</p>`);
  lines.push(html`${brandLogo(brand.logoPath, view.merchantName)}<p class="merchant">${view.merchantName}</p>`);
  if (view.price) lines.push(html`<h1 class="amount">${formatAmount(view.price.amount, view.price.currency, t.language)}</h1>`);
  else lines.push(html`<h1 class="amount">${t('pay_title', { merchant: view.merchantName })}</h1>`);
  lines.push(html`<p class="description">${view.description}</p>`);
  if (view.items.length > 0) {
    const items = view.items.map((item) => html`<li>${item.name} × <span dir="ltr">${item.quantity}</span></li>`);
    lines.push(html`<ul class="link-items" aria-label="${t('items_caption')}">\n${joinHtml(items, '\n')}\n</ul>`);
  }
  const fields = FIELDS.filter((field) => (field.name === 'phone' ? view.collectPhone : field.name === 'amount' ? view.bounds !== undefined : true)).map((field) =>
    renderField(t, view, field),
  );
  const body = html`<section class="order">
${joinHtml(lines, '\n')}
</section>
<form class="payment-form" method="post" action="${view.actionUrl}" autocomplete="on" novalidate>
${joinHtml(fields, '\n')}
<button type="submit" class="pay">${t('payment_link_continue')}</button>
</form>`;
  return layout(t, title, body, brand.accentColor === undefined ? {} : { accentColor: brand.accentColor });
}

function renderField(t: PageTranslate, view: PaymentLinkPageView, field: FieldSpec): Html {
  const error = view.fieldErrors[field.name];
  return renderFormField(t, {
    name: field.name,
    type: field.type,
    label: t(field.label),
    attributes: field.attributes,
    ...(field.name === 'amount' && { hint: amountHint(t, view) }),
    ...(error !== undefined && { error: problemText(t, view, error) }),
    ...(view.values[field.name] !== undefined && { value: view.values[field.name] }),
  });
}

function tnd(t: PageTranslate, amount: string): string {
  return formatAmount(amount, 'TND', t.language);
}

function amountHint(t: PageTranslate, view: PaymentLinkPageView): string {
  const { min, max } = view.bounds ?? {};
  if (min !== undefined && max !== undefined) return t('payment_link_amount_hint_between', { min: tnd(t, min), max: tnd(t, max) });
  if (min !== undefined) return t('payment_link_amount_hint_min', { min: tnd(t, min) });
  if (max !== undefined) return t('payment_link_amount_hint_max', { max: tnd(t, max) });
  return t('payment_link_amount_hint');
}

function problemText(t: PageTranslate, view: PaymentLinkPageView, problem: BuyerFieldProblem): string {
  const { min = '', max = '' } = view.bounds ?? {};
  if (problem === 'too_small') return t('payment_link_error_too_small', { min: tnd(t, min) });
  if (problem === 'too_large') return t('payment_link_error_too_large', { max: tnd(t, max) });
  return t(problem === 'required' ? 'payment_link_error_required' : 'payment_link_error_invalid');
}

/** A deactivated, expired or fully used payment link (410), or too many requests from one address (429). */
export function renderPaymentLinkNoticePage(t: PageTranslate, notice: 'closed' | 'limited'): string {
  const heading = t(notice === 'closed' ? 'payment_link_closed_title' : 'payment_link_limited_title');
  const text = t(notice === 'closed' ? 'payment_link_closed_text' : 'payment_link_limited_text');
  return layout(t, heading, html`<h1>${heading}</h1>\n<p>${text}</p>`);
}
