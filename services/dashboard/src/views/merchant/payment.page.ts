/**
 * One payment (D14, D22): its facts, its attempts, refunds and webhook
 * deliveries; the Refund form on a succeeded payment, Capture and Void on an
 * authorized one, for developers and owners.
 */
import type { Attempt, CaptureMethod, CommandReply, SessionDetail } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { newToken } from '../../domain/tokens.js';
import { BACK_ARROW, csrfField, table, when, type PageView, type Reader } from '../layout.js';
import { BASE } from '../paths.js';
import type { TextKey, Words } from '../texts/catalogue.js';

const CAPTURE_METHOD_NAMES: Readonly<Record<CaptureMethod, TextKey>> = { automatic: 'capture_automatic', manual: 'capture_manual' };

/** The wallet's own name (D26), written the same in every language. */
const FLOUCI = 'Flouci';

/**
 * Whether an attempt was paid with Flouci (D26): its payment_method_type says;
 * an attempt from a session service that predates the field is known by the
 * brand such attempts carry.
 */
function paidWithFlouci(attempt: Attempt & { payment_method_type?: string }): boolean {
  return attempt.payment_method_type === undefined ? attempt.card_brand === 'flouci' : attempt.payment_method_type === 'flouci';
}

/** How an attempt pays: Flouci, or the card with its brand and last four when known. */
function methodCell(t: Words, attempt: Attempt): Html {
  if (paidWithFlouci(attempt)) return html`<span data-field="payment_method">${FLOUCI}</span>`;
  const card = `${attempt.card_brand}${attempt.card_last_four ? ` •••• ${attempt.card_last_four}` : ''}`.trim();
  return html`<span data-field="payment_method">${t('card')}</span>${card ? html` <bdi>${card}</bdi>` : ''}`;
}

/** A payment as its page shows it. */
interface PaymentView {
  session: SessionDetail;
  refunds: CommandReply<'refund.list_session'>;
  deliveries: CommandReply<'webhook.list_session'>;
  /** Whether the reader may refund, capture and void. */
  developer: boolean;
}

