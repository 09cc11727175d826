/**
 * Developers, Webhooks (D14, INTERFACE 6.4.5): the default address of the
 * mode in view (D11's rule, the dispatcher's to check), its secret behind
 * "Reveal", "Rotate secret" with D11's overlap; the delivery log newest
 * first with a failed-only filter, one attempt's payload and response, and
 * "Resend". The endpoints the merchant manages are webhook-endpoints.routes.ts'.
 */
import type { Request, Router } from 'express';
import { unlessNotFound } from '@gateway/problem';
import { notice } from '../../views/layout.js';
import { sentAgainNotice, webhookAttemptPage } from '../../views/merchant/webhook-attempt.page.js';
import { WEBHOOKS, webhooksPage } from '../../views/merchant/webhooks.page.js';
import { shownSecret } from '../../views/shown-secret.js';
import type { DoorDeps } from '../door.js';
import { can, merchantChange, merchantView, type MerchantPage, type SectionView } from './merchant-page.js';
import { endpointDraftOf, isRefusedEndpoint, webhookEndpointRoutes } from './webhook-endpoints.routes.js';

/** The account's endpoint of the mode in view; none yet (no address ever set) reads as no URL. */
async function endpointOf(view: MerchantPage) {
  const shown = await unlessNotFound(view.call.command('webhook_endpoint.show', { merchant_id: view.merchant.merchant_id, mode: view.viewer.mode }));
  return shown ?? { url: null, previous_secret_expires_at: null };
}

/** The Webhooks routes: the page, the default address and its secret, the endpoints, and one attempt. */
export function webhookRoutes(deps: DoorDeps, router: Router): void {
  const show: SectionView = async (view, req: Request, message, status) => {
    const { viewer, merchant } = view;
    const failedOnly = req?.query['failed'] === '1';
    const after = typeof req?.query['starting_after'] === 'string' ? req.query['starting_after'] : '';
    const [endpoint, managed, log] = await Promise.all([
      endpointOf(view),
      view.call.api(merchant, 'webhook_endpoint.list', {}),
      view.call.api(merchant, 'webhook.list', { query: { limit: '25', ...(failedOnly && { status: 'FAILED' }), ...(after && { starting_after: after }) } }),
    ]);
    // A refused "Add endpoint" comes back as it was filled in, beside the API's problem.
    const draft = status !== undefined && isRefusedEndpoint(req) ? endpointDraftOf(req) : undefined;
    const page = webhooksPage(viewer, { endpoint, endpoints: managed.data, log, failedOnly, developer: can(viewer, 'develop'), ...(draft && { draft }) }, message);
    return view.render(WEBHOOKS, page, status);
  };

  router.get('/webhooks', merchantView(deps, 'read', show));

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
      return shownSecret(t('new_signing_secret'), rotated.webhook_secret, t('both_secrets_until', { time: rotated.previous_secret_expires_at }), t);
    }),
  );

  webhookEndpointRoutes(deps, router, show);

  const showAttempt: SectionView = async (view, req, message, status) => {
    const attempt = await view.call.command('webhook.attempt', { merchant_id: view.merchant.merchant_id, delivery_id: String(req.params['id']) });
    return view.render(WEBHOOKS, webhookAttemptPage(view.viewer, attempt, can(view.viewer, 'develop'), message), status);
  };

  router.get('/webhooks/attempts/:id', merchantView(deps, 'read', showAttempt));

  router.post(
    '/webhooks/attempts/:id/resend',
    ...merchantChange(deps, 'develop', showAttempt, async (req, view) => {
      const id = String(req.params['id']);
      const resent = await view.call.command('webhook.resend', { merchant_id: view.merchant.merchant_id, delivery_id: id });
      return sentAgainNotice(view.viewer.t, resent.delivery_id);
    }),
  );
}
