/**
 * Payment links (D19): the merchant's links of the mode in view, one link's
 * page with the payments made through it (the session service's list,
 * filtered by the link). "Create link" and "Deactivate", for developers and
 * owners, are the API's own commands in the merchant's name (its validation,
 * its problems), audited as the API's changes made from the dashboard are.
 */
import type { Request, Router } from 'express';
import { AppError } from '@gateway/problem';
import { notice } from '../../views/layout.js';
import { linkCreatedNotice, paymentLinkPage } from '../../views/merchant/payment-link.page.js';
import { LINKS } from '../../views/merchant/payment-link-parts.js';
import { paymentLinksPage, type LinkDraft } from '../../views/merchant/payment-links.page.js';
import type { DoorDeps } from '../door.js';
import { cursorsOf, fieldOf, utcTime } from '../form-fields.js';
import { asTheApi, can, merchantChange, merchantView, type SectionView } from './merchant-page.js';

/** The route of "Create link": a refused form is shown again as it was filled. */
const CREATE_ROUTE = '/payment-links';
const PAGE_SIZE = '25';

function draftOf(req: Request): LinkDraft {
  const field = (name: string) => fieldOf(req.body, name);
  return {
    description: field('description'),
    pricing: field('pricing') === 'open' ? 'open' : 'fixed',
    amount: field('amount'),
    currency: field('currency'),
    amount_min: field('amount_min'),
    amount_max: field('amount_max'),
    max_payments: field('max_payments'),
    expires_at: field('expires_at'),
    collect_phone: field('collect_phone') !== '',
    locale: field('locale'),
    return_url: field('return_url'),
  };
}

/**
 * The body the API's create takes, from the form: an empty optional field is
 * left out, the rest goes as typed (a whole number of payments as the integer
 * the API takes); the checkout service judges it all.
 */
function createBody(draft: LinkDraft): Record<string, unknown> {
  const body: Record<string, unknown> = { description: draft.description };
  if (draft.pricing === 'open') {
    body['open_amount'] = true;
    if (draft.amount_min !== '') body['amount_min'] = draft.amount_min;
    if (draft.amount_max !== '') body['amount_max'] = draft.amount_max;
  } else {
    if (draft.amount !== '') body['amount'] = draft.amount;
    if (draft.currency !== '') body['currency'] = draft.currency.toUpperCase();
  }
  if (draft.max_payments !== '') body['max_payments'] = /^\d{1,9}$/.test(draft.max_payments) ? Number(draft.max_payments) : draft.max_payments;
  if (draft.expires_at !== '') body['expires_at'] = utcTime(draft.expires_at);
  if (draft.collect_phone) body['collect_phone'] = true;
  if (draft.locale !== '') body['locale'] = draft.locale;
  if (draft.return_url !== '') body['return_url'] = draft.return_url;
  return body;
}

/** The query of a page of a list: its size and the cursors it was asked with. */
function pageQuery(req: Request): Record<string, string> {
  const cursors = cursorsOf(req);
  return { limit: PAGE_SIZE, ...(cursors.startingAfter && { starting_after: cursors.startingAfter }), ...(cursors.endingBefore && { ending_before: cursors.endingBefore }) };
}

/** The links of the mode in view, a page at a time, newest first. */
const showLinks: SectionView = async (view, req, message, status) => {
  const { viewer, merchant } = view;
  const list = await view.call.api(merchant, 'payment_link.list', { query: pageQuery(req) });
  const livePending = viewer.mode === 'live' && merchant.kyb_approved_at === null;
  const developer = can(viewer, 'develop');
  // A refused "Create link" comes back as it was filled in, beside the API's problem.
  const refused = status !== undefined && req.method === 'POST' && (req.route as { path?: unknown } | undefined)?.path === CREATE_ROUTE;
  const links = { list, cursors: cursorsOf(req), developer, creates: developer && !livePending, ...(refused && { draft: draftOf(req) }) };
  return view.render(LINKS, paymentLinksPage(viewer, links, message), status);
};

/** One link: its facts, its QR code, and the payments made through it. */
const showLink: SectionView = async (view, req, message, status) => {
  const { viewer, merchant } = view;
  const link = await view.call.api(merchant, 'payment_link.get', { payment_link_id: String(req.params['id']) });
  const payments = await view.call.api(merchant, 'session.list', { query: pageQuery(req), payment_link: link.id });
  return view.render(LINKS, paymentLinkPage(viewer, { link, payments, cursors: cursorsOf(req), developer: can(viewer, 'develop') }, message), status);
};

/** The Payment links routes: the list, "Create link", one link and its Deactivate. */
export function paymentLinkRoutes(deps: DoorDeps, router: Router): void {
  router.get('/payment-links', merchantView(deps, 'read', showLinks));

  router.post(
    CREATE_ROUTE,
    ...merchantChange(deps, 'develop', showLinks, async (req, view) => {
      const body = createBody(draftOf(req));
      // Live mode opens with the business's verification (D14): no live key before it, so no live link either.
      if (view.viewer.mode === 'live' && view.merchant.kyb_approved_at === null) throw new AppError('forbidden', 'Live payments open once your business is verified.');
      const created = await asTheApi(deps, view, { action: 'payment_link.create', target: null, detail: body }, () => view.call.api(view.merchant, 'payment_link.create', { body }));
      return linkCreatedNotice(view.viewer.t, created);
    }),
  );

  // Another account's link, or none, is the checkout service's not-found (D2), shown as a page.
  router.get('/payment-links/:id', merchantView(deps, 'read', showLink));

  router.post(
    '/payment-links/:id/deactivate',
    ...merchantChange(deps, 'develop', showLink, async (req, view) => {
      const id = String(req.params['id']);
      await asTheApi(deps, view, { action: 'payment_link.deactivate', target: id, detail: {} }, () => view.call.api(view.merchant, 'payment_link.deactivate', { payment_link_id: id }));
      return notice('ok', view.viewer.t('link_deactivated'));
    }),
  );
}
