/** The merchant's audit log (D14), for owners: who changed what, when, on what, with what outcome, from where; newest first, paged. */
import type { CommandReply } from '@gateway/contracts';
import { html } from '@gateway/runtime';
import { FORWARD_ARROW, table, when, type PageView, type Reader } from '../layout.js';
import { BASE } from '../paths.js';

const AUDIT = `${BASE}/audit-log`;

/** A page of the merchant's audit log. */
export function merchantAuditLogPage(reader: Reader, log: CommandReply<'audit.list'>): PageView {
  const { t } = reader;
  const rows = log.data.map(
    (e) => html`<tr><td>${when(e.at)}</td><td><bdi>${e.actor_email ?? e.actor_id}</bdi> <span class="muted">(${e.actor_type === 'operator' ? t('actor_operator') : t('actor_user')})</span></td><td><code>${e.action}</code></td><td><bdi>${e.target ?? ''}</bdi></td><td>${e.outcome}</td><td><bdi>${e.address ?? ''}</bdi></td></tr>`,
  );
  const last = log.data[log.data.length - 1];
  const body = html`<h1>${t('audit_log_section')}</h1><div class="card">${table([t('when'), t('who'), t('what'), t('target'), t('outcome'), t('from_address')], rows, t('nothing_yet'))}
${last && log.has_more ? html`<nav class="pager" aria-label="${t('pages_nav')}"><a href="${AUDIT}?before=${last.audit_id}">${t('older_page')} ${FORWARD_ARROW}</a></nav>` : ''}</div>`;
  return { title: t('audit_log_section'), body };
}
