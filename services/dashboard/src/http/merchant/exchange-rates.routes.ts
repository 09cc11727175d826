/** Exchange rates (D14): the session service's rates of the mode in view (INTERFACE 2.8), set and removed by developers and owners. */
import type { Router } from 'express';
import { notice } from '../../views/layout.js';
import { exchangeRatesPage } from '../../views/merchant/exchange-rates.page.js';
import { BASE } from '../../views/paths.js';
import type { DoorDeps } from '../door.js';
import { fieldOf } from '../form-fields.js';
import { can, merchantChange, merchantView, type SectionView } from './merchant-page.js';

const RATES = `${BASE}/exchange-rates`;

/** The Exchange rates routes: the list, a rate set, a rate removed. */
export function exchangeRateRoutes(deps: DoorDeps, router: Router): void {
  const show: SectionView = async (view, _req, message, status) => {
    const { viewer } = view;
    const rates = await view.call.command('rate.list', { merchant_id: view.merchant.merchant_id, mode: viewer.mode });
    return view.render(RATES, exchangeRatesPage(viewer, rates, can(viewer, 'develop'), message), status);
  };
  router.get('/exchange-rates', merchantView(deps, 'read', show));
  router.post(
    '/exchange-rates',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const { viewer } = view;
      const set = await view.call.command('rate.set', { merchant_id: view.merchant.merchant_id, mode: viewer.mode, currency: fieldOf(req.body, 'currency'), rate: fieldOf(req.body, 'rate') });
      return notice('ok', viewer.t('rate_saved', { currency: set.currency, rate: set.rate }));
    }),
  );
  router.post(
    '/exchange-rates/remove',
    ...merchantChange(deps, 'develop', show, async (req, view) => {
      const { viewer } = view;
      const removed = await view.call.command('rate.remove', { merchant_id: view.merchant.merchant_id, mode: viewer.mode, currency: fieldOf(req.body, 'currency') });
      return notice('ok', viewer.t('rate_removed', { currency: removed.currency }));
    }),
  );
}
