/**
 * Payments (D14): the merchant's sessions newest first, filtered and paged by
 * the session service's own list (the API's rules and answers), one session
 * with its attempts, refunds and webhook deliveries, and the Refund button,
 * which is the API's refund; an authorized payment's Capture and Void (D22),
 * which are the API's capture and cancel.
 */
import type { Request, Router } from 'express';
import { SessionStatus, type CaptureMethod, type SessionDetail } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { html, type Html } from '@gateway/runtime';
import { newToken } from '../../identity/secrets.js';
import { audited, type DoorDeps } from '../door.js';
import type { TextKey } from '../../views/texts/catalogue.js';
import { BACK_ARROW, csrfField, FORWARD_ARROW, notice, table, when } from '../layout.js';
import { signedIn } from '../sign-in.js';
import { BASE, can, merchantChange, merchantPage, needs, type MerchantPage } from './frame.js';

const STATUSES = SessionStatus.anyOf.map((literal) => literal.const);
const SESSION_ID = /^ps_[0-9A-Za-z]{10,64}$/;
/** How long a refund may wait on the acquirer, as the API's refund route allows. */
const REFUND_TIMEOUT_MS = 60_000;
/**
 * How long a capture may wait: longer than the session service waits for the
 * adapter's capture (its CAPTURE_TIMEOUT_MS, 25 s by default), so that its own
 * answer (captured, capture-failed, processor-unavailable) is what the page shows.
 */
const CAPTURE_TIMEOUT_MS = 40_000;
const CAPTURE_METHOD_LABELS: Readonly<Record<CaptureMethod, TextKey>> = { automatic: 'capture_automatic', manual: 'capture_manual' };

