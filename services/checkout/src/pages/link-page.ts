/** A payment link's page (D19): what the link sells and the buyer's form; and the pages of a link that takes no payment. */
import { html, joinHtml, trustedHtml, type Html } from '@gateway/runtime';
import type { BuyerField, BuyerFieldProblem, LinkPageView } from '../domain/pay-by-link.js';
import { renderFormField } from './form-field.js';
import { brandLogo, layout } from './layout.js';
import type { BrandView } from '../domain/branding.js';
import { formatAmount, translate, type Language, type MessageKey } from './messages/index.js';

interface FieldSpec {
  name: BuyerField;
  label: MessageKey;
  type: 'text' | 'email' | 'tel';
  /** Attributes beyond id, name and type: constants of this file, written as they are. */
  attributes: Html;
}

// An email, a phone number and an amount read left to right in every language.
const FIELDS: readonly FieldSpec[] = [
  { name: 'first_name', label: 'link_first_name', type: 'text', attributes: trustedHtml('autocomplete="given-name" maxlength="100"') },
  { name: 'last_name', label: 'link_last_name', type: 'text', attributes: trustedHtml('autocomplete="family-name" maxlength="100"') },
  { name: 'email', label: 'link_email', type: 'email', attributes: trustedHtml('autocomplete="email" maxlength="255" spellcheck="false" dir="ltr"') },
  { name: 'phone', label: 'link_phone', type: 'tel', attributes: trustedHtml('autocomplete="tel" maxlength="20" dir="ltr"') },
  { name: 'amount', label: 'link_amount', type: 'text', attributes: trustedHtml('inputmode="decimal" placeholder="0.000" spellcheck="false" dir="ltr"') },
];

/** The link's page: merchant, description, price (or the open amount's bounds), items, and the buyer's form. */
export function renderLinkPage(view: LinkPageView, brand: BrandView = {}): string {
  const { language } = view;
  const t = (key: MessageKey, values?: Record<string, string>) => translate(language, key, values);
  const hasErrors = Object.keys(view.fieldErrors).length > 0;
  const title = `${hasErrors ? t('error_prefix') : ''}${t('pay_title', { merchant: view.merchantName })}`;
  const lines: Html[] = [];
  if (!view.livemode) lines.push(html`<p class="test-tag">${t('test_tag')}</p>`);
  lines.push(html`${brandLogo(brand.logoPath, view.merchantName)}<p class="merchant">${view.merchantName}</p>`);
  if (view.price) lines.push(html`<h1 class="amount">${formatAmount(view.price.amount, view.price.currency, language)}</h1>`);
  else lines.push(html`<h1 class="amount">${t('pay_title', { merchant: view.merchantName })}</h1>`);
  lines.push(html`<p class="description">${view.description}</p>`);
  if (view.items.length > 0) {
    const items = view.items.map((item) => html`<li>${item.name} × <span dir="ltr">${item.quantity}</span></li>`);
    lines.push(html`<ul class="link-items" aria-label="${t('items_caption')}">\n${joinHtml(items, '\n')}\n</ul>`);
  }
  const fields = FIELDS.filter((field) => (field.name === 'phone' ? view.collectPhone : field.name === 'amount' ? view.bounds !== undefined : true)).map((field) =>
    renderField(view, field),
  );
  const body = html`<section class="order">
${joinHtml(lines, '\n')}
</section>
<form class="payment-form" method="post" action="${view.actionUrl}" autocomplete="on" novalidate>
${joinHtml(fields, '\n')}
<button type="submit" class="pay">${t('link_continue')}</button>
</form>`;
  return layout(language, title, body, brand.accentColor === undefined ? {} : { accentColor: brand.accentColor });
}

function renderField(view: LinkPageView, field: FieldSpec): Html {
  const error = view.fieldErrors[field.name];
  return renderFormField(view.language, {
    name: field.name,
    type: field.type,
    label: translate(view.language, field.label),
    attributes: field.attributes,
    ...(field.name === 'amount' && { hint: amountHint(view) }),
    ...(error !== undefined && { error: problemText(view, error) }),
    ...(view.values[field.name] !== undefined && { value: view.values[field.name] }),
  });
}

function tnd(view: LinkPageView, amount: string): string {
  return formatAmount(amount, 'TND', view.language);
}

function amountHint(view: LinkPageView): string {
  const { min, max } = view.bounds ?? {};
  if (min !== undefined && max !== undefined) return translate(view.language, 'link_amount_hint_between', { min: tnd(view, min), max: tnd(view, max) });
  if (min !== undefined) return translate(view.language, 'link_amount_hint_min', { min: tnd(view, min) });
  if (max !== undefined) return translate(view.language, 'link_amount_hint_max', { max: tnd(view, max) });
  return translate(view.language, 'link_amount_hint');
}

function problemText(view: LinkPageView, problem: BuyerFieldProblem): string {
  const { min = '', max = '' } = view.bounds ?? {};
  if (problem === 'too_small') return translate(view.language, 'link_error_too_small', { min: tnd(view, min) });
  if (problem === 'too_large') return translate(view.language, 'link_error_too_large', { max: tnd(view, max) });
  return translate(view.language, problem === 'required' ? 'link_error_required' : 'link_error_invalid');
}

/** A deactivated, expired or fully used link (410), or too many requests from one address (429). */
export function renderLinkNoticePage(language: Language, notice: 'closed' | 'limited'): string {
  const heading = translate(language, notice === 'closed' ? 'link_closed_title' : 'link_limited_title');
  const text = translate(language, notice === 'closed' ? 'link_closed_text' : 'link_limited_text');
  return layout(language, heading, html`<h1>${heading}</h1>\n<p>${text}</p>`);
}
