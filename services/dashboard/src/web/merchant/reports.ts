/**
 * Reports (D21): a range of Africa/Tunis dates (the last 30 days unless
 * chosen) for the mode in view, its daily report with totals (the API's
 * ledger.daily_report), and the CSV exports of those dates — payments,
 * refunds, balance transactions — streamed by the same module as the API's
 * /gateway/exports/*.csv (@gateway/exports), each page read with the API's
 * list command in the merchant's name. Every role may read and download.
 */
import type { Request, Router } from 'express';
import { addDays, dayRangeOf, tunisDate, tunisDayBounds, type DailyReport } from '@gateway/contracts';
import { EXPORTS, isExportKind, openExport, sendCsv, type ExportKind, type FetchPage } from '@gateway/exports';
import { addTnd } from '@gateway/money';
import { AppError, queryProblem } from '@gateway/problem';
import { html, type Html } from '@gateway/runtime';
import { problemNotice, type DoorDeps, type Outcome } from '../door.js';
import type { TextKey } from '../../views/texts/catalogue.js';
import { signedIn } from '../sign-in.js';
import { BASE, merchantPage, needs, type MerchantPage } from './frame.js';

const REPORTS = `${BASE}/reports`;

/** The range a Reports page opens on: the last 30 Tunis days, today included. */
const DEFAULT_DAYS = 30;

/** A download whose browser takes no byte for a minute is cut off, as the API's exports are. */
const EXPORT_IDLE_TIMEOUT_MS = 60_000;

/** The downloads, by export kind (D21's file names), with the links' words. */
const DOWNLOADS: readonly { kind: ExportKind; label: TextKey }[] = [
  { kind: 'sessions', label: 'payments_csv' },
  { kind: 'refunds', label: 'refunds_csv' },
  { kind: 'balance_transactions', label: 'balance_transactions_csv' },
];

/** The dates asked for: each as typed, the default where none is given. */
function rangeOf(req: Request): { from: string; to: string } {
  const today = tunisDate(new Date());
  const value = (name: string, otherwise: string) => {
    const given = req.query[name];
    return typeof given === 'string' && given.trim() !== '' ? given.trim() : otherwise;
  };
  return { from: value('from', addDays(today, -(DEFAULT_DAYS - 1))), to: value('to', today) };
}

export function reportRoutes(deps: DoorDeps, router: Router): void {
  router.get(
    '/reports',
    signedIn(deps, 'dashboard', needs('read'), async (req, viewer) => showReports(await merchantPage(deps, viewer), rangeOf(req))),
  );

  router.get(
    '/reports/:file',
    signedIn(deps, 'dashboard', needs('read'), async (req, viewer, res): Promise<Outcome> => {
      const kind = /^(\w+)\.csv$/.exec(String(req.params['file']))?.[1];
      if (!isExportKind(kind)) throw new AppError('not-found', 'There is no such page.');
      const view = await merchantPage(deps, viewer);
      const range = rangeOf(req);
      let csv;
      try {
        // The dates are checked here as the daily report checks them: a bad one never becomes an instant.
        const checked = dayRangeOf(range);
        if ('errors' in checked) throw queryProblem(checked.errors, range);
        const { gte, lte } = tunisDayBounds(checked.range.from, checked.range.to);
        csv = await openExport(kind, { 'created[gte]': gte, 'created[lte]': lte }, pageFetcher(view, kind));
      } catch (err) {
        if (err instanceof AppError && err.status < 500) return showReports(view, range, err);
        throw err;
      }
      await sendCsv(csv, res, { livemode: viewer.mode === 'live', requestId: viewer.requestId, log: deps.log, idleTimeoutMs: EXPORT_IDLE_TIMEOUT_MS, headOnly: req.method === 'HEAD' });
      return { sent: true };
    }),
  );
}

/** Reads one page of an export's list with the API's list command (EXPORTS), in the merchant's name and the viewer's mode, as the API's export reads it. */
function pageFetcher(view: MerchantPage, kind: ExportKind): FetchPage {
  return (request) => view.call.api(view.merchant, EXPORTS[kind].command, request);
}

/** The Reports page for `range`: its daily report and downloads, or, when the range is refused, the refusal and the form to change it. */
async function showReports(view: MerchantPage, range: { from: string; to: string }, refusal?: AppError): Promise<Outcome> {
  const { t, language } = view.viewer;
  let report: DailyReport | undefined;
  let problem = refusal;
  if (!problem) {
    try {
      report = await view.call.api(view.merchant, 'ledger.daily_report', { query: range });
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      problem = err;
    }
  }
  const query = new URLSearchParams(range).toString();
  return view.render(
    REPORTS,
    t('reports_section'),
    html`<h1>${t('reports_section')} <span class="badge ${view.viewer.mode}">${view.viewer.mode === 'live' ? t('live_mode') : t('test_mode')}</span></h1>
${problem ? problemNotice(problem, language) : ''}
<form method="get" action="${REPORTS}" class="row card">
<label>${t('from_date')} <input type="date" name="from" value="${range.from}" required></label>
<label>${t('to_date')} <input type="date" name="to" value="${range.to}" required></label>
<button type="submit">${t('show_button')}</button>
<span class="muted">${t('tunis_dates_note')}</span>
</form>
${
  report
    ? html`<section class="card" aria-labelledby="downloads-heading"><h2 id="downloads-heading">${t('downloads')}</h2>
<ul class="downloads">${DOWNLOADS.map((d) => html`<li><a href="${REPORTS}/${d.kind}.csv?${query}">${t(d.label)}</a></li>`)}</ul>
<p class="muted">${t('downloads_note', { from: range.from, to: range.to })}</p>
</section>
<section class="card" aria-labelledby="daily-heading"><h2 id="daily-heading">${t('daily_report')}</h2>${dailyTable(view, report)}</section>`
    : ''
}`,
    problem?.status,
  );
}

function dailyTable(view: MerchantPage, report: DailyReport): Html {
  const { t } = view.viewer;
  const total = { payments_count: 0, gross: '0.000', fees: '0.000', refunds: '0.000', net: '0.000' };
  for (const day of report.data) {
    total.payments_count += day.payments_count;
    total.gross = addTnd(total.gross, day.gross);
    total.fees = addTnd(total.fees, day.fees);
    total.refunds = addTnd(total.refunds, day.refunds);
    total.net = addTnd(total.net, day.net);
  }
  const cells = (d: typeof total) =>
    html`<td class="num">${d.payments_count}</td><td class="num"><bdi>${d.gross}</bdi></td><td class="num"><bdi>${d.fees}</bdi></td><td class="num"><bdi>${d.refunds}</bdi></td><td class="num"><bdi>${d.net}</bdi></td>`;
  // Newest first, as every list of the dashboard.
  const rows = [...report.data].reverse().map((day) => html`<tr data-date="${day.date}"><th scope="row"><time datetime="${day.date}">${day.date}</time></th>${cells(day)}</tr>`);
  return html`<table class="daily"><caption class="muted">${t('amounts_in_tnd')}</caption>
<thead><tr><th scope="col">${t('date')}</th><th scope="col" class="num">${t('payments')}</th><th scope="col" class="num">${t('gross')}</th><th scope="col" class="num">${t('fees')}</th><th scope="col" class="num">${t('refunds')}</th><th scope="col" class="num">${t('net')}</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr data-date="total"><th scope="row">${t('total')}</th>${cells(total)}</tr></tfoot></table>`;
}
