/**
 * Home (D21): for the mode in view, today, the last 7 and the last 30
 * Africa/Tunis days at a glance (gross, net, payments, success rate,
 * refunds), the daily volume and the declines by reason, drawn on the server.
 */
import type { DailyReport, SessionStats } from '@gateway/contracts';
import { formatPercent } from '@gateway/i18n';
import { html, type Html } from '@gateway/runtime';
import { grossOf, isZero, successShare, type PeriodFigures } from '../../domain/daily-figures.js';
import { modeName, type PageView, type Reader } from '../layout.js';
import type { TextKey, Words } from '../texts/catalogue.js';
import { barChart, columnChart, type Bar } from './charts.js';

/** The periods Home sums up. */
export type PeriodKey = 'today' | '7d' | '30d';

const PERIOD_NAMES: Readonly<Record<PeriodKey, TextKey>> = { today: 'today', '7d': 'last_7_days', '30d': 'last_30_days' };

/** The acquirer adapter's failure codes (D8's declines) as people read them; any other code is shown as it is. */
const REASONS: Readonly<Record<string, TextKey>> = {
  card_declined: 'decline_card_declined',
  insufficient_funds: 'decline_insufficient_funds',
  expired_card: 'decline_expired_card',
  incorrect_cvc: 'decline_incorrect_cvc',
  processing_error: 'decline_processing_error',
  authentication_failed: 'decline_authentication_failed',
};

/** What Home shows: the days from `from` to `to` (today), each period's figures, the daily report and the attempts' stats. */
interface HomeFigures {
  from: string;
  to: string;
  periods: readonly { key: PeriodKey; figures: PeriodFigures }[];
  report: DailyReport;
  stats: SessionStats;
}

/** Home. */
export function homePage(reader: Reader, home: HomeFigures): PageView {
  const { t } = reader;
  const rate = (p: PeriodFigures) => {
    const share = successShare(p);
    return share === undefined ? '—' : formatPercent(share, reader.language);
  };
  const tnd = (amount: string) => html`<bdi>${amount} TND</bdi>`;
  const rows: [TextKey, string, (p: PeriodFigures) => Html | string][] = [
    ['gross', 'gross', (p) => tnd(p.gross)],
    ['net', 'net', (p) => tnd(p.net)],
    ['payments', 'payments', (p) => String(p.payments)],
    ['success_rate', 'success-rate', rate],
    ['refunds', 'refunds', (p) => tnd(p.refunds)],
  ];
  const body = html`<h1>${t('home_section')}</h1>
<p class="muted">${t('home_days_note', { mode: modeName(reader), date: home.to })}</p>
<section class="card" aria-labelledby="summary-heading"><h2 id="summary-heading">${t('at_a_glance')}</h2>
<table class="summary"><thead><tr><td></td>${home.periods.map((p) => html`<th scope="col" class="num">${t(PERIOD_NAMES[p.key])}</th>`)}</tr></thead>
<tbody>${rows.map(
    ([label, field, shown]) => html`<tr><th scope="row">${t(label)}</th>${home.periods.map((p) => html`<td class="num" data-field="${field}-${p.key}">${shown(p.figures)}</td>`)}</tr>`,
  )}</tbody></table>
<p class="muted">${t('success_rate_note')}</p>
</section>
<section class="card" aria-labelledby="volume-heading"><h2 id="volume-heading">${t('daily_volume')}</h2>
${volumeChart(t, home.report, home.from, home.to)}
</section>
<section class="card" aria-labelledby="declines-heading"><h2 id="declines-heading">${t('declines_by_reason')}</h2>
${declinesChart(t, home.stats, home.from, home.to)}
</section>`;
  return { title: t('home_section'), body };
}

function volumeChart(t: Words, report: DailyReport, from: string, to: string): Html {
  const bars: Bar[] = report.data.map((day) => ({ label: day.date, shown: `${day.gross} TND`, size: Number(day.gross) }));
  const { total, highest } = grossOf(report);
  const summary =
    highest === undefined || isZero(highest.gross)
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
