/**
 * Developers, Webhooks (D14, INTERFACE 6.4.5): the default address of the mode
 * in view (D11's rule, the dispatcher's to check), its secret behind "Reveal",
 * "Rotate secret" with D11's overlap; the endpoints the merchant manages
 * (issue 19), each a change made by the API's own command (its validation, its
 * problems): add, disable and enable, delete, rotate its secret, replay its
 * events since a time, its secret behind "Reveal" (an audited operator command,
 * as the default one's), and a banner for each disabled one; the delivery log
 * newest first with a failed-only filter, one attempt's payload and response,
 * and "Resend".
 */
import type { Request, Router } from 'express';
import { ENDPOINT_EVENT_TYPES, type WebhookEndpoint } from '@gateway/contracts';
import { unlessNotFound } from '@gateway/problem';
import { html, type Html } from '@gateway/runtime';
import type { DoorDeps, Viewer } from '../door.js';
import { BACK_ARROW, csrfField, FORWARD_ARROW, notice, phrase, table, when } from '../layout.js';
import { shownSecret } from './api-keys.js';
import { BASE, can, merchantChange, merchantView, type MerchantPage, type SectionView } from './frame.js';
import { asTheApi } from './payments.js';

const SECTION = `${BASE}/webhooks`;
const ENDPOINTS = `${SECTION}/endpoints`;
/** The route of "Add endpoint": a refused form is shown again as it was filled. */
const CREATE_ROUTE = '/webhooks/endpoints';

/** The account's endpoint of the mode in view; none yet (no address ever set) reads as no URL. */
async function endpointOf(view: MerchantPage) {
  const shown = await unlessNotFound(view.call.command('webhook_endpoint.show', { merchant_id: view.merchant.merchant_id, mode: view.viewer.mode }));
  return shown ?? { url: null, previous_secret_expires_at: null };
}

/** A field of a posted form: its values, in order (a group of checkboxes gives several). */
function values(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string');
}

function field(req: Request, name: string): string {
  return values(req, name)[0]?.trim() ?? '';
}

/** "Add endpoint" as filled in: the body the API's create takes, as given (the dispatcher judges it). */
function endpointDraft(req: Request): { url: string; enabled_events: string[]; description?: string } {
  const description = field(req, 'description');
  return { url: field(req, 'url'), enabled_events: values(req, 'enabled_events'), ...(description !== '' && { description }) };
}

/**
 * A datetime-local field (no zone) as RFC 3339, in UTC as the form says;
 * anything else as given, for the dispatcher to accept or refuse.
 */
function utcTime(value: string): string {
  const local = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?$/.exec(value);
  return local ? `${local[1]}${local[2] ?? ':00'}Z` : value;
}

const ALL_EVENTS = '*';

function eventsOf(endpoint: WebhookEndpoint, t: Viewer['t']): Html {
  if (endpoint.enabled_events.includes(ALL_EVENTS)) return html`${t('all_events')}`;
  return html`${endpoint.enabled_events.map((event, i) => html`${i > 0 ? ', ' : ''}<code>${event}</code>`)}`;
}

/** Why an endpoint is disabled and how to enable it again, for the banner at the top of the page. */
function disabledBanner(endpoint: WebhookEndpoint, viewer: Viewer): Html {
  const { t } = viewer;
  const why =
    endpoint.disabled_reason === 'failing'
      ? t('disabled_for_failing')
      : t('disabled_by_someone');
  const how = can(viewer, 'develop')
    ? endpoint.disabled_reason === 'failing'
      ? t('enable_after_fix')
      : t('enable_again')
    : t('ask_to_enable');
  return notice(
    'warn',
    html`<p><strong>${t('endpoint_disabled_banner')}</strong>: <code class="address">${endpoint.url}</code> (${when(endpoint.disabled_at)})</p><p>${why} ${how}</p>`,
  );
}

