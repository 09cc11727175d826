/**
 * Home (D21), where the dashboard opens: the money is the ledger's daily
 * report, the API's own (ledger.daily_report); the attempts are the session
 * service's per-day counts (session.stats): two commands a view, whatever the
 * volume.
 */
import type { Router } from 'express';
import { addDays, tunisDate } from '@gateway/contracts';
import { figuresSince } from '../../domain/daily-figures.js';
import { homePage, type PeriodKey } from '../../views/merchant/home.page.js';
import { BASE } from '../../views/paths.js';
import type { DoorDeps } from '../door.js';
import { merchantView, type MerchantPage } from './merchant-page.js';

/** The days Home looks back over: the charts', and the longest period's. */
const DAYS = 30;

const PERIODS: readonly { key: PeriodKey; days: number }[] = [
  { key: 'today', days: 1 },
  { key: '7d', days: 7 },
  { key: '30d', days: DAYS },
];

/** The Home route. */
export function homeRoutes(deps: DoorDeps, router: Router): void {
  router.get('/home', merchantView(deps, 'read', (view) => showHome(view)));
}

async function showHome(view: MerchantPage) {
  const to = tunisDate(new Date());
  const from = addDays(to, -(DAYS - 1));
  const query = { from, to };
  const [report, stats] = await Promise.all([view.call.api(view.merchant, 'ledger.daily_report', { query }), view.call.api(view.merchant, 'session.stats', { query })]);
  const periods = PERIODS.map((period) => ({ key: period.key, figures: figuresSince(report, stats, addDays(to, -(period.days - 1))) }));
  return view.render(`${BASE}/home`, homePage(view.viewer, { from, to, periods, report, stats }));
}
