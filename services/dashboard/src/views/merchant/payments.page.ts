/** Payments (D14): the merchant's sessions of the mode in view, newest first, searched, filtered by status and dates, and paged. */
import { SessionStatus, type SessionList } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { table, when, type PageView, type Reader } from '../layout.js';
import { cursorPager, type Cursors } from '../pager.js';
import { BASE } from '../paths.js';
import type { Words } from '../texts/catalogue.js';

const STATUSES = SessionStatus.anyOf.map((literal) => literal.const);

/** The list's search and filters, as typed. */
interface PaymentFilter {
  search: string;
  status: string;
  from: string;
  to: string;
}

/** One session as a row of a list of payments; with `linkBack`, a link to the payment link it was paid through. */
export function sessionRow(t: Words, s: SessionList['data'][number], linkBack: boolean): Html {
  return html`<tr><td><a href="${BASE}/payments/${s.id}">${s.order_number || s.id}</a></td><td>${s.merchant_reference}${
    linkBack && s.payment_link ? html`<br><a href="${BASE}/payment-links/${s.payment_link}" class="muted" data-field="payment_link">${t('payment_link')}</a>` : ''
  }</td>
<td class="num"><bdi>${s.amount} TND</bdi>${s.original.currency !== 'TND' ? html`<br><bdi class="muted">${s.original.amount} ${s.original.currency}</bdi>` : ''}</td>
<td>${s.status}</td><td>${[s.buyer_first_name, s.buyer_last_name].filter(Boolean).join(' ')}</td><td>${when(s.created_at)}</td></tr>`;
}

/** The Payments page: the search form, and a page of `list`. */
export function paymentsPage(reader: Reader, filter: PaymentFilter, list: SessionList, cursors: Cursors): PageView {
  const { t } = reader;
  const { search, status, from, to } = filter;
  const keep = new URLSearchParams({ ...(status && { status }), ...(search && { q: search }), ...(from && { from }), ...(to && { to }) });
  const page = (cursor: string, id: string) => `${BASE}/payments?${new URLSearchParams([...keep, [cursor, id]]).toString()}`;
  const body = html`<h1>${t('payments_section')}</h1>
<form method="get" action="${BASE}/payments" class="row" role="search">
<label>${t('search')} <input name="q" value="${search}" placeholder="ps_… / ${t('reference')}"></label>
<label>${t('status')} <select name="status"><option value="">${t('any_status')}</option>${STATUSES.map((s) => html`<option${s === status ? html` selected` : ''}>${s}</option>`)}</select></label>
<label>${t('from_date')} <input type="date" name="from" value="${from}"></label>
<label>${t('to_date')} <input type="date" name="to" value="${to}"></label>
<button type="submit">${t('filter_button')}</button>
</form>
<div class="card">${table([t('order'), t('reference'), t('amount'), t('status'), t('buyer'), t('created')], list.data.map((s) => sessionRow(t, s, true)), t('no_payments_yet'), [2])}
${cursorPager(t, list, cursors, page)}</div>`;
  return { title: t('payments_section'), body };
}