/** One endpoint's changes, for developers and owners: each a form posting to the endpoint's route. */
function endpointActions(endpoint: WebhookEndpoint, viewer: Viewer): Html {
  const { t, csrf } = viewer;
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

/** The endpoints the merchant manages in the mode in view, with "Add endpoint" for developers and owners. */
function endpointsSection(endpoints: readonly WebhookEndpoint[], viewer: Viewer, draft: ReturnType<typeof endpointDraft> | undefined): Html {
  const { t } = viewer;
  const developer = can(viewer, 'develop');
  // One row group per endpoint: what it is, then, for developers and owners, what can be done with it.
  const groups = endpoints.map(
    (e) => html`<tbody class="endpoint" data-endpoint="${e.id}"><tr><td><code class="address">${e.url}</code>${e.description ? html`<br><span class="muted">${e.description}</span>` : ''}</td>
<td>${eventsOf(e, t)}</td><td><span class="badge" data-field="status">${e.status === 'enabled' ? t('endpoint_enabled_state') : t('endpoint_disabled_state')}</span></td><td>${when(e.created_at)}</td></tr>
${developer ? html`<tr><td colspan="4">${endpointActions(e, viewer)}</td></tr>` : ''}</tbody>`,
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
<form method="post" action="${ENDPOINTS}" class="stack" novalidate>${csrfField(viewer.csrf)}
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

export function webhookRoutes(deps: DoorDeps, router: Router): void {
  const show: SectionView = async (view, req, message, status) => {
    const { viewer, merchant } = view;
    const { t } = viewer;
    const failedOnly = req?.query['failed'] === '1';
    const after = typeof req?.query['starting_after'] === 'string' ? req.query['starting_after'] : '';
    const [endpoint, managed, log] = await Promise.all([
      endpointOf(view),
      view.call.api(merchant, 'webhook_endpoint.list', {}),
      view.call.api(merchant, 'webhook.list', { query: { limit: '25', ...(failedOnly && { status: 'FAILED' }), ...(after && { starting_after: after }) } }),
    ]);
    const developer = can(viewer, 'develop');
    // A refused "Add endpoint" comes back as it was filled in, beside the API's problem.
    const draft = status !== undefined && req?.method === 'POST' && (req.route as { path?: unknown } | undefined)?.path === CREATE_ROUTE ? endpointDraft(req) : undefined;
    const rows = log.data.map(
      (d) => html`<tr><td><a href="${SECTION}/attempts/${d.id}">${d.event}</a></td><td><a href="${BASE}/payments/${d.session_id}">${d.session_id}</a></td>
<td>${d.status}</td><td>${d.http_status_code ?? '—'}</td><td>${when(d.created_at)}</td><td>${when(d.next_retry_at)}</td></tr>`,
    );
    const last = log.data[log.data.length - 1];
    return view.render(
      SECTION,
      t('webhooks_section'),
      html`<h1>${t('webhooks_section')} <span class="badge ${viewer.mode}">${viewer.mode === 'live' ? t('live_mode') : t('test_mode')}</span></h1>
${message ?? ''}
${managed.data.filter((e) => e.status === 'disabled').map((e) => disabledBanner(e, viewer))}
<section class="card"><h2>${t('webhook_url')}</h2>
<p class="muted">${t('webhook_url_note')}</p>
${
  developer
    ? html`<form method="post" action="${SECTION}/url" class="row">${csrfField(viewer.csrf)}
<label>${t('webhook_url')} <input type="url" name="url" value="${endpoint.url ?? ''}" required size="48"></label>
<button type="submit">${t('save_button')}</button></form>`
    : html`<p><code>${endpoint.url ?? '—'}</code></p>`
}
${endpoint.previous_secret_expires_at ? html`<p class="muted">${phrase(t, 'previous_secret_until', { time: when(endpoint.previous_secret_expires_at) })}</p>` : ''}
${
  developer && endpoint.url
    ? html`<form method="post" action="${SECTION}/secret/reveal" class="inline">${csrfField(viewer.csrf)}<button type="submit" class="secondary">${t('reveal_button')}</button></form>
<form method="post" action="${SECTION}/secret/rotate" class="inline" data-confirm="${t('rotate_secret_confirm')}">${csrfField(viewer.csrf)}<button type="submit" class="secondary">${t('rotate_secret_button')}</button></form>`
    : ''
}
</section>
${endpointsSection(managed.data, viewer, draft)}
<section class="card"><h2>${t('webhook_deliveries')}</h2>
<form method="get" action="${SECTION}" class="row"><label class="inline"><input type="checkbox" name="failed" value="1"${failedOnly ? html` checked` : ''}> ${t('failed_only')}</label><button type="submit" class="secondary">${t('filter_button')}</button></form>
${table([t('event'), t('session'), t('status'), t('http_code'), t('time'), t('next_retry')], rows, t('nothing_yet'))}
${last && log.has_more ? html`<nav class="pager" aria-label="${t('pages_nav')}"><a href="${SECTION}?${new URLSearchParams({ ...(failedOnly && { failed: '1' }), starting_after: last.id }).toString()}">${t('older_page')} ${FORWARD_ARROW}</a></nav>` : ''}
</section>`,
      status,
    );
  };

  router.get(
    '/webhooks',
    merchantView(deps, 'read', show),
  );

  router.post(
    '/webhooks/url',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const { viewer } = view;
      const url = String((req.body as Record<string, unknown>)['url'] ?? '').trim();
      const target = { merchant_id: view.merchant.merchant_id, mode: viewer.mode };
      const current = await endpointOf(view);
      // The first address of a mode makes its endpoint (and its secret); later ones change it.
      if (current.url === null) await view.call.command('webhook_endpoint.provision', { ...target, url });
      else await view.call.command('webhook_endpoint.set_url', { ...target, url });
      return notice('ok', viewer.t('webhook_url_saved'));
    }),
  );

  router.post(
    '/webhooks/secret/reveal',
    ...merchantChange(deps, 'develop', show, async (_req, view) => {
      const { viewer } = view;
      const secret = await view.call.command('webhook_endpoint.reveal_secret', { merchant_id: view.merchant.merchant_id, mode: viewer.mode });
      const { t } = viewer;
      return shownSecret(t('signing_secret'), secret.webhook_secret, t('check_signature'), t);
    }),
  );

  router.post(
    '/webhooks/secret/rotate',
    ...merchantChange(deps, 'develop', show, async (_req, view) => {
      const { viewer } = view;
      const rotated = await view.call.command('webhook_endpoint.rotate_secret', { merchant_id: view.merchant.merchant_id, mode: viewer.mode });
      const { t } = viewer;
      return shownSecret(
        t('new_signing_secret'),
        rotated.webhook_secret,
        t('both_secrets_until', { time: rotated.previous_secret_expires_at }),
        t,
      );
    }),
  );

  // The endpoints the merchant manages (issue 19): each change is the API's command, in the merchant's name and the mode in view, audited here as the API's changes made from the dashboard are.
  router.post(
    CREATE_ROUTE,
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const body = endpointDraft(req);
      const created = await asTheApi(deps, view, { action: 'webhook_endpoint.create', target: null, detail: body }, () => view.call.api(view.merchant, 'webhook_endpoint.create', { body }));
      return shownSecret(
        view.viewer.t('endpoint_added', { url: created.url }),
        created.secret,
        view.viewer.t('endpoint_check_signature'),
        view.viewer.t,
      );
    }),
  );

  router.post(
    '/webhooks/endpoints/:id/status',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const id = String(req.params['id']);
      const body = { status: field(req, 'status') };
      const changed = await asTheApi(deps, view, { action: 'webhook_endpoint.update', target: id, detail: body }, () =>
        view.call.api(view.merchant, 'webhook_endpoint.update', { endpoint_id: id, body }),
      );
      const { t } = view.viewer;
      return notice('ok', changed.status === 'enabled' ? t('endpoint_enabled', { url: changed.url }) : t('endpoint_disabled', { url: changed.url }));
    }),
  );

  router.post(
    '/webhooks/endpoints/:id/delete',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const id = String(req.params['id']);
      await asTheApi(deps, view, { action: 'webhook_endpoint.delete', target: id, detail: {} }, () => view.call.api(view.merchant, 'webhook_endpoint.delete', { endpoint_id: id }));
      return notice('ok', view.viewer.t('endpoint_deleted', { id }));
    }),
  );

  // The secret of one endpoint: the operator command of the default one's "Reveal", for the user, audited by the dispatcher.
  router.post(
    '/webhooks/endpoints/:id/secret/reveal',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const { viewer } = view;
      const revealed = await view.call.command('webhook_endpoint.reveal_secret', { merchant_id: view.merchant.merchant_id, mode: viewer.mode, endpoint_id: String(req.params['id']) });
      return shownSecret(
        viewer.t('endpoint_signing_secret', { url: revealed.url }),
        revealed.webhook_secret,
        viewer.t('endpoint_check_signature'),
        viewer.t,
      );
    }),
  );

  router.post(
    '/webhooks/endpoints/:id/secret/rotate',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const id = String(req.params['id']);
      const rotated = await asTheApi(deps, view, { action: 'webhook_endpoint.roll_secret', target: id, detail: {} }, () =>
        view.call.api(view.merchant, 'webhook_endpoint.roll_secret', { endpoint_id: id }),
      );
      const { t } = view.viewer;
      return shownSecret(
        t('endpoint_new_signing_secret', { url: rotated.url }),
        rotated.secret,
        t('endpoint_both_secrets_until', { time: rotated.previous_secret_expires_at ?? '' }),
        t,
      );
    }),
  );

  router.post(
    '/webhooks/endpoints/:id/replay',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const id = String(req.params['id']);
      const after = field(req, 'starting_after');
      const body = { since: utcTime(field(req, 'since')), ...(after !== '' && { starting_after: after }) };
      const replayed = await asTheApi(deps, view, { action: 'webhook_endpoint.replay', target: id, detail: body }, () =>
        view.call.api(view.merchant, 'webhook_endpoint.replay', { endpoint_id: id, body }),
      );
      const { t, csrf } = view.viewer;
      const queued = t('replay_queued', { count: String(replayed.queued) });
      if (!replayed.has_more || replayed.next_since === null || replayed.next_starting_after === null) return notice('ok', queued);
      // One page a call, as at the API: the next one starts where this one stopped.
      return notice(
        'ok',
        html`<p>${queued} ${t('replay_more_left')}</p>
<form method="post" action="${ENDPOINTS}/${id}/replay" class="inline">${csrfField(csrf)}<input type="hidden" name="since" value="${replayed.next_since}">
<input type="hidden" name="starting_after" value="${replayed.next_starting_after}"><button type="submit">${t('replay_next')}</button></form>`,
      );
    }),
  );

  const showAttempt: SectionView = async (view, req, message, status) => {
    const { t } = view.viewer;
    const id = String(req.params['id']);
    const attempt = await view.call.command('webhook.attempt', { merchant_id: view.merchant.merchant_id, delivery_id: id });
    return view.render(
      SECTION,
      `${attempt.event} · ${t('webhooks_section')}`,
      html`<p><a href="${SECTION}">${BACK_ARROW} ${t('webhooks_section')}</a></p>
<h1>${attempt.event} <span class="badge">${attempt.status}</span></h1>
${message ?? ''}
<div class="card"><dl class="facts">
<dt>${t('id')}</dt><dd><code>${attempt.id}</code></dd><dt>${t('webhook_id')}</dt><dd><code>${attempt.event_id}</code></dd>
<dt>${t('session')}</dt><dd><a href="${BASE}/payments/${attempt.session_id}"><code>${attempt.session_id}</code></a></dd>
<dt>${t('url')}</dt><dd><code>${attempt.url}</code></dd><dt>${t('attempt')}</dt><dd>${attempt.attempt_number}</dd>
<dt>${t('http_code')}</dt><dd>${attempt.http_status_code ?? '—'}</dd>
<dt>${t('time')}</dt><dd>${when(attempt.created_at)} ${attempt.response_time_ms !== null ? html`(${t('response_time', { ms: String(attempt.response_time_ms) })})` : ''}</dd>
<dt>${t('next_retry')}</dt><dd>${when(attempt.next_retry_at)}</dd>
${attempt.error_message ? html`<dt>${t('error')}</dt><dd>${attempt.error_message}</dd>` : ''}
</dl></div>
<section class="card"><h2>${t('payload')}</h2><pre>${attempt.payload}</pre></section>
<section class="card"><h2>${t('response')}</h2>${attempt.response_body === null ? html`<p class="muted">—</p>` : html`<pre>${attempt.response_body}</pre>`}</section>
${
  can(view.viewer, 'develop')
    ? html`<form method="post" action="${SECTION}/attempts/${attempt.id}/resend" class="row">${csrfField(view.viewer.csrf)}<button type="submit">${t('resend_button')}</button></form>`
    : ''
}`,
      status,
    );
  };

  router.get(
    '/webhooks/attempts/:id',
    merchantView(deps, 'read', showAttempt),
  );

  router.post(
    '/webhooks/attempts/:id/resend',
    ...merchantChange(deps, 'develop', showAttempt, async (req, view) => {
      const id = String(req.params['id']);
      const resent = await view.call.command('webhook.resend', { merchant_id: view.merchant.merchant_id, delivery_id: id });
      return notice('ok', phrase(view.viewer.t, 'sent_again', { delivery: html`<a href="${SECTION}/attempts/${resent.delivery_id}">${resent.delivery_id}</a>` }));
    }),
  );
}
