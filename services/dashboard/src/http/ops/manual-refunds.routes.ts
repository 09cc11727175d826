/**
 * The manual refund queue (D10, D15): refunds the acquirer could not confirm,
 * oldest waiting first as the refund service lists them, each resolved by an
 * operator as succeeded or failed (`refund resolve`), with the refund
 * service's rules and answers.
 */
import type { Router } from 'express';
import { validationError } from '@gateway/problem';
import type { Html } from '@gateway/runtime';
import { notice } from '../../views/layout.js';
import { manualRefundsPage } from '../../views/ops/manual-refunds.page.js';
import { OPS } from '../../views/paths.js';
import { acting, type DoorDeps } from '../door.js';
import { fieldOf } from '../form-fields.js';
import { formBody, signedIn } from '../signed-in.js';
import { operators, opsPage, type OpsPage } from './ops-page.js';

const SECTION = `${OPS}/manual-refunds`;

async function showQueue(view: OpsPage, message?: Html, status?: number) {
  const queue = await view.command('refund.list_manual', {});
  return view.render(SECTION, manualRefundsPage(view.viewer, queue, message), status);
}

/** The manual refund queue's routes: the queue, and one refund resolved. */
export function manualRefundRoutes(deps: DoorDeps, router: Router): void {
  router.get(
    '/manual-refunds',
    signedIn(deps, 'ops', operators, async (_req, viewer) => showQueue(opsPage(deps, viewer))),
  );

  router.post(
    '/manual-refunds/:id/resolve',
    formBody,
    signedIn(deps, 'ops', operators, async (req, viewer) => {
      const view = opsPage(deps, viewer);
      const as = fieldOf(req.body, 'as');
      return acting(
        (message, status) => showQueue(view, message, status),
        async () => {
          if (as !== 'succeeded' && as !== 'failed') throw validationError([{ field: 'as', code: 'invalid', message: 'Resolve a refund as succeeded or failed.' }]);
          const resolved = await view.command('refund.resolve', { refund_id: String(req.params['id']), as });
          return notice('ok', viewer.t('refund_resolved', { refund: resolved.refund_id, status: resolved.status }));
        },
        viewer.language,
      );
    }),
  );
}
