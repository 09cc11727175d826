/**
 * Developers, API keys (D14, INTERFACE 5.2, 5.3): the keys of the mode in view;
 * a test key hidden until "Reveal"; "Create key" and "Revoke"; a live key shown
 * once by "Create live key"; "Rotate" replaces a live key and revokes the old
 * one now or after a grace. Each is the api-gateway's command for the user.
 */
import type { Router } from 'express';
import type { ApiKeySummary } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import type { DoorDeps } from '../door.js';
import type { Words } from '../../views/texts/catalogue.js';
import { csrfField, notice, table, when } from '../layout.js';
import { BASE, can, merchantChange, merchantView, type SectionView } from './frame.js';

const SECTION = `${BASE}/api-keys`;

/** A secret on the page, once, with a way to copy it (its button in the viewer's words, given `t`). */
export function shownSecret(label: string, secret: string, warning: string, t: Words): Html {
  return notice(
    'warn',
    html`<p><strong>${label}</strong></p><p><code class="secret" id="shown-secret">${secret}</code> <button type="button" class="secondary" data-copy="shown-secret">${t('copy_button')}</button></p><p>${warning}</p>`,
  );
}

function graceLabel(t: Words, seconds: number): string {
  if (seconds === 0) return t('grace_now');
  if (seconds % 3600 === 0) return t('grace_hours', { n: seconds / 3600 });
  if (seconds % 60 === 0) return t('grace_minutes', { n: seconds / 60 });
  return t('grace_seconds', { n: seconds });
}

export function apiKeyRoutes(deps: DoorDeps, router: Router): void {
  const show: SectionView = async (view, _req, message, status) => {
    const { viewer } = view;
    const { t } = viewer;
    const keys = await view.call.command('api_key.list', { merchant_id: view.merchant.merchant_id, mode: viewer.mode });
    const developer = can(viewer, 'develop');
    const now = Date.now();
    const active = (key: ApiKeySummary) => key.revoked_at === null || Date.parse(key.revoked_at) > now;
    const rows = keys.data.map((key) => {
      const live = active(key);
      const state = !live ? html`${t('revoked')} ${when(key.revoked_at)}` : key.revoked_at ? html`${t('ends')} ${when(key.revoked_at)}` : t('active');
      const actions: Html[] = [];
      if (developer && live && key.mode === 'test' && key.revealable) {
        actions.push(html`<form method="post" action="${SECTION}/${key.key_id}/reveal" class="inline">${csrfField(viewer.csrf)}<button type="submit" class="secondary">${t('reveal_button')}</button></form>`);
      }
      if (developer && live && key.mode === 'live' && !key.revoked_at) {
        actions.push(html`<form method="post" action="${SECTION}/${key.key_id}/rotate" class="inline" data-confirm="${t('rotate_confirm')}">${csrfField(viewer.csrf)}
<label class="inline">${t('revoke_old_key')} <select name="revoke_in_seconds">${deps.keyRotationGracesSeconds.map((s) => html`<option value="${s}">${graceLabel(t, s)}</option>`)}</select></label>
<button type="submit" class="secondary">${t('rotate_button')}</button></form>`);
      }
      if (developer && live) {
        actions.push(html`<form method="post" action="${SECTION}/${key.key_id}/revoke" class="inline" data-confirm="${t('revoke_confirm')}">${csrfField(viewer.csrf)}<button type="submit" class="danger">${t('revoke_button')}</button></form>`);
      }
      return html`<tr><td><code>${key.key_id}</code></td><td><code>sk_${key.mode}_…${key.last_four}</code></td><td>${when(key.created_at)}</td><td>${state}</td><td>${actions}</td></tr>`;
    });
    const create =
      developer && viewer.mode === 'test'
        ? html`<form method="post" action="${SECTION}/create" class="row">${csrfField(viewer.csrf)}<button type="submit">${t('create_key')}</button></form>`
        : developer && viewer.mode === 'live'
          ? html`<form method="post" action="${SECTION}/create" class="row">${csrfField(viewer.csrf)}<button type="submit">${t('create_live_key')}</button></form>`
          : '';
    return view.render(
      SECTION,
      t('api_keys_section'),
      html`<h1>${t('api_keys_section')} <span class="badge ${viewer.mode}">${viewer.mode === 'live' ? t('live_mode') : t('test_mode')}</span></h1>
${message ?? ''}
<div class="card">${table([t('key'), t('last_four'), t('created'), t('status'), ''], rows, t('nothing_yet'))}</div>
${create}
<p class="muted">${t('api_keys_note')}</p>`,
      status,
    );
  };

  router.get(
    '/api-keys',
    merchantView(deps, 'read', show),
  );

  router.post(
    '/api-keys/create',
    ...merchantChange(deps, 'develop', show, async (_req, view) => {
      const { viewer } = view;
      const { t } = viewer;
      const key = await view.call.command('api_key.create', { merchant_id: view.merchant.merchant_id, mode: viewer.mode });
      const warning = viewer.mode === 'live' ? t('live_key_shown_once') : t('test_key_shown_again');
      return shownSecret(t('new_key', { key: key.key_id }), key.secret_key, warning, t);
    }),
  );

  router.post(
    '/api-keys/:id/reveal',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const key = await view.call.command('api_key.reveal', { merchant_id: view.merchant.merchant_id, key_id: String(req.params['id']) });
      const { t } = view.viewer;
      return shownSecret(t('revealed_key', { key: key.key_id }), key.secret_key, t('test_key_warning'), t);
    }),
  );

  router.post(
    '/api-keys/:id/revoke',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const revoked = await view.call.command('api_key.revoke', { merchant_id: view.merchant.merchant_id, key_id: String(req.params['id']) });
      return notice('ok', view.viewer.t('key_revoked', { key: revoked.key_id }));
    }),
  );

  router.post(
    '/api-keys/:id/rotate',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const grace = Number((req.body as Record<string, unknown>)['revoke_in_seconds']);
      const rotated = await view.call.command('api_key.rotate', {
        merchant_id: view.merchant.merchant_id,
        key_id: String(req.params['id']),
        // Anything but a whole number of seconds is the service's to refuse, with its words.
        revoke_in_seconds: Number.isInteger(grace) && grace >= 0 ? grace : 0.5,
      });
      const { t } = view.viewer;
      return shownSecret(
        t('new_live_key', { key: rotated.key_id }),
        rotated.secret_key,
        t('rotated_key_note', { old: rotated.revoked_key_id, at: rotated.revokes_at }),
        t,
      );
    }),
  );
}
