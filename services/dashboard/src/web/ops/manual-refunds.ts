/**
 * The manual refund queue (D10, D15): refunds the acquirer could not confirm,
 * oldest waiting first as the refund service lists them, each resolved by an
 * operator as succeeded or failed (`refund resolve`), with the refund
 * service's rules and answers.
 */
import type { Router } from 'express';
import { validationError } from '@gateway/problem';
import { html, type Html } from '@gateway/runtime';
import { acting, type DoorDeps } from '../door.js';
import { csrfField, notice, table, when } from '../layout.js';
import { formBody, signedIn } from '../sign-in.js';
import { field, OPS, operators, opsPage, type OpsPage } from './frame.js';

const SECTION = `${OPS}/manual-refunds`;

async function showQueue(view: OpsPage, message?: Html, status?: number) {
  const { t, csrf } = view.viewer;
  const queue = await view.command('refund.list_manual', {});
  const rows = queue.data.map(
    (r) => html`<tr data-refund="${r.refund_id}"><td><code>${r.refund_id}</code></td><td><a href="${OPS}/merchants/${r.merchant_id}"><code>${r.merchant_id}</code></a><br><code class="muted">${r.session_id}</code></td>
<td>${r.livemode ? t('mode_live_word') : t('mode_test_word')}</td><td class="num"><bdi>${r.amount} TND</bdi></td><td>${r.reason}</td><td>${r.epg_error_message}</td><td>${when(r.created_at)}</td>
<td><form method="post" action="${SECTION}/${r.refund_id}/resolve" class="row" aria-label="${t('resolve_button')} ${r.refund_id}">${csrfField(csrf)}
<label>${t('outcome')} <select name="as"><option value="succeeded">${t('resolved_succeeded')}</option><option value="failed">${t('resolved_failed')}</option></select></label>
<button type="submit" data-confirm="${t('resolve_confirm')}">${t('resolve_button')}</button></form></td></tr>`,
  );
  return view.render(
    SECTION,
    t('manual_refunds_section'),
    html`<h1>${t('manual_refunds_section')}</h1>
${message ?? ''}
<p class="muted">${t('manual_refunds_note')}</p>
<div class="card">${table([t('refund_column'), t('merchant'), t('mode'), t('amount'), t('reason'), t('acquirer_said'), t('created'), ''], rows, t('no_refund_waiting'), [3])}</div>`,
    status,
  );
}

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
      const as = field(req.body, 'as');
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
