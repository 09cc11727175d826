/**
 * Customers (D24): the customers of the mode in view, searched by email, one
 * customer's page with its saved cards and its payments (the session
 * service's list, filtered by the customer). "Remove card", for developers
 * and owners, is the API's own command in the merchant's name (its checks,
 * its problems), audited as the API's changes made from the dashboard are.
 */
import type { Request, Router } from 'express';
import { notice } from '../../views/layout.js';
import { CUSTOMERS, customerPage, customersPage } from '../../views/merchant/customers.page.js';
import type { DoorDeps } from '../door.js';
import { cursorsOf } from '../form-fields.js';
import { asTheApi, can, merchantChange, merchantView, type SectionView } from './merchant-page.js';

const PAGE_SIZE = '25';

/** The query of a page of a list: its size and the cursors it was asked with. */
function pageQuery(req: Request): Record<string, string> {
  const cursors = cursorsOf(req);
  return { limit: PAGE_SIZE, ...(cursors.startingAfter && { starting_after: cursors.startingAfter }), ...(cursors.endingBefore && { ending_before: cursors.endingBefore }) };
}

/** The customers of the mode in view, a page at a time, newest first; with an email, those with it. */
const showCustomers: SectionView = async (view, req) => {
  const email = typeof req.query['email'] === 'string' ? req.query['email'].trim() : '';
  const list = await view.call.api(view.merchant, 'customer.list', { query: { ...pageQuery(req), ...(email && { email }) } });
  return view.render(CUSTOMERS, customersPage(view.viewer, email, list, cursorsOf(req)));
};

/** One customer: who it is, its saved cards, its payments. */
const showCustomer: SectionView = async (view, req, message, status) => {
  const { viewer, merchant } = view;
  const customer = await view.call.api(merchant, 'customer.get', { customer_id: String(req.params['id']) });
  const payments = await view.call.api(merchant, 'session.list', { query: pageQuery(req), customer: customer.id });
  return view.render(CUSTOMERS, customerPage(viewer, { customer, payments, cursors: cursorsOf(req), developer: can(viewer, 'develop') }, message), status);
};

/** The Customers routes: the list, one customer, and its "Remove card". */
export function customerRoutes(deps: DoorDeps, router: Router): void {
  router.get('/customers', merchantView(deps, 'read', showCustomers));
  // Another account's customer, or none, is the session service's not-found (D2), shown as a page.
  router.get('/customers/:id', merchantView(deps, 'read', showCustomer));
  router.post(
    '/customers/:id/cards/:card/remove',
    ...merchantChange(deps, 'develop', showCustomer, async (req, view) => {
      const customerId = String(req.params['id']);
      const cardId = String(req.params['card']);
      await asTheApi(deps, view, { action: 'payment_method.delete', target: cardId, detail: { customer: customerId } }, () =>
        view.call.api(view.merchant, 'payment_method.delete', { customer_id: customerId, payment_method_id: cardId }),
      );
      return notice('ok', view.viewer.t('card_removed'));
    }),
  );
}
