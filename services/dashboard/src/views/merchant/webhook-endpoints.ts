/**
 * The webhook endpoints the merchant manages (issue 19), on the Webhooks page:
 * each with its URL, events and state, and, for developers and owners, its
 * changes and "Add endpoint"; a banner for each disabled one.
 */
import { ENDPOINT_EVENT_TYPES, type WebhookEndpoint } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { csrfField, notice, when, type Reader } from '../layout.js';
import { BASE } from '../paths.js';
import type { Words } from '../texts/catalogue.js';

const ENDPOINTS = `${BASE}/webhooks/endpoints`;

const ALL_EVENTS = '*';

/** "Add endpoint" as filled in: the body the API's create takes, as given (the dispatcher judges it). */
export type EndpointDraft = {
  url: string;
  enabled_events: string[];
  description?: string;
};

function eventsOf(endpoint: WebhookEndpoint, t: Words): Html {
  if (endpoint.enabled_events.includes(ALL_EVENTS)) return html`${t('all_events')}`;
  return html`${endpoint.enabled_events.map((event, i) => html`${i > 0 ? ', ' : ''}<code>${event}</code>`)}`;
}

/** Why an endpoint is disabled and how to enable it again, for the banner at the top of the page. */
export function disabledBanner(endpoint: WebhookEndpoint, t: Words, developer: boolean): Html {
  const why = endpoint.disabled_reason === 'failing' ? t('disabled_for_failing') : t('disabled_by_someone');
  const how = developer ? (endpoint.disabled_reason === 'failing' ? t('enable_after_fix') : t('enable_again')) : t('ask_to_enable');
  return notice(
    'warn',
    html`<p><strong>${t('endpoint_disabled_banner')}</strong>: <code class="address">${endpoint.url}</code> (${when(endpoint.disabled_at)})</p><p>${why} ${how}</p>`,
  );
}

/** One endpoint's changes, for developers and owners: each a form posting to the endpoint's route. */
function endpointActions(endpoint: WebhookEndpoint, reader: Reader): Html {
  const { t, csrf } = reader;
  const at = `${ENDPOINTS}/${endpoint.id}`;
  const enabled = endpoint.status === 'enabled';
  return html`<form method="post" action="${at}/status" class="inline"${enabled ? html` data-confirm="${t('disable_confirm')}"` : ''}>${csrfField(csrf)}
<input type="hidden" name="status" value="${enabled ? 'disabled' : 'enabled'}"><button type="submit" class="secondary">${enabled ? t('disable_button') : t('enable_button')}</button></form>
<form method="post" action="${at}/secret/reveal" class="inline">${csrfField(csrf)}<button type="submit" class="secondary">${t('reveal_button')}</button></form>
<form method="post" action="${at}/secret/rotate" class="inline" data-confirm="${t('rotate_secret_confirm')}">${csrfField(csrf)}<button type="submit" class="secondary">${t('rotate_secret_button')}</button></form>
<form method="post" action="${at}/delete" class="inline" data-confirm="${t('delete_confirm')}">${csrfField(csrf)}<button type="submit" class="danger">${t('delete_button')}</button></form>
<form method="post" action="${at}/replay" class="inline">${csrfField(csrf)}
<label class="inline">${t('replay_since')} <input type="datetime-local" name="since" step="1"></label> <button type="submit" class="secondary">${t('replay_button')}</button></form>`;
}

/** The endpoints the merchant manages in the mode in view, with "Add endpoint" (filled with `draft` when refused) for developers and owners. */
export function endpointsSection(endpoints: readonly WebhookEndpoint[], reader: Reader, developer: boolean, draft: EndpointDraft | undefined): Html {
  const { t } = reader;
  // One row group per endpoint: what it is, then, for developers and owners, what can be done with it.
  const groups = endpoints.map(
    (e) => html`<tbody class="endpoint" data-endpoint="${e.id}"><tr><td><code class="address">${e.url}</code>${e.description ? html`<br><span class="muted">${e.description}</span>` : ''}</td>
<td>${eventsOf(e, t)}</td><td><span class="badge" data-field="status">${e.status === 'enabled' ? t('endpoint_enabled_state') : t('endpoint_disabled_state')}</span></td><td>${when(e.created_at)}</td></tr>
${developer ? html`<tr><td colspan="4">${endpointActions(e, reader)}</td></tr>` : ''}</tbody>`,
  );
  const list =
    groups.length === 0
      ? html`<p class="muted">${t('nothing_yet')}</p>`
      : html`<table><thead><tr>${[t('url'), t('events'), t('status'), t('created')].map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>${groups}</table>`;
  const chosen = new Set(draft?.enabled_events ?? []);
  const box = (value: string, label: Html | string) =>
    html`<label class="inline"><input type="checkbox" name="enabled_events" value="${value}"${chosen.has(value) ? html` checked` : ''}> ${label}</label>`;
  // No check of the URL or the events here (novalidate: not the browser's either): the API's create judges them, and its problem is shown as it answers.
  const add = developer
    ? html`<h3>${t('add_endpoint')}</h3>
<form method="post" action="${ENDPOINTS}" class="stack" novalidate>${csrfField(reader.csrf)}
<label>${t('endpoint_url')} <input type="url" name="url" value="${draft?.url ?? ''}" size="48" autocomplete="off"></label>
<fieldset><legend>${t('events')}</legend>
${box(ALL_EVENTS, t('all_events'))}
${ENDPOINT_EVENT_TYPES.map((type) => html`<br>${box(type, html`<code>${type}</code>`)}`)}
</fieldset>
<label>${t('description')} <input name="description" value="${draft?.description ?? ''}"></label>
<div><button type="submit">${t('add_endpoint')}</button></div>
</form>`
    : '';
  return html`<section class="card"><h2>${t('webhook_endpoints')}</h2>
<p class="muted">${t('endpoints_intro')}</p>
${list}
${add}
</section>`;
}

/** A replay's outcome: how many events were queued, and, when more are left, the form that replays the next page. */
export function replayedNotice(reader: Reader, endpointId: string, replayed: { queued: number; next?: { since: string; startingAfter: string } }): Html {
  const { t, csrf } = reader;
  const queued = t('replay_queued', { count: String(replayed.queued) });
  if (replayed.next === undefined) return notice('ok', queued);
  // One page a call, as at the API: the next one starts where this one stopped.
  return notice(
    'ok',
    html`<p>${queued} ${t('replay_more_left')}</p>
<form method="post" action="${ENDPOINTS}/${endpointId}/replay" class="inline">${csrfField(csrf)}<input type="hidden" name="since" value="${replayed.next.since}">
<input type="hidden" name="starting_after" value="${replayed.next.startingAfter}"><button type="submit">${t('replay_next')}</button></form>`,
  );
}
