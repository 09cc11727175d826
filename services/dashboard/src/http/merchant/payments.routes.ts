/**
 * Payments (D14): the merchant's sessions, filtered and paged by the session
 * service's own list (the API's rules and answers), one session with its
 * attempts, refunds and webhook deliveries, and the Refund button, which is
 * the API's refund; an authorized payment's Capture and Void (D22), which are
 * the API's capture and cancel.
 */
import type { Request, Router } from 'express';
import type { Html } from '@gateway/runtime';
import { notice } from '../../views/layout.js';
import { paymentPage } from '../../views/merchant/payment.page.js';
import { paymentsPage } from '../../views/merchant/payments.page.js';
import { BASE } from '../../views/paths.js';
import type { DoorDeps } from '../door.js';
import { cursorsOf, fieldOf, queryField } from '../form-fields.js';
import { asTheApi, can, merchantChange, merchantView, type MerchantPage } from './merchant-page.js';

const SESSION_ID = /^ps_[0-9A-Za-z]{10,64}$/;
/** How long a refund may wait on the acquirer, as the API's refund route allows. */
const REFUND_TIMEOUT_MS = 60_000;
/**
 * How long a capture may wait: longer than the session service waits for the
 * adapter's capture (its CAPTURE_TIMEOUT_MS, 25 s by default), so that its own
 * answer (captured, capture-failed, processor-unavailable) is what the page shows.
 */
const CAPTURE_TIMEOUT_MS = 40_000;

/** The idempotency key a form was made with (D10: a double submit does the change once, as a retried API call would). */
function formKey(req: Request): string | undefined {
  const value = (req.body as Record<string, unknown>)['idempotency_key'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A yyyy-mm-dd date from a date field as the start or the end of that day, UTC. */
function dayBound(value: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  return `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`;
}

/** The Payments routes: the list, one payment, and its Refund, Capture and Void. */
export function paymentRoutes(deps: DoorDeps, router: Router): void {
  router.get(
    '/payments',
    merchantView(deps, 'read', async (view, req) => {
      const search = queryField(req, 'q');
      if (SESSION_ID.test(search)) return { redirect: `${BASE}/payments/${search}` };
      const filter = { search, status: queryField(req, 'status'), from: queryField(req, 'from'), to: queryField(req, 'to') };
      const cursors = cursorsOf(req);
      const query: Record<string, string> = { limit: '25' };
      if (filter.status) query['status'] = filter.status;
      if (search) query['merchant_reference'] = search;
      const gte = dayBound(filter.from, false);
      const lte = dayBound(filter.to, true);
      if (gte) query['created[gte]'] = gte;
      if (lte) query['created[lte]'] = lte;
      if (cursors.startingAfter) query['starting_after'] = cursors.startingAfter;
      if (cursors.endingBefore) query['ending_before'] = cursors.endingBefore;
      const list = await view.call.api(view.merchant, 'session.list', { query });
      return view.render(`${BASE}/payments`, paymentsPage(view.viewer, filter, list, cursors));
    }),
  );

  const showAgain = (view: MerchantPage, req: Request, message?: Html, status?: number) => showSession(view, String(req.params['id']), message, status);

  router.get('/payments/:id', merchantView(deps, 'read', showAgain));

  router.post(
    '/payments/:id/refund',
    ...merchantChange(deps, 'develop', showAgain, async (req, view) => {
      const id = String(req.params['id']);
      const amount = fieldOf(req.body, 'amount');
      const key = formKey(req);
      const body = { reason: fieldOf(req.body, 'reason'), ...(amount ? { refund_type: 'PARTIAL', amount } : { refund_type: 'FULL' }) };
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
      const amount = fieldOf(req.body, 'amount');
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
  const session = await view.call.api(view.merchant, 'session.get', { session_id: id });
  const [refunds, deliveries] = await Promise.all([
    view.call.api(view.merchant, 'refund.list_session', { session_id: id }),
    view.call.api(view.merchant, 'webhook.list_session', { session_id: id, query: { limit: '50' } }),
  ]);
  return view.render(`${BASE}/payments`, paymentPage(view.viewer, { session, refunds, deliveries, developer: can(view.viewer, 'develop') }, message), status);
}
