/**
 * Reports (D21): a range of Africa/Tunis dates (the last 30 days unless
 * chosen) for the mode in view, its daily report (the API's
 * ledger.daily_report), and the CSV exports of those dates — payments,
 * refunds, balance transactions — streamed by the same module as the API's
 * /gateway/exports/*.csv (@gateway/exports), each page read with the API's
 * list command in the merchant's name. Every role may read and download.
 *
 * A download is an export as the API's are (D29): it holds one of the
 * merchant's export slots for its mode, the very slots the API's exports
 * take, from before its first page until its answer ends; past
 * EXPORTS_PER_MERCHANT running at once through either door, the Reports page
 * answers 429 with Retry-After and says so; past EXPORT_MAX_SECONDS, or
 * EXPORT_IDLE_TIMEOUT_MS without a byte taken, the download is cut off.
 */
import type { Request, Response, Router } from 'express';
import { addDays, dayRangeOf, tunisDate, tunisDayBounds } from '@gateway/contracts';
import { EXPORTS, isExportKind, openExport, sendCsv, withExportSlot, type ExportKind, type FetchPage } from '@gateway/exports';
import { AppError, queryProblem, retryAfterOf } from '@gateway/problem';
import { REPORTS, reportsPage } from '../../views/merchant/reports.page.js';
import type { DoorDeps, Outcome } from '../door.js';
import { signedIn } from '../signed-in.js';
import { merchantPage, merchantView, needs, type MerchantPage } from './merchant-page.js';

/** The range a Reports page opens on: the last 30 Tunis days, today included. */
const DEFAULT_DAYS = 30;

/** The dates asked for: each as typed, the default where none is given. */
function rangeOf(req: Request): { from: string; to: string } {
  const today = tunisDate(new Date());
  const value = (name: string, otherwise: string) => {
    const given = req.query[name];
    return typeof given === 'string' && given.trim() !== '' ? given.trim() : otherwise;
  };
  return { from: value('from', addDays(today, -(DEFAULT_DAYS - 1))), to: value('to', today) };
}

/** The Reports routes: the page, and each CSV download. */
export function reportRoutes(deps: DoorDeps, router: Router): void {
  router.get('/reports', merchantView(deps, 'read', async (view, req) => showReports(view, rangeOf(req), undefined)));

  router.get(
    '/reports/:file',
    signedIn(deps, 'dashboard', needs('read'), async (req, viewer, res): Promise<Outcome> => {
      const kind = /^(\w+)\.csv$/.exec(String(req.params['file']))?.[1];
      if (!isExportKind(kind)) throw new AppError('not-found', 'There is no such page.');
      const view = await merchantPage(deps, viewer);
      const range = rangeOf(req);
      const livemode = viewer.mode === 'live';
      try {
        // The dates are checked here as the daily report checks them: a bad one never becomes an instant.
        const checked = dayRangeOf(range);
        if ('errors' in checked) throw queryProblem(checked.errors, range);
        const { gte, lte } = tunisDayBounds(checked.range.from, checked.range.to);
        await withExportSlot(deps.exports.slots, { merchantId: view.merchant.merchant_id, livemode }, async () => {
          const csv = await openExport(kind, { 'created[gte]': gte, 'created[lte]': lte }, pageFetcher(view, kind));
          await sendCsv(csv, res, {
            livemode,
            requestId: viewer.requestId,
            log: deps.log,
            idleTimeoutMs: deps.exports.idleTimeoutMs,
            maxSeconds: deps.exports.maxSeconds,
            headOnly: req.method === 'HEAD',
          });
        });
      } catch (err) {
        // Refused before its first byte (the dates, or every export slot taken): the Reports page says why.
        if (err instanceof AppError && err.status < 500 && !res.headersSent) return showReports(view, range, err, res);
        throw err;
      }
      return { sent: true };
    }),
  );
}

/** Reads one page of an export's list with the API's list command (EXPORTS), in the merchant's name and the viewer's mode, as the API's export reads it. */
function pageFetcher(view: MerchantPage, kind: ExportKind): FetchPage {
  return (request) => view.call.api(view.merchant, EXPORTS[kind].command, request);
}

/**
 * The Reports page for `range`: its daily report and downloads; with a
 * refusal of a download, the refusal above them (its status, and its
 * Retry-After on `res` when it has one), or, when the range itself is
 * refused, only the refusal and the form to change it.
 */
async function showReports(view: MerchantPage, range: { from: string; to: string }, refusal: AppError | undefined, res?: Response): Promise<Outcome> {
  const retryAfter = retryAfterOf(refusal);
  if (retryAfter !== undefined) res?.set('Retry-After', String(retryAfter));
  let answer: Parameters<typeof reportsPage>[2];
  if (refusal && refusal.code !== 'rate-limit-exceeded') answer = { refusal };
  else {
    try {
      answer = { report: await view.call.api(view.merchant, 'ledger.daily_report', { query: range }), ...(refusal && { refusal }) };
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      answer = { refusal: err };
    }
  }
  return view.render(REPORTS, reportsPage(view.viewer, range, answer), answer.refusal?.status);
}