/** The page, with the outcome of a change when there is one. */
export function paymentPage(reader: Reader, payment: PaymentView, message?: Html): PageView {
  const { t } = reader;
  const { session, refunds, deliveries } = payment;
  const attempts = session.attempts.map(
    (a) => html`<tr><td>${a.attempt_number}</td><td>${a.status}</td><td>${methodCell(t, a)}</td>
<td>${a.failure_code}</td><td class="num">${a.fee_amount}</td><td class="num">${a.net_amount}</td><td>${when(a.created_at)}</td></tr>`,
  );
  const refundRows = refunds.data.map(
    (r) => html`<tr><td><code>${r.refund_id}</code></td><td class="num"><bdi>${r.amount} TND</bdi></td><td>${r.status}</td><td>${r.reason}</td><td>${when(r.created_at)}</td></tr>`,
  );
  const deliveryRows = deliveries.data.map(
    (d) => html`<tr><td><a href="${BASE}/webhooks/attempts/${d.id}">${d.event}</a></td><td>${d.status}</td><td>${d.http_status_code ?? '—'}</td><td>${when(d.created_at)}</td></tr>`,
  );
  const refundable = session.status === 'SUCCEEDED' && payment.developer;
  const capturable = session.status === 'AUTHORIZED' && payment.developer;
  const manual = session.capture_method === 'manual';
  const tnd = (amount: string) => (amount ? html`<bdi>${amount} TND</bdi>` : '—');
  const body = html`<p><a href="${BASE}/payments">${BACK_ARROW} ${t('payments_section')}</a></p>
<h1>${session.order_number || session.id} <span class="badge" data-field="status">${session.status}</span></h1>
${message ?? ''}
<div class="card"><dl class="facts">
<dt>${t('id')}</dt><dd><code>${session.id}</code></dd>
<dt>${t('reference')}</dt><dd>${session.merchant_reference}</dd>
${session.payment_link ? html`<dt>${t('payment_link')}</dt><dd data-field="payment_link"><a href="${BASE}/payment-links/${session.payment_link}"><code>${session.payment_link}</code></a></dd>` : ''}
<dt>${t('amount')}</dt><dd>${tnd(session.amount)}</dd>
<dt>${t('original_amount')}</dt><dd><bdi>${session.original.amount} ${session.original.currency} × ${session.original.rate}</bdi></dd>
<dt>${t('capture_method')}</dt><dd data-field="capture_method">${t(CAPTURE_METHOD_NAMES[session.capture_method])}</dd>
${manual ? html`<dt>${t('amount_authorized')}</dt><dd data-field="amount_authorized">${tnd(session.amount_authorized)}</dd>
<dt>${t('amount_captured')}</dt><dd data-field="amount_captured">${tnd(session.amount_captured)}</dd>` : ''}
<dt>${t('amount_refunded')}</dt><dd data-field="amount_refunded"><bdi>${session.amount_refunded} TND</bdi></dd>
<dt>${t('description')}</dt><dd>${session.description}</dd>
<dt>${t('buyer')}</dt><dd>${[session.buyer_first_name, session.buyer_last_name].filter(Boolean).join(' ')} ${session.buyer_email}</dd>
<dt>${t('metadata')}</dt><dd>${Object.keys(session.metadata).length > 0 ? html`<pre>${JSON.stringify(session.metadata, null, 2)}</pre>` : '—'}</dd>
<dt>${t('created')}</dt><dd>${when(session.created_at)}</dd>
</dl></div>
${
  capturable
    ? html`<section class="card"><h2>${t('authorized_payment')}</h2>
<p>${t('held_note')}</p>
<form method="post" action="${BASE}/payments/${session.id}/capture" class="row" data-confirm="${t('capture_confirm')}">${csrfField(reader.csrf)}
<input type="hidden" name="idempotency_key" value="${newToken(16)}">
<label>${t('amount')} <input name="amount" inputmode="decimal" placeholder="${session.amount_authorized}" aria-describedby="capture-hint"></label>
<button type="submit">${t('capture_button')}</button>
<span id="capture-hint" class="muted">${t('capture_hint')}</span>
</form>
<form method="post" action="${BASE}/payments/${session.id}/void" class="row" data-confirm="${t('void_confirm')}">${csrfField(reader.csrf)}
<input type="hidden" name="idempotency_key" value="${newToken(16)}">
<button type="submit" class="danger">${t('void_button')}</button>
</form></section>`
    : ''
}
<section class="card"><h2>${t('attempts')}</h2>${table(['#', t('status'), t('payment_method'), t('failure'), t('fee'), t('net'), t('created')], attempts, t('nothing_yet'), [4, 5])}</section>
<section class="card"><h2>${t('refunds')}</h2>${table([t('id'), t('amount'), t('status'), t('reason'), t('created')], refundRows, t('nothing_yet'), [1])}
${
  refundable
    ? html`<form method="post" action="${BASE}/payments/${session.id}/refund" class="row" data-confirm="${t('refund_confirm')}">${csrfField(reader.csrf)}
<input type="hidden" name="idempotency_key" value="${newToken(16)}">
<label>${t('amount')} <input name="amount" inputmode="decimal" placeholder="${session.amount}" aria-describedby="refund-hint"></label>
<label>${t('reason')} <input name="reason" required maxlength="500"></label>
<button type="submit" class="danger">${t('refund_button')}</button>
<span id="refund-hint" class="muted">${t('refund_hint')}</span>
</form>`
    : ''
}</section>
<section class="card"><h2>${t('webhook_deliveries')}</h2>${table([t('event'), t('status'), t('http_code'), t('time')], deliveryRows, t('nothing_yet'))}</section>`;
  return { title: `${t('payments_section')} ${session.order_number}`, body };
}
