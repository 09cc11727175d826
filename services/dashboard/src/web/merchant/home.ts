/**
 * Home (D21), where the dashboard opens: for the mode in view, today, the
 * last 7 and the last 30 Africa/Tunis days at a glance (gross, net, payments,
 * success rate, refunds), the daily volume and the declines by reason, drawn
 * on the server. The money is the ledger's daily report, the API's own
 * (ledger.daily_report); the attempts are the session service's per-day
 * counts (session.stats): two commands a view, whatever the volume.
 */
import type { Router } from 'express';
import { addDays, tunisDate, type DailyReport, type SessionStats } from '@gateway/contracts';
import { addTnd, compareTnd } from '@gateway/money';
import { html, type Html } from '@gateway/runtime';
import type { DoorDeps } from '../door.js';
import type { Language, Text, Translate } from '../i18n.js';
import { BASE, merchantView, type MerchantPage } from './frame.js';
import { barChart, columnChart, type Bar } from './charts.js';

/** The days Home looks back over: the charts', and the longest period's. */
const DAYS = 30;

const PERIODS: readonly { key: string; label: Text; days: number }[] = [
  { key: 'today', label: 'Today', days: 1 },
  { key: '7d', label: 'Last 7 days', days: 7 },
  { key: '30d', label: 'Last 30 days', days: DAYS },
];

/** The acquirer adapter's failure codes (D8's declines) as people read them; any other code is shown as it is. */
const REASONS: Readonly<Record<string, Text>> = {
  card_declined: 'Card declined',
  insufficient_funds: 'Insufficient funds',
  expired_card: 'Expired card',
  incorrect_cvc: 'Incorrect security code',
  processing_error: 'Processing error',
  authentication_failed: '3-D Secure authentication failed',
};

/** How a percentage is written in each language (the digits stay Latin, as every amount on the page). */
const PERCENT_LOCALES: Readonly<Record<Language, string>> = { en: 'en-GB', fr: 'fr-FR', ar: 'ar-TN' };

export function homeRoutes(deps: DoorDeps, router: Router): void {
  router.get('/home', merchantView(deps, 'read', (view) => showHome(view)));
}

/** One period's figures, summed from the daily report and the stats. */
interface Period {
  gross: string;
  net: string;
  refunds: string;
  payments: number;
  succeeded: number;
  failed: number;
}

async function showHome(view: MerchantPage) {
  const { t } = view.viewer;
  const to = tunisDate(new Date());
  const from = addDays(to, -(DAYS - 1));
  const query = { from, to };
  const [report, stats] = await Promise.all([view.call.api(view.merchant, 'ledger.daily_report', { query }), view.call.api(view.merchant, 'session.stats', { query })]);
  const periods = PERIODS.map((period) => ({ ...period, figures: sumSince(report, stats, addDays(to, -(period.days - 1))) }));
  const percent = new Intl.NumberFormat(PERCENT_LOCALES[view.viewer.language], { style: 'percent', maximumFractionDigits: 1 });
  const rate = (p: Period) => (p.succeeded + p.failed === 0 ? '—' : percent.format(p.succeeded / (p.succeeded + p.failed)));
  const tnd = (amount: string) => html`<bdi>${amount} TND</bdi>`;
  const rows: [Text, string, (p: Period) => Html | string][] = [
    ['Gross', 'gross', (p) => tnd(p.gross)],
    ['Net', 'net', (p) => tnd(p.net)],
    ['Payments', 'payments', (p) => String(p.payments)],
    ['Success rate', 'success-rate', rate],
    ['Refunds', 'refunds', (p) => tnd(p.refunds)],
  ];
  return view.render(
    `${BASE}/home`,
    t('Home'),
    html`<h1>${t('Home')}</h1>
<p class="muted">${t('{mode}, Africa/Tunis days, today {date}.', { mode: view.viewer.mode === 'live' ? t('Live mode') : t('Test mode'), date: to })}</p>
<section class="card" aria-labelledby="summary-heading"><h2 id="summary-heading">${t('At a glance')}</h2>
<table class="summary"><thead><tr><td></td>${periods.map((p) => html`<th scope="col" class="num">${t(p.label)}</th>`)}</tr></thead>
<tbody>${rows.map(
      ([label, field, shown]) => html`<tr><th scope="row">${t(label)}</th>${periods.map((p) => html`<td class="num" data-field="${field}-${p.key}">${shown(p.figures)}</td>`)}</tr>`,
    )}</tbody></table>
<p class="muted">${t('Success rate: approved payment attempts among all attempts that had an answer.')}</p>
</section>
<section class="card" aria-labelledby="volume-heading"><h2 id="volume-heading">${t('Daily volume')}</h2>
${volumeChart(t, report, from, to)}
</section>
<section class="card" aria-labelledby="declines-heading"><h2 id="declines-heading">${t('Declines by reason')}</h2>
${declinesChart(t, stats, from, to)}
</section>`,
  );
}

