/** The console's manual refunds (D10, D15): refunds the acquirer could not confirm, oldest first, each with its form to resolve it. */
import type { CommandReply } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { csrfField, table, when, type PageView, type Reader } from '../layout.js';
import { OPS } from '../paths.js';

const SECTION = `${OPS}/manual-refunds`;

/** The queue, with the outcome of a change when there is one. */
export function manualRefundsPage(reader: Reader, queue: CommandReply<'refund.list_manual'>, message?: Html): PageView {
  const { t, csrf } = reader;
  const rows = queue.data.map(
    (r) => html`<tr data-refund="${r.refund_id}"><td><code>${r.refund_id}</code></td><td><a href="${OPS}/merchants/${r.merchant_id}"><code>${r.merchant_id}</code></a><br><code class="muted">${r.session_id}</code></td>
<td>${r.livemode ? t('mode_live_word') : t('mode_test_word')}</td><td class="num"><bdi>${r.amount} TND</bdi></td><td>${r.reason}</td><td>${r.epg_error_message}</td><td>${when(r.created_at)}</td>
<td><form method="post" action="${SECTION}/${r.refund_id}/resolve" class="row" aria-label="${t('resolve_button')} ${r.refund_id}">${csrfField(csrf)}
<label>${t('outcome')} <select name="as"><option value="succeeded">${t('resolved_succeeded')}</option><option value="failed">${t('resolved_failed')}</option></select></label>
<button type="submit" data-confirm="${t('resolve_confirm')}">${t('resolve_button')}</button></form></td></tr>`,
  );
  const body = html`<h1>${t('manual_refunds_section')}</h1>
${message ?? ''}
<p class="muted">${t('manual_refunds_note')}</p>
<div class="card">${table([t('refund_column'), t('merchant'), t('mode'), t('amount'), t('reason'), t('acquirer_said'), t('created'), ''], rows, t('no_refund_waiting'), [3])}</div>`;
  return { title: t('manual_refunds_section'), body };
}
