/** The console's Merchants (D15): searched by part of a name or a merchant id, filtered by status, and paged. */
import type { CommandReply } from '@gateway/contracts';
import { html } from '@gateway/runtime';
import { BACK_ARROW, FORWARD_ARROW, table, when, type PageView, type Reader } from '../layout.js';
import { OPS } from '../paths.js';
import type { TextKey } from '../texts/catalogue.js';

export const MERCHANTS = `${OPS}/merchants`;

const STATUS_NAMES: Readonly<Record<'active' | 'suspended', TextKey>> = { active: 'merchant_active', suspended: 'merchant_suspended_state' };

/** A page of merchants for the search `q` and the status filter, after the merchant `after` ('' for the first page). */
export function merchantsPage(reader: Reader, filter: { search: string; status: string; after: string }, list: CommandReply<'merchant.list'>): PageView {
  const { t } = reader;
  const { search, status, after } = filter;
  const keep = new URLSearchParams({ ...(search && { q: search }), ...(status && { status }) });
  const last = list.data[list.data.length - 1];
  const rows = list.data.map(
    (m) => html`<tr><td><a href="${MERCHANTS}/${m.merchant_id}">${m.name}</a></td><td><code>${m.merchant_id}</code></td><td>${m.order_prefix}</td>
<td><span class="badge">${m.status}</span></td><td>${m.kyb_approved_at ? when(m.kyb_approved_at) : t('pending')}</td><td>${when(m.created_at)}</td></tr>`,
  );
  const body = html`<h1>${t('merchants_section')}</h1>
<form method="get" action="${MERCHANTS}" class="row" role="search">
<label>${t('search')} <input name="q" value="${search}" maxlength="200" placeholder="${t('name')} / mer_…"></label>
<label>${t('status')} <select name="status"><option value="">${t('any_status')}</option>${(['active', 'suspended'] as const).map(
    (s) => html`<option value="${s}"${s === status ? html` selected` : ''}>${t(STATUS_NAMES[s])}</option>`,
  )}</select></label>
<button type="submit">${t('filter_button')}</button>
</form>
<div class="card">${table([t('name'), t('id'), t('prefix'), t('status'), t('kyb'), t('created')], rows, t('no_merchant_matches'))}
<nav class="pager" aria-label="${t('pages_nav')}">
${after !== '' ? html`<a href="${MERCHANTS}?${keep.toString()}">${BACK_ARROW} ${t('first_page')}</a>` : ''}
${last && list.has_more ? html`<a href="${MERCHANTS}?${new URLSearchParams([...keep, ['starting_after', last.merchant_id]]).toString()}">${t('older_page')} ${FORWARD_ARROW}</a>` : ''}
</nav></div>`;
  return { title: t('merchants_section'), body };
}