function one(req: Request, name: string): string {
  const value = req.query[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A field of a posted form, trimmed; '' when absent. */
function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** The idempotency key a form was made with (D10: a double submit does the change once, as a retried API call would). */
function formKey(req: Request): string | undefined {
  const value = (req.body as Record<string, unknown>)['idempotency_key'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * An API change made from the dashboard: refused for a suspended merchant as
 * the API refuses its every call before it reaches the owning service, and,
 * as a change made from the dashboard, recorded in the audit log with its
 * outcome (D14).
 */
export function asTheApi<T>(deps: DoorDeps, view: MerchantPage, change: { action: string; target: string | null; detail: Record<string, unknown> }, work: () => Promise<T>): Promise<T> {
  const { viewer, merchant } = view;
  const entry = { action: change.action, merchantId: merchant.merchant_id, target: change.target, detail: { ...change.detail, livemode: viewer.mode === 'live' } };
  return audited(deps, viewer, entry, async () => {
    if (merchant.status === 'suspended') throw new AppError('forbidden', 'This merchant account is suspended.');
    return work();
  });
}

/** A yyyy-mm-dd date from a date field as the start or the end of that day, UTC. */
function dayBound(value: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  return `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`;
}

export function paymentRoutes(deps: DoorDeps, router: Router): void {
  router.get(
    '/payments',
    signedIn(deps, 'dashboard', needs('read'), async (req, viewer) => {
      const view = await merchantPage(deps, viewer);
      const { t } = viewer;
      const search = one(req, 'q');
      if (SESSION_ID.test(search)) return { redirect: `${BASE}/payments/${search}` };
      const status = one(req, 'status');
      const from = one(req, 'from');
      const to = one(req, 'to');
      const query: Record<string, string> = { limit: '25' };
      if (status) query['status'] = status;
      if (search) query['merchant_reference'] = search;
      const gte = dayBound(from, false);
      const lte = dayBound(to, true);
      if (gte) query['created[gte]'] = gte;
      if (lte) query['created[lte]'] = lte;
      for (const cursor of ['starting_after', 'ending_before']) if (one(req, cursor)) query[cursor] = one(req, cursor);
      const list = await view.call.api(view.merchant, 'session.list', { query });
      const keep = new URLSearchParams({ ...(status && { status }), ...(search && { q: search }), ...(from && { from }), ...(to && { to }) });
      const page = (cursor: string, id: string) => `${BASE}/payments?${new URLSearchParams([...keep, [cursor, id]]).toString()}`;
      const first = list.data[0];
      const last = list.data[list.data.length - 1];
      const backwards = one(req, 'ending_before') !== '';
      const rows = list.data.map(
        (s) => html`<tr><td><a href="${BASE}/payments/${s.id}">${s.order_number || s.id}</a></td><td>${s.merchant_reference}${
          s.payment_link ? html`<br><a href="${BASE}/payment-links/${s.payment_link}" class="muted" data-field="payment_link">${t('payment_link')}</a>` : ''
        }</td>
<td class="num"><bdi>${s.amount} TND</bdi>${s.original.currency !== 'TND' ? html`<br><bdi class="muted">${s.original.amount} ${s.original.currency}</bdi>` : ''}</td>
<td>${s.status}</td><td>${[s.buyer_first_name, s.buyer_last_name].filter(Boolean).join(' ')}</td><td>${when(s.created_at)}</td></tr>`,
      );
      return view.render(
        `${BASE}/payments`,
        t('payments_section'),
        html`<h1>${t('payments_section')}</h1>
<form method="get" action="${BASE}/payments" class="row" role="search">
<label>${t('search')} <input name="q" value="${search}" placeholder="ps_… / ${t('reference')}"></label>
<label>${t('status')} <select name="status"><option value="">${t('any_status')}</option>${STATUSES.map((s) => html`<option${s === status ? html` selected` : ''}>${s}</option>`)}</select></label>
<label>${t('from_date')} <input type="date" name="from" value="${from}"></label>
<label>${t('to_date')} <input type="date" name="to" value="${to}"></label>
<button type="submit">${t('filter_button')}</button>
</form>
<div class="card">${table([t('order'), t('reference'), t('amount'), t('status'), t('buyer'), t('created')], rows, t('no_payments_yet'), [2])}
<nav class="pager" aria-label="${t('pages_nav')}">
${first && (backwards ? list.has_more : one(req, 'starting_after') !== '') ? html`<a href="${page('ending_before', first.id)}">${BACK_ARROW} ${t('newer_page')}</a>` : ''}
${last && (backwards ? one(req, 'ending_before') !== '' : list.has_more) ? html`<a href="${page('starting_after', last.id)}">${t('older_page')} ${FORWARD_ARROW}</a>` : ''}
</nav></div>`,
      );
    }),
  );

  router.get(
    '/payments/:id',
    signedIn(deps, 'dashboard', needs('read'), async (req, viewer) => {
      const view = await merchantPage(deps, viewer);
      return showSession(view, String(req.params['id']));
    }),
  );

  const showAgain = (view: MerchantPage, req: Request, message?: Html, status?: number) => showSession(view, String(req.params['id']), message, status);

  router.post(
    '/payments/:id/refund',
    ...merchantChange(deps, 'develop', showAgain, async (req, view) => {
      const id = String(req.params['id']);
      const amount = field(req, 'amount');
      const key = formKey(req);
      const body = { reason: field(req, 'reason'), ...(amount ? { refund_type: 'PARTIAL', amount } : { refund_type: 'FULL' }) };
      const result = await asTheApi(deps, view, { action: 'refund.create', target: id, detail: body }, () =>
        view.call.api(view.merchant, 'refund.create', { session_id: id, body }, { timeoutMs: REFUND_TIMEOUT_MS, ...(key !== undefined && { idempotencyKey: key }) }),
      );
      const { t } = view.viewer;
      return result.automated_refund
        ? notice('ok', t('refunded_notice', { amount: `${result.refunded_amount} TND` }))
        : notice('warn', t('refund_unconfirmed_notice', { amount: `${result.refunded_amount} TND` }));
    }),
  );

  // D22: an authorized payment's hold captured, all of it (no amount) or part of it, by the API's capture.
  router.post(
    '/payments/:id/capture',
    ...merchantChange(deps, 'develop', showAgain, async (req, view) => {
      const id = String(req.params['id']);
      const amount = field(req, 'amount');
      const key = formKey(req);
      const body = amount ? { amount } : {};
      const captured = await asTheApi(deps, view, { action: 'session.capture', target: id, detail: body }, () =>
        view.call.api(view.merchant, 'session.capture', { session_id: id, body }, { timeoutMs: CAPTURE_TIMEOUT_MS, ...(key !== undefined && { idempotencyKey: key }) }),
      );
      return notice('ok', view.viewer.t('captured_notice', { amount: `${captured.amount_captured} TND` }));
    }),
  );

  // D22: Void is the API's cancel, which on an authorized payment releases its hold.
  router.post(
    '/payments/:id/void',
    ...merchantChange(deps, 'develop', showAgain, async (req, view) => {
      const id = String(req.params['id']);
      const key = formKey(req);
      const voided = await asTheApi(deps, view, { action: 'session.cancel', target: id, detail: {} }, () =>
        view.call.api(view.merchant, 'session.cancel', { session_id: id }, key !== undefined ? { idempotencyKey: key } : {}),
      );
      return notice('ok', view.viewer.t('voided_notice', { amount: `${voided.amount_authorized} TND` }));
    }),
  );
}

async function showSession(view: MerchantPage, id: string, message?: Html, status?: number) {
  const { t } = view.viewer;
  const session: SessionDetail = await view.call.api(view.merchant, 'session.get', { session_id: id });
  const [refunds, deliveries] = await Promise.all([
    view.call.api(view.merchant, 'refund.list_session', { session_id: id }),
    view.call.api(view.merchant, 'webhook.list_session', { session_id: id, query: { limit: '50' } }),
  ]);
  const attempts = session.attempts.map(
    (a) => html`<tr><td>${a.attempt_number}</td><td>${a.status}</td><td>${a.card_brand} ${a.card_last_four ? html`•••• ${a.card_last_four}` : ''}</td>
<td>${a.failure_code}</td><td class="num">${a.fee_amount}</td><td class="num">${a.net_amount}</td><td>${when(a.created_at)}</td></tr>`,
  );
  const refundRows = refunds.data.map(
    (r) => html`<tr><td><code>${r.refund_id}</code></td><td class="num"><bdi>${r.amount} TND</bdi></td><td>${r.status}</td><td>${r.reason}</td><td>${when(r.created_at)}</td></tr>`,
  );
  const deliveryRows = deliveries.data.map(
    (d) => html`<tr><td><a href="${BASE}/webhooks/attempts/${d.id}">${d.event}</a></td><td>${d.status}</td><td>${d.http_status_code ?? '—'}</td><td>${when(d.created_at)}</td></tr>`,
  );
  const refundable = session.status === 'SUCCEEDED' && can(view.viewer, 'develop');
  const capturable = session.status === 'AUTHORIZED' && can(view.viewer, 'develop');
  const manual = session.capture_method === 'manual';
  const tnd = (amount: string) => (amount ? html`<bdi>${amount} TND</bdi>` : '—');
  return view.render(
    `${BASE}/payments`,
    `${t('payments_section')} ${session.order_number}`,
    html`<p><a href="${BASE}/payments">${BACK_ARROW} ${t('payments_section')}</a></p>
<h1>${session.order_number || session.id} <span class="badge" data-field="status">${session.status}</span></h1>
${message ?? ''}
<div class="card"><dl class="facts">
<dt>${t('id')}</dt><dd><code>${session.id}</code></dd>
<dt>${t('reference')}</dt><dd>${session.merchant_reference}</dd>
${session.payment_link ? html`<dt>${t('payment_link')}</dt><dd data-field="payment_link"><a href="${BASE}/payment-links/${session.payment_link}"><code>${session.payment_link}</code></a></dd>` : ''}
<dt>${t('amount')}</dt><dd>${tnd(session.amount)}</dd>
<dt>${t('original_amount')}</dt><dd><bdi>${session.original.amount} ${session.original.currency} × ${session.original.rate}</bdi></dd>
<dt>${t('capture_method')}</dt><dd data-field="capture_method">${t(CAPTURE_METHOD_LABELS[session.capture_method])}</dd>
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
<form method="post" action="${BASE}/payments/${session.id}/capture" class="row" data-confirm="${t('capture_confirm')}">${csrfField(view.viewer.csrf)}
<input type="hidden" name="idempotency_key" value="${newToken(16)}">
<label>${t('amount')} <input name="amount" inputmode="decimal" placeholder="${session.amount_authorized}" aria-describedby="capture-hint"></label>
<button type="submit">${t('capture_button')}</button>
<span id="capture-hint" class="muted">${t('capture_hint')}</span>
</form>
<form method="post" action="${BASE}/payments/${session.id}/void" class="row" data-confirm="${t('void_confirm')}">${csrfField(view.viewer.csrf)}
<input type="hidden" name="idempotency_key" value="${newToken(16)}">
<button type="submit" class="danger">${t('void_button')}</button>
</form></section>`
    : ''
}
<section class="card"><h2>${t('attempts')}</h2>${table(['#', t('status'), t('card'), t('failure'), t('fee'), t('net'), t('created')], attempts, t('nothing_yet'), [4, 5])}</section>
<section class="card"><h2>${t('refunds')}</h2>${table([t('id'), t('amount'), t('status'), t('reason'), t('created')], refundRows, t('nothing_yet'), [1])}
${
  refundable
    ? html`<form method="post" action="${BASE}/payments/${session.id}/refund" class="row" data-confirm="${t('refund_confirm')}">${csrfField(view.viewer.csrf)}
<input type="hidden" name="idempotency_key" value="${newToken(16)}">
<label>${t('amount')} <input name="amount" inputmode="decimal" placeholder="${session.amount}" aria-describedby="refund-hint"></label>
<label>${t('reason')} <input name="reason" required maxlength="500"></label>
<button type="submit" class="danger">${t('refund_button')}</button>
<span id="refund-hint" class="muted">${t('refund_hint')}</span>
</form>`
    : ''
}</section>
<section class="card"><h2>${t('webhook_deliveries')}</h2>${table([t('event'), t('status'), t('http_code'), t('time')], deliveryRows, t('nothing_yet'))}</section>`,
    status,
  );
}
