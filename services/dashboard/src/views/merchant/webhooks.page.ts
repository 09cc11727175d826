/**
 * Webhooks (D14): the default address of the mode in view, its secret behind
 * "Reveal" and "Rotate secret"; the endpoints the merchant manages; the
 * delivery log newest first, with a failed-only filter.
 */
import type { CommandReply, WebhookEndpoint } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { csrfField, FORWARD_ARROW, modeBadge, phrase, table, when, type PageView, type Reader } from '../layout.js';
import { BASE } from '../paths.js';
import { disabledBanner, endpointsSection, type EndpointDraft } from './webhook-endpoints.js';

export const WEBHOOKS = `${BASE}/webhooks`;

/** What the page shows. */
interface WebhooksView {
  /** The mode's default address, none while never set, and until when the previous secret signs too. */
  endpoint: { url: string | null; previous_secret_expires_at: string | null };
  endpoints: readonly WebhookEndpoint[];
  log: CommandReply<'webhook.list'>;
  failedOnly: boolean;
  /** Whether the reader may change the webhooks. */
  developer: boolean;
  /** A refused "Add endpoint", shown again as it was filled in. */
  draft?: EndpointDraft;
}

/** The Webhooks page, with the outcome of a change when there is one. */
export function webhooksPage(reader: Reader, view: WebhooksView, message?: Html): PageView {
  const { t } = reader;
  const { endpoint, log, developer, failedOnly } = view;
  const rows = log.data.map(
    (d) => html`<tr><td><a href="${WEBHOOKS}/attempts/${d.id}">${d.event}</a></td><td><a href="${BASE}/payments/${d.session_id}">${d.session_id}</a></td>
<td>${d.status}</td><td>${d.http_status_code ?? '—'}</td><td>${when(d.created_at)}</td><td>${when(d.next_retry_at)}</td></tr>`,
  );
  const last = log.data[log.data.length - 1];
  const body = html`<h1>${t('webhooks_section')} ${modeBadge(reader)}</h1>
${message ?? ''}
${view.endpoints.filter((e) => e.status === 'disabled').map((e) => disabledBanner(e, t, developer))}
<section class="card"><h2>${t('webhook_url')}</h2>
<p class="muted">${t('webhook_url_note')}</p>
${
  developer
    ? html`<form method="post" action="${WEBHOOKS}/url" class="row">${csrfField(reader.csrf)}
<label>${t('webhook_url')} <input type="url" name="url" value="${endpoint.url ?? ''}" required size="48"></label>
<button type="submit">${t('save_button')}</button></form>`
    : html`<p><code>${endpoint.url ?? '—'}</code></p>`
}
${endpoint.previous_secret_expires_at ? html`<p class="muted">${phrase(t, 'previous_secret_until', { time: when(endpoint.previous_secret_expires_at) })}</p>` : ''}
${
  developer && endpoint.url
    ? html`<form method="post" action="${WEBHOOKS}/secret/reveal" class="inline">${csrfField(reader.csrf)}<button type="submit" class="secondary">${t('reveal_button')}</button></form>
<form method="post" action="${WEBHOOKS}/secret/rotate" class="inline" data-confirm="${t('rotate_secret_confirm')}">${csrfField(reader.csrf)}<button type="submit" class="secondary">${t('rotate_secret_button')}</button></form>`
    : ''
}
</section>
${endpointsSection(view.endpoints, reader, developer, view.draft)}
<section class="card"><h2>${t('webhook_deliveries')}</h2>
<form method="get" action="${WEBHOOKS}" class="row"><label class="inline"><input type="checkbox" name="failed" value="1"${failedOnly ? html` checked` : ''}> ${t('failed_only')}</label><button type="submit" class="secondary">${t('filter_button')}</button></form>
${table([t('event'), t('session'), t('status'), t('http_code'), t('time'), t('next_retry')], rows, t('nothing_yet'))}
${last && log.has_more ? html`<nav class="pager" aria-label="${t('pages_nav')}"><a href="${WEBHOOKS}?${new URLSearchParams({ ...(failedOnly && { failed: '1' }), starting_after: last.id }).toString()}">${t('older_page')} ${FORWARD_ARROW}</a></nav>` : ''}
</section>`;
  return { title: t('webhooks_section'), body };
}
