/**
 * The audit log in the operations console (D14, D15): every operator and
 * dashboard change, newest first, of all merchants or of one, paged by the
 * entry before which the next page starts: who (operator or user, by email
 * or id), when, what, on which merchant and object, with what outcome, from
 * which address, and the command's data (secrets already left out by the
 * service that recorded it), shown as text.
 */
import type { Router } from 'express';
import type { AuditEntry } from '@gateway/contracts';
import { validationError } from '@gateway/problem';
import { html } from '@gateway/runtime';
import type { DoorDeps } from '../door.js';
import { BACK_ARROW, FORWARD_ARROW, table, when } from '../layout.js';
import type { Words } from '../../views/texts/catalogue.js';
import { signedIn } from '../sign-in.js';
import { OPS, operators, opsPage, queryField } from './frame.js';

const SECTION = `${OPS}/audit-log`;
const PAGE_SIZE = 50;
const MERCHANT_ID = /^mer_[0-9A-Za-z]{20,}$/;

function entryRow(entry: AuditEntry, t: Words) {
  const who = entry.actor_email ?? entry.actor_id;
  return html`<tr data-audit="${entry.audit_id}"><td>${when(entry.at)}</td>
<td><span class="badge" data-field="actor_type">${entry.actor_type}</span> <span data-field="actor">${who}</span>${entry.actor_email ? html`<br><code class="muted">${entry.actor_id}</code>` : ''}</td>
<td><code data-field="action">${entry.action}</code></td>
<td>${entry.merchant_id ? html`<a href="${OPS}/merchants/${entry.merchant_id}"><code>${entry.merchant_id}</code></a>` : '—'}</td>
<td><bdi>${entry.target ?? '—'}</bdi></td><td data-field="outcome">${entry.outcome}</td><td><bdi>${entry.address ?? '—'}</bdi></td>
<td>${Object.keys(entry.detail).length > 0 ? html`<details><summary>${t('detail')}</summary><pre>${JSON.stringify(entry.detail, null, 2)}</pre></details>` : '—'}</td></tr>`;
}

export function auditLogRoutes(deps: DoorDeps, router: Router): void {
  router.get(
    '/audit-log',
    signedIn(deps, 'ops', operators, async (req, viewer) => {
      const view = opsPage(deps, viewer);
      const { t } = viewer;
      const merchant = queryField(req, 'merchant');
      const before = queryField(req, 'before');
      if (merchant !== '' && !MERCHANT_ID.test(merchant)) throw validationError([{ field: 'merchant', code: 'invalid', message: viewer.t('filter_by_merchant') }]);
      const log = await view.command('audit.list', {
        limit: PAGE_SIZE,
        ...(merchant !== '' && { merchant_id: merchant }),
        ...(before !== '' && { before }),
      });
      const keep = new URLSearchParams(merchant ? { merchant } : {});
      const last = log.data[log.data.length - 1];
      return view.render(
        SECTION,
        t('audit_log_section'),
        html`<h1>${t('audit_log_section')}</h1>
<form method="get" action="${SECTION}" class="row" role="search">
<label>${t('merchant')} <input name="merchant" value="${merchant}" placeholder="mer_…"></label>
<button type="submit">${t('filter_button')}</button>
${merchant ? html`<a href="${SECTION}">${t('all_merchants')}</a>` : ''}
</form>
<div class="card">${table([t('when'), t('who'), t('what'), t('merchant'), t('target'), t('outcome'), t('from_address'), t('detail')], log.data.map((entry) => entryRow(entry, t)), t('nothing_yet'))}
<nav class="pager" aria-label="${t('pages_nav')}">
${before !== '' ? html`<a href="${SECTION}?${keep.toString()}">${BACK_ARROW} ${t('newest_page')}</a>` : ''}
${last && log.has_more ? html`<a href="${SECTION}?${new URLSearchParams([...keep, ['before', last.audit_id]]).toString()}">${t('older_page')} ${FORWARD_ARROW}</a>` : ''}
</nav></div>`,
      );
    }),
  );
}
