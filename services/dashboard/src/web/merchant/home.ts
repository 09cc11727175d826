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
import { formatPercent } from '@gateway/i18n';
import type { TextKey, Words } from '../../views/texts/catalogue.js';
import { BASE, merchantView, type MerchantPage } from './frame.js';
import { barChart, columnChart, type Bar } from './charts.js';

/** The days Home looks back over: the charts', and the longest period's. */
const DAYS = 30;

const PERIODS: readonly { key: string; label: TextKey; days: number }[] = [
  { key: 'today', label: 'today', days: 1 },
  { key: '7d', label: 'last_7_days', days: 7 },
  { key: '30d', label: 'last_30_days', days: DAYS },
];

/** The acquirer adapter's failure codes (D8's declines) as people read them; any other code is shown as it is. */
const REASONS: Readonly<Record<string, TextKey>> = {
  card_declined: 'decline_card_declined',
  insufficient_funds: 'decline_insufficient_funds',
  expired_card: 'decline_expired_card',
  incorrect_cvc: 'decline_incorrect_cvc',
  processing_error: 'decline_processing_error',
  authentication_failed: 'decline_authentication_failed',
};

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
  const rate = (p: Period) => (p.succeeded + p.failed === 0 ? '—' : formatPercent(p.succeeded / (p.succeeded + p.failed), view.viewer.language));
  const tnd = (amount: string) => html`<bdi>${amount} TND</bdi>`;
  const rows: [TextKey, string, (p: Period) => Html | string][] = [
    ['gross', 'gross', (p) => tnd(p.gross)],
    ['net', 'net', (p) => tnd(p.net)],
    ['payments', 'payments', (p) => String(p.payments)],
    ['success_rate', 'success-rate', rate],
    ['refunds', 'refunds', (p) => tnd(p.refunds)],
  ];
  return view.render(
    `${BASE}/home`,
    t('home_section'),
    html`<h1>${t('home_section')}</h1>
<p class="muted">${t('home_days_note', { mode: view.viewer.mode === 'live' ? t('live_mode') : t('test_mode'), date: to })}</p>
<section class="card" aria-labelledby="summary-heading"><h2 id="summary-heading">${t('at_a_glance')}</h2>
<table class="summary"><thead><tr><td></td>${periods.map((p) => html`<th scope="col" class="num">${t(p.label)}</th>`)}</tr></thead>
<tbody>${rows.map(
      ([label, field, shown]) => html`<tr><th scope="row">${t(label)}</th>${periods.map((p) => html`<td class="num" data-field="${field}-${p.key}">${shown(p.figures)}</td>`)}</tr>`,
    )}</tbody></table>
<p class="muted">${t('success_rate_note')}</p>
</section>
<section class="card" aria-labelledby="volume-heading"><h2 id="volume-heading">${t('daily_volume')}</h2>
${volumeChart(t, report, from, to)}
</section>
<section class="card" aria-labelledby="declines-heading"><h2 id="declines-heading">${t('declines_by_reason')}</h2>
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

function volumeChart(t: Words, report: DailyReport, from: string, to: string): Html {
  const bars: Bar[] = report.data.map((day) => ({ label: day.date, shown: `${day.gross} TND`, size: Number(day.gross) }));
  const total = report.data.reduce((sum, day) => addTnd(sum, day.gross), '0.000');
  const highest = report.data.reduce<(typeof report.data)[number] | undefined>((best, day) => (best === undefined || compareTnd(day.gross, best.gross) > 0 ? day : best), undefined);
  const summary =
    highest === undefined || compareTnd(highest.gross, '0') === 0
      ? t('volume_none', { from, to })
      : t('volume_summary', { from, to, total: `${total} TND`, date: highest.date, amount: `${highest.gross} TND` });
  return columnChart(
    'volume',
    { title: t('daily_volume'), summary, headings: [t('date'), t('gross')], empty: t('no_payments_yet') },
    bars,
    { axisTop: highest ? `${highest.gross} TND` : '', tick: (date) => date.slice(5) },
  );
}

function declinesChart(t: Words, stats: SessionStats, from: string, to: string): Html {
  const reason = (code: string) => (code === '' ? t('decline_unknown') : REASONS[code] !== undefined ? t(REASONS[code]) : code);
  const bars: Bar[] = stats.failures.map((failure) => ({ label: reason(failure.failure_code), shown: String(failure.count), size: failure.count }));
  const declined = stats.failures.reduce((sum, failure) => sum + failure.count, 0);
  const first = stats.failures[0];
  const summary =
    first === undefined
      ? t('declines_none', { from, to })
      : t('declines_summary', { count: declined, from, to, reason: reason(first.failure_code), times: String(first.count) });
  return barChart('declines', { title: t('declines_by_reason'), summary, headings: [t('reason'), t('declined_attempts')], empty: t('no_declines') }, bars);
}
