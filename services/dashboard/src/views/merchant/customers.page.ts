/**
 * Customers (D24): the list of the mode in view, newest first, searched by
 * email; one customer's page with its saved cards ("Remove card" for
 * developers and owners) and its payments.
 */
import type { Customer, CustomerList, PaymentMethod, SessionList } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { BACK_ARROW, csrfField, modeBadge, table, when, type PageView, type Reader } from '../layout.js';
import { cursorPager, type Cursors } from '../pager.js';
import { BASE } from '../paths.js';
import type { Words } from '../texts/catalogue.js';
import { sessionRow } from './payments.page.js';

export const CUSTOMERS = `${BASE}/customers`;

/** The list page: the email searched for, if any, and a page of customers. */
export function customersPage(reader: Reader, email: string, list: CustomerList, cursors: Cursors): PageView {
  const { t } = reader;
  const keep = new URLSearchParams(email ? { email } : {});
  const page = (cursor: string, id: string) => `${CUSTOMERS}?${new URLSearchParams([...keep, [cursor, id]]).toString()}`;
  const rows = list.data.map(
    (c) => html`<tr data-customer="${c.id}"><td><a href="${CUSTOMERS}/${c.id}">${c.name ?? c.email ?? c.id}</a></td><td>${c.email ?? '—'}</td><td>${c.external_id ?? '—'}</td>
<td>${t('saved_cards_count', { count: c.payment_methods.length })}</td><td>${when(c.created_at)}</td></tr>`,
  );
  const body = html`<h1>${t('customers_section')} ${modeBadge(reader)}</h1>
<p class="muted">${t('customers_intro')}</p>
<form method="get" action="${CUSTOMERS}" class="row" role="search">
<label>${t('search_by_email')} <input type="email" name="email" value="${email}" dir="ltr"></label>
<button type="submit">${t('filter_button')}</button>
</form>
<div class="card">${table([t('customer_name'), t('customer_email'), t('external_id'), t('saved_cards'), t('created')], rows, email ? t('no_customers_found') : t('no_customers_yet'))}
${cursorPager(t, list, cursors, page)}</div>`;
  return { title: t('customers_section'), body };
}

/** What a customer's page shows. */
interface CustomerView {
  customer: Customer;
  payments: SessionList;
  cursors: Cursors;
  /** Whether the reader may remove cards. */
  developer: boolean;
}

/** One customer: who it is, its saved cards, and its payments, paged. */
export function customerPage(reader: Reader, view: CustomerView, message?: Html): PageView {
  const { t } = reader;
  const { customer, payments } = view;
  const page = (cursor: string, at: string) => `${CUSTOMERS}/${customer.id}?${new URLSearchParams([[cursor, at]]).toString()}`;
  const cards = customer.payment_methods.map((card) => cardRow(reader, customer, card, view.developer));
  const body = html`<p><a href="${CUSTOMERS}">${BACK_ARROW} ${t('customers_section')}</a></p>
<h1>${customer.name ?? customer.email ?? customer.id} ${modeBadge(reader)}</h1>
${message ?? ''}
<div class="card"><dl class="facts">
<dt>${t('id')}</dt><dd><code>${customer.id}</code></dd>
<dt>${t('customer_email')}</dt><dd>${customer.email ?? '—'}</dd>
<dt>${t('customer_phone')}</dt><dd><bdi>${customer.phone ?? '—'}</bdi></dd>
<dt>${t('external_id')}</dt><dd>${customer.external_id ?? '—'}</dd>
<dt>${t('created')}</dt><dd>${when(customer.created_at)}</dd>
</dl></div>
<section class="card"><h2>${t('saved_cards')}</h2>
${table([t('card'), t('card_expiry'), t('card_usage'), t('created'), ''], cards, t('no_saved_cards'))}</section>
<section class="card"><h2>${t('customer_payments')}</h2>
${table([t('order'), t('reference'), t('amount'), t('status'), t('buyer'), t('created')], payments.data.map((s) => sessionRow(t, s, true)), t('no_customer_payments'), [2])}
${cursorPager(t, payments, view.cursors, page)}</section>`;
  return { title: `${t('customers_section')} ${customer.name ?? customer.email ?? customer.id}`, body };
}

function cardRow(reader: Reader, customer: Customer, card: PaymentMethod, developer: boolean): Html {
  const { t } = reader;
  const remove = developer
    ? html`<form method="post" action="${CUSTOMERS}/${customer.id}/cards/${card.id}/remove" class="inline" data-confirm="${t('remove_card_confirm')}">${csrfField(reader.csrf)}<button type="submit" class="danger">${t('remove_card')}</button></form>`
    : '';
  return html`<tr data-card="${card.id}"><td>${cardLabel(card)}</td><td><bdi>${String(card.exp_month).padStart(2, '0')}/${card.exp_year}</bdi></td><td>${usageName(t, card)}</td><td>${when(card.created_at)}</td><td>${remove}</td></tr>`;
}

/** `Visa •••• 4242`, as the hosted page labels a saved card (D24). */
function cardLabel(card: Pick<PaymentMethod, 'card_brand' | 'card_last_four'>): Html {
  const brand = card.card_brand === 'mastercard' ? 'Mastercard' : card.card_brand.charAt(0).toUpperCase() + card.card_brand.slice(1);
  return html`<bdi>${brand} •••• ${card.card_last_four}</bdi>`;
}

function usageName(t: Words, card: PaymentMethod): string {
  return card.usage === 'off_session' ? t('usage_off_session') : t('usage_on_session');
}