/** The figures of the days from `since` on. */
function sumSince(report: DailyReport, stats: SessionStats, since: string): Period {
  const sum: Period = { gross: '0.000', net: '0.000', refunds: '0.000', payments: 0, succeeded: 0, failed: 0 };
  for (const day of report.data) {
    if (day.date < since) continue;
    sum.gross = addTnd(sum.gross, day.gross);
    sum.net = addTnd(sum.net, day.net);
    sum.refunds = addTnd(sum.refunds, day.refunds);
    sum.payments += day.payments_count;
  }
  for (const day of stats.data) {
    if (day.date < since) continue;
    sum.succeeded += day.attempts_succeeded;
    sum.failed += day.attempts_failed;
  }
  return sum;
}

function volumeChart(t: Translate, report: DailyReport, from: string, to: string): Html {
  const bars: Bar[] = report.data.map((day) => ({ label: day.date, shown: `${day.gross} TND`, size: Number(day.gross) }));
  const total = report.data.reduce((sum, day) => addTnd(sum, day.gross), '0.000');
  const highest = report.data.reduce<(typeof report.data)[number] | undefined>((best, day) => (best === undefined || compareTnd(day.gross, best.gross) > 0 ? day : best), undefined);
  const summary =
    highest === undefined || compareTnd(highest.gross, '0') === 0
      ? t('No payments from {from} to {to}.', { from, to })
      : t('Gross of each day from {from} to {to}: {total} in all; the highest day, {date}, took {amount}.', { from, to, total: `${total} TND`, date: highest.date, amount: `${highest.gross} TND` });
  return columnChart(
    'volume',
    { title: t('Daily volume'), summary, headings: [t('Date'), t('Gross')], empty: t('No payments yet.') },
    bars,
    { axisTop: highest ? `${highest.gross} TND` : '', tick: (date) => date.slice(5) },
  );
}

function declinesChart(t: Translate, stats: SessionStats, from: string, to: string): Html {
  const reason = (code: string) => (code === '' ? t('Unknown reason') : REASONS[code] !== undefined ? t(REASONS[code]) : code);
  const bars: Bar[] = stats.failures.map((failure) => ({ label: reason(failure.failure_code), shown: String(failure.count), size: failure.count }));
  const declined = stats.failures.reduce((sum, failure) => sum + failure.count, 0);
  const first = stats.failures[0];
  const summary =
    first === undefined
      ? t('No declined payment attempts from {from} to {to}.', { from, to })
      : t('{count} declined payment attempts from {from} to {to}; the most frequent reason: {reason} ({times}).', { count: declined, from, to, reason: reason(first.failure_code), times: first.count });
  return barChart('declines', { title: t('Declines by reason'), summary, headings: [t('Reason'), t('Declined attempts')], empty: t('No declines.') }, bars);
}
