/**
 * Developers, Webhooks (D14, INTERFACE 6.4.5): the address of the mode in view
 * (D11's rule, the dispatcher's to check), its secret behind "Reveal", "Rotate
 * secret" with D11's overlap, the delivery log newest first with a failed-only
 * filter, one attempt's payload and response, and "Resend".
 */
import type { Router } from 'express';
import { AppError } from '@gateway/problem';
import { html } from '@gateway/runtime';
import type { DoorDeps } from '../door.js';
import { csrfField, notice, table, when } from '../layout.js';
import { shownSecret } from './api-keys.js';
import { BASE, can, merchantChange, merchantView, type MerchantPage, type SectionView } from './frame.js';

const SECTION = `${BASE}/webhooks`;

/** The account's endpoint of the mode in view; none yet (no address ever set) reads as no URL. */
async function endpointOf(view: MerchantPage) {
  try {
    return await view.call.command('webhook_endpoint.show', { merchant_id: view.merchant.merchant_id, mode: view.viewer.mode });
  } catch (err) {
    if (err instanceof AppError && err.code === 'not-found') return { url: null, previous_secret_expires_at: null };
    throw err;
  }
}

export function webhookRoutes(deps: DoorDeps, router: Router): void {
  const show: SectionView = async (view, req, message, status) => {
    const { viewer, merchant } = view;
    const { t } = viewer;
    const failedOnly = req?.query['failed'] === '1';
    const after = typeof req?.query['starting_after'] === 'string' ? req.query['starting_after'] : '';
    const [endpoint, log] = await Promise.all([
      endpointOf(view),
      view.call.api(merchant, 'webhook.list', { query: { limit: '25', ...(failedOnly && { status: 'FAILED' }), ...(after && { starting_after: after }) } }),
    ]);
    const developer = can(viewer, 'develop');
    const rows = log.data.map(
      (d) => html`<tr><td><a href="${SECTION}/attempts/${d.id}">${d.event}</a></td><td><a href="${BASE}/payments/${d.session_id}">${d.session_id}</a></td>
<td>${d.status}</td><td>${d.http_status_code ?? '—'}</td><td>${when(d.created_at)}</td><td>${when(d.next_retry_at)}</td></tr>`,
    );
    const last = log.data[log.data.length - 1];
    return view.render(
      SECTION,
      t('Webhooks'),
      html`<h1>${t('Webhooks')} <span class="badge ${viewer.mode}">${viewer.mode === 'live' ? t('Live mode') : t('Test mode')}</span></h1>
${message ?? ''}
<section class="card"><h2>${t('Webhook URL')}</h2>
${
  developer
    ? html`<form method="post" action="${SECTION}/url" class="row">${csrfField(viewer.csrf)}
<label>${t('Webhook URL')} <input type="url" name="url" value="${endpoint.url ?? ''}" required size="48"></label>
<button type="submit">${t('Save')}</button></form>`
    : html`<p><code>${endpoint.url ?? '—'}</code></p>`
}
${endpoint.previous_secret_expires_at ? html`<p class="muted">The previous secret also signs until ${when(endpoint.previous_secret_expires_at)}.</p>` : ''}
${
  developer && endpoint.url
    ? html`<form method="post" action="${SECTION}/secret/reveal" class="inline">${csrfField(viewer.csrf)}<button type="submit" class="secondary">${t('Reveal')}</button></form>
<form method="post" action="${SECTION}/secret/rotate" class="inline" data-confirm="Rotate the signing secret? The old one keeps signing for a while beside the new one.">${csrfField(viewer.csrf)}<button type="submit" class="secondary">${t('Rotate secret')}</button></form>`
    : ''
}
</section>
<section class="card"><h2>${t('Webhook deliveries')}</h2>
<form method="get" action="${SECTION}" class="row"><label class="inline"><input type="checkbox" name="failed" value="1"${failedOnly ? html` checked` : ''}> ${t('Failed only')}</label><button type="submit" class="secondary">${t('Filter')}</button></form>
${table([t('Event'), 'Session', t('Status'), t('HTTP code'), t('Time'), t('Next retry')], rows, t('Nothing here yet.'))}
${last && log.has_more ? html`<nav class="pager"><a href="${SECTION}?${new URLSearchParams({ ...(failedOnly && { failed: '1' }), starting_after: last.id }).toString()}">${t('Older')} →</a></nav>` : ''}
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
      return notice('ok', 'Webhook URL saved.');
    }),
  );

  router.post(
    '/webhooks/secret/reveal',
    ...merchantChange(deps, 'develop', show, async (_req, view) => {
      const { viewer } = view;
      const secret = await view.call.command('webhook_endpoint.reveal_secret', { merchant_id: view.merchant.merchant_id, mode: viewer.mode });
      return shownSecret('Signing secret', secret.webhook_secret, 'Check the X-Service-Signature header of every webhook with it.');
    }),
  );

  router.post(
    '/webhooks/secret/rotate',
    ...merchantChange(deps, 'develop', show, async (_req, view) => {
      const { viewer } = view;
      const rotated = await view.call.command('webhook_endpoint.rotate_secret', { merchant_id: view.merchant.merchant_id, mode: viewer.mode });
      return shownSecret('New signing secret', rotated.webhook_secret, `Webhooks carry signatures by both secrets until ${rotated.previous_secret_expires_at}; move to the new one before then.`);
    }),
  );

  const showAttempt: SectionView = async (view, req, message, status) => {
    const { t } = view.viewer;
    const id = String(req.params['id']);
    const attempt = await view.call.command('webhook.attempt', { merchant_id: view.merchant.merchant_id, delivery_id: id });
    return view.render(
      SECTION,
      `${attempt.event} · ${t('Webhooks')}`,
      html`<p><a href="${SECTION}">← ${t('Webhooks')}</a></p>
<h1>${attempt.event} <span class="badge">${attempt.status}</span></h1>
${message ?? ''}
<div class="card"><dl class="facts">
<dt>ID</dt><dd>${attempt.id}</dd><dt>Webhook ID</dt><dd>${attempt.event_id}</dd>
<dt>Session</dt><dd><a href="${BASE}/payments/${attempt.session_id}">${attempt.session_id}</a></dd>
<dt>URL</dt><dd>${attempt.url}</dd><dt>Attempt</dt><dd>${attempt.attempt_number}</dd>
<dt>${t('HTTP code')}</dt><dd>${attempt.http_status_code ?? '—'}</dd>
<dt>${t('Time')}</dt><dd>${when(attempt.created_at)} ${attempt.response_time_ms !== null ? html`(${attempt.response_time_ms} ms)` : ''}</dd>
<dt>${t('Next retry')}</dt><dd>${when(attempt.next_retry_at)}</dd>
${attempt.error_message ? html`<dt>Error</dt><dd>${attempt.error_message}</dd>` : ''}
</dl></div>
<section class="card"><h2>${t('Payload')}</h2><pre>${attempt.payload}</pre></section>
<section class="card"><h2>${t('Response')}</h2>${attempt.response_body === null ? html`<p class="muted">—</p>` : html`<pre>${attempt.response_body}</pre>`}</section>
${
  can(view.viewer, 'develop')
    ? html`<form method="post" action="${SECTION}/attempts/${attempt.id}/resend" class="row">${csrfField(view.viewer.csrf)}<button type="submit">${t('Resend')}</button></form>`
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
      return notice('ok', html`Sent again as <a href="${SECTION}/attempts/${resent.delivery_id}">${resent.delivery_id}</a>, with the same webhook ID and a new signature.`);
    }),
  );
}
