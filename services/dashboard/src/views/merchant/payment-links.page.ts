/**
 * Payment links (D19): the merchant's links of the mode in view, newest
 * first, each with its URL, QR code and state, and "Create link" for
 * developers and owners (not in live mode before the business is verified).
 */
import type { PaymentLinkList } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { csrfField, modeBadge, table, when, type PageView, type Reader } from '../layout.js';
import { cursorPager, type Cursors } from '../pager.js';
import type { TextKey } from '../texts/catalogue.js';
import { deactivateButton, LINKS, localeName, priceOf, qrOf, stateBadge } from './payment-link-parts.js';

const LOCALES = ['auto', 'fr', 'en', 'ar'] as const;

/** "Create link" as filled in: every field as typed, to show a refused form again. */
export interface LinkDraft {
  description: string;
  pricing: 'fixed' | 'open';
  amount: string;
  currency: string;
  amount_min: string;
  amount_max: string;
  max_payments: string;
  expires_at: string;
  collect_phone: boolean;
  locale: string;
  return_url: string;
}

/** "Create link", filled with `draft` when a refused one is shown again. */
function createForm(reader: Reader, draft: LinkDraft | undefined): Html {
  const { t } = reader;
  const pricing = draft?.pricing ?? 'fixed';
  const radio = (value: 'fixed' | 'open', label: TextKey) =>
    html`<label class="inline"><input type="radio" name="pricing" value="${value}"${pricing === value ? html` checked` : ''}> ${t(label)}</label>`;
  const chosen = draft?.locale || 'auto';
  // No check of the fields here (novalidate: not the browser's either): the API's create judges them, and its problem is shown as it answers.
  return html`<section class="card"><h2>${t('create_link')}</h2>
<form method="post" action="${LINKS}" class="stack" novalidate>${csrfField(reader.csrf)}
<label>${t('description')} <input name="description" value="${draft?.description ?? ''}" maxlength="500" size="48"></label>
<fieldset><legend>${t('price')}</legend>
${radio('fixed', 'fixed_price')}
<div class="row"><label>${t('amount')} <input name="amount" inputmode="decimal" value="${draft?.amount ?? ''}" placeholder="45.000"></label>
<label>${t('currency')} <input name="currency" value="${draft?.currency || 'TND'}" maxlength="3" size="4" autocapitalize="characters"></label></div>
${radio('open', 'open_amount')}
<div class="row"><label>${t('least_amount')} <input name="amount_min" inputmode="decimal" value="${draft?.amount_min ?? ''}"></label>
<label>${t('most_amount')} <input name="amount_max" inputmode="decimal" value="${draft?.amount_max ?? ''}"></label></div>
<p class="muted">${t('open_amount_note')}</p>
</fieldset>
<label>${t('payments_allowed')} <input name="max_payments" inputmode="numeric" value="${draft?.max_payments ?? ''}" size="8" aria-describedby="max-payments-hint"></label>
<span id="max-payments-hint" class="muted">${t('payments_allowed_hint')}</span>
<label>${t('expires_at')} <input type="datetime-local" name="expires_at" value="${draft?.expires_at ?? ''}" step="1"></label>
<label class="inline"><input type="checkbox" name="collect_phone" value="1"${draft?.collect_phone ? html` checked` : ''}> ${t('ask_phone')}</label>
<label>${t('page_language')} <select name="locale">${LOCALES.map((l) => html`<option value="${l}"${l === chosen ? html` selected` : ''}>${localeName(t, l)}</option>`)}</select></label>
<label>${t('return_url')} <input type="url" name="return_url" value="${draft?.return_url ?? ''}" size="48" placeholder="https://"></label>
<div><button type="submit">${t('create_link')}</button></div>
</form></section>`;
}

/** What the list shows. */
interface LinksView {
  list: PaymentLinkList;
  cursors: Cursors;
  /** Whether the reader may deactivate links. */
  developer: boolean;
  /** Whether "Create link" is offered, and the refused one to show again. */
  creates: boolean;
  draft?: LinkDraft;
}

/** The list of payment links, with the outcome of a change when there is one. */
export function paymentLinksPage(reader: Reader, links: LinksView, message?: Html): PageView {
  const { t } = reader;
  const rows = links.list.data.map(
    (l) => html`<tr data-link="${l.id}"><td><a href="${LINKS}/${l.id}">${l.description}</a><br><code class="address" data-field="url">${l.url}</code></td>
<td class="num">${priceOf(t, l)}</td><td>${stateBadge(t, l)}</td><td class="num" data-field="payments_count">${l.payments_count}${l.max_payments !== null ? html` / ${l.max_payments}` : ''}</td>
<td>${qrOf(t, l, 96)}</td><td>${when(l.created_at)}</td><td>${deactivateButton(reader, links.developer, l)}</td></tr>`,
  );
  const page = (cursor: string, id: string) => `${LINKS}?${new URLSearchParams([[cursor, id]]).toString()}`;
  const body = html`<h1>${t('payment_links_section')} ${modeBadge(reader)}</h1>
${message ?? ''}
<p class="muted">${t('payment_links_intro')}</p>
${links.creates ? createForm(reader, links.draft) : ''}
<section class="card"><h2>${t('links')}</h2>
${table([t('description'), t('price'), t('status'), t('payments'), t('qr_code'), t('created'), ''], rows, t('no_links_yet'), [1, 3])}
${cursorPager(t, links.list, links.cursors, page)}</section>`;
  return { title: t('payment_links_section'), body };
}
