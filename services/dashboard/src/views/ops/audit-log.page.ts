/**
 * The audit log in the console (D14, D15): every operator and dashboard
 * change, newest first, of all merchants or of one: who, when, what, on which
 * merchant and object, with what outcome, from which address, and the
 * command's data (secrets already left out by the service that recorded it).
 */
import type { AuditEntry, CommandReply } from '@gateway/contracts';
import { html } from '@gateway/runtime';
import { BACK_ARROW, FORWARD_ARROW, table, when, type PageView, type Reader } from '../layout.js';
import { OPS } from '../paths.js';
import type { Words } from '../texts/catalogue.js';

const SECTION = `${OPS}/audit-log`;

function entryRow(entry: AuditEntry, t: Words) {
  const who = entry.actor_email ?? entry.actor_id;
  return html`<tr data-audit="${entry.audit_id}"><td>${when(entry.at)}</td>
<td><span class="badge" data-field="actor_type">${entry.actor_type}</span> <span data-field="actor">${who}</span>${entry.actor_email ? html`<br><code class="muted">${entry.actor_id}</code>` : ''}</td>
<td><code data-field="action">${entry.action}</code></td>
<td>${entry.merchant_id ? html`<a href="${OPS}/merchants/${entry.merchant_id}"><code>${entry.merchant_id}</code></a>` : '—'}</td>
<td><bdi>${entry.target ?? '—'}</bdi></td><td data-field="outcome">${entry.outcome}</td><td><bdi>${entry.address ?? '—'}</bdi></td>
<td>${Object.keys(entry.detail).length > 0 ? html`<details><summary>${t('detail')}</summary><pre>${JSON.stringify(entry.detail, null, 2)}</pre></details>` : '—'}</td></tr>`;
}

/** A page of the log, of one merchant's entries when `merchant` is given, before the entry `before` ('' for the newest). */
export function opsAuditLogPage(reader: Reader, filter: { merchant: string; before: string }, log: CommandReply<'audit.list'>): PageView {
  const { t } = reader;
  const { merchant, before } = filter;
  const keep = new URLSearchParams(merchant ? { merchant } : {});
  const last = log.data[log.data.length - 1];
  const body = html`<h1>${t('audit_log_section')}</h1>
<form method="get" action="${SECTION}" class="row" role="search">
<label>${t('merchant')} <input name="merchant" value="${merchant}" placeholder="mer_…"></label>
<button type="submit">${t('filter_button')}</button>
${merchant ? html`<a href="${SECTION}">${t('all_merchants')}</a>` : ''}
</form>
<div class="card">${table([t('when'), t('who'), t('what'), t('merchant'), t('target'), t('outcome'), t('from_address'), t('detail')], log.data.map((entry) => entryRow(entry, t)), t('nothing_yet'))}
<nav class="pager" aria-label="${t('pages_nav')}">
${before !== '' ? html`<a href="${SECTION}?${keep.toString()}">${BACK_ARROW} ${t('newest_page')}</a>` : ''}
${last && log.has_more ? html`<a href="${SECTION}?${new URLSearchParams([...keep, ['before', last.audit_id]]).toString()}">${t('older_page')} ${FORWARD_ARROW}</a>` : ''}
</nav></div>`;
  return { title: t('audit_log_section'), body };
}
