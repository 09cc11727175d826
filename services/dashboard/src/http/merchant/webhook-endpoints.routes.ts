/**
 * The webhook endpoints the merchant manages (issue 19): each change is the
 * API's command (its validation, its problems), in the merchant's name and
 * the mode in view, audited here as the API's changes made from the
 * dashboard are: add, disable and enable, delete, rotate its secret, replay
 * its events since a time; and its secret behind "Reveal" (an operator
 * command audited by the dispatcher, as the default one's).
 */
import type { Request, Router } from 'express';
import { notice } from '../../views/layout.js';
import { replayedNotice, type EndpointDraft } from '../../views/merchant/webhook-endpoints.js';
import { shownSecret } from '../../views/shown-secret.js';
import type { DoorDeps } from '../door.js';
import { utcTime, valuesOf } from '../form-fields.js';
import { asTheApi, merchantChange, type SectionView } from './merchant-page.js';

/** The route of "Add endpoint": a refused form is shown again as it was filled. */
const CREATE_ROUTE = '/webhooks/endpoints';

/** A field of the form: its first value, trimmed. */
function field(req: Request, name: string): string {
  return valuesOf(req.body, name)[0]?.trim() ?? '';
}

/** "Add endpoint" as filled in: the body the API's create takes, as given (the dispatcher judges it). */
export function endpointDraftOf(req: Request): EndpointDraft {
  const description = field(req, 'description');
  return { url: field(req, 'url'), enabled_events: valuesOf(req.body, 'enabled_events'), ...(description !== '' && { description }) };
}

/** Whether the request is an "Add endpoint" (whose refusal shows the form again as filled). */
export function isRefusedEndpoint(req: Request): boolean {
  return req?.method === 'POST' && (req.route as { path?: unknown } | undefined)?.path === CREATE_ROUTE;
}

/** The endpoints' routes; `show` is the Webhooks page they show again with their outcome. */
export function webhookEndpointRoutes(deps: DoorDeps, router: Router, show: SectionView): void {
  router.post(
    CREATE_ROUTE,
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const body = endpointDraftOf(req);
      const created = await asTheApi(deps, view, { action: 'webhook_endpoint.create', target: null, detail: body }, () => view.call.api(view.merchant, 'webhook_endpoint.create', { body }));
      const { t } = view.viewer;
      return shownSecret(t('endpoint_added', { url: created.url }), created.secret, t('endpoint_check_signature'), t);
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

  router.post(
    '/webhooks/endpoints/:id/secret/reveal',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const { viewer } = view;
      const revealed = await view.call.command('webhook_endpoint.reveal_secret', { merchant_id: view.merchant.merchant_id, mode: viewer.mode, endpoint_id: String(req.params['id']) });
      return shownSecret(viewer.t('endpoint_signing_secret', { url: revealed.url }), revealed.webhook_secret, viewer.t('endpoint_check_signature'), viewer.t);
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
      const next =
        replayed.has_more && replayed.next_since !== null && replayed.next_starting_after !== null ? { since: replayed.next_since, startingAfter: replayed.next_starting_after } : undefined;
      return replayedNotice(view.viewer, id, { queued: replayed.queued, ...(next && { next }) });
    }),
  );
}
