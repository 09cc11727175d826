/**
 * Developers, API keys (D14, INTERFACE 5.2, 5.3): the keys of the mode in
 * view; a test key hidden until "Reveal"; "Create key" and "Revoke"; a live
 * key shown once by "Create live key"; "Rotate" replaces a live key and
 * revokes the old one now or after a grace. Each is the api-gateway's command
 * for the user.
 */
import type { Router } from 'express';
import { notice } from '../../views/layout.js';
import { apiKeysPage } from '../../views/merchant/api-keys.page.js';
import { BASE } from '../../views/paths.js';
import { shownSecret } from '../../views/shown-secret.js';
import type { DoorDeps } from '../door.js';
import { can, merchantChange, merchantView, type SectionView } from './merchant-page.js';

const SECTION = `${BASE}/api-keys`;

/** The API keys routes: the list and each key's change. */
export function apiKeyRoutes(deps: DoorDeps, router: Router): void {
  const show: SectionView = async (view, _req, message, status) => {
    const { viewer } = view;
    const keys = await view.call.command('api_key.list', { merchant_id: view.merchant.merchant_id, mode: viewer.mode });
    return view.render(SECTION, apiKeysPage(viewer, { keys, developer: can(viewer, 'develop'), graces: deps.keyRotationGracesSeconds }, message), status);
  };

  router.get('/api-keys', merchantView(deps, 'read', show));

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
      return shownSecret(t('new_live_key', { key: rotated.key_id }), rotated.secret_key, t('rotated_key_note', { old: rotated.revoked_key_id, at: rotated.revokes_at }), t);
    }),
  );
}
