/**
 * Reports (D21): a range of Africa/Tunis dates for the mode in view, its
 * daily report with totals, and the CSV downloads of those dates; or, when
 * the range is refused, the refusal and the form to change it.
 */
import type { AppError } from '@gateway/problem';
import type { DailyReport } from '@gateway/contracts';
import type { ExportKind } from '@gateway/exports';
import { html, type Html } from '@gateway/runtime';
import { totalsOf, type ReportDay } from '../../domain/daily-figures.js';
import { modeBadge, problemNotice, type PageView, type Reader } from '../layout.js';
import { BASE } from '../paths.js';
import type { TextKey, Words } from '../texts/catalogue.js';

export const REPORTS = `${BASE}/reports`;

/** The downloads, by export kind (D21's file names), with the links' words. */
const DOWNLOADS: readonly { kind: ExportKind; label: TextKey }[] = [
  { kind: 'sessions', label: 'payments_csv' },
  { kind: 'refunds', label: 'refunds_csv' },
  { kind: 'balance_transactions', label: 'balance_transactions_csv' },
];

/**
 * The Reports page for `range`: its daily report and downloads, with a
 * download's refusal above them when there is one (every export slot taken);
 * or only the refusal of the range.
 */
export function reportsPage(reader: Reader, range: { from: string; to: string }, answer: { report: DailyReport; refusal?: AppError } | { report?: undefined; refusal: AppError }): PageView {
  const { t } = reader;
  const query = new URLSearchParams(range).toString();
  const body = html`<h1>${t('reports_section')} ${modeBadge(reader)}</h1>
${answer.refusal ? problemNotice(answer.refusal, t) : ''}
<form method="get" action="${REPORTS}" class="row card">
<label>${t('from_date')} <input type="date" name="from" value="${range.from}" required></label>
<label>${t('to_date')} <input type="date" name="to" value="${range.to}" required></label>
<button type="submit">${t('show_button')}</button>
<span class="muted">${t('tunis_dates_note')}</span>
</form>
${
  answer.report
    ? html`<section class="card" aria-labelledby="downloads-heading"><h2 id="downloads-heading">${t('downloads')}</h2>
<ul class="downloads">${DOWNLOADS.map((d) => html`<li><a href="${REPORTS}/${d.kind}.csv?${query}">${t(d.label)}</a></li>`)}</ul>
<p class="muted">${t('downloads_note', { from: range.from, to: range.to })}</p>
</section>
<section class="card" aria-labelledby="daily-heading"><h2 id="daily-heading">${t('daily_report')}</h2>${dailyTable(t, answer.report)}</section>`
    : ''
}`;
  return { title: t('reports_section'), body };
}

function dailyTable(t: Words, report: DailyReport): Html {
  const cells = (d: Pick<ReportDay, 'payments_count' | 'gross' | 'fees' | 'refunds' | 'net'>) =>
    html`<td class="num">${d.payments_count}</td><td class="num"><bdi>${d.gross}</bdi></td><td class="num"><bdi>${d.fees}</bdi></td><td class="num"><bdi>${d.refunds}</bdi></td><td class="num"><bdi>${d.net}</bdi></td>`;
  // Newest first, as every list of the dashboard.
  const rows = [...report.data].reverse().map((day) => html`<tr data-date="${day.date}"><th scope="row"><time datetime="${day.date}">${day.date}</time></th>${cells(day)}</tr>`);
  return html`<table class="daily"><caption class="muted">${t('amounts_in_tnd')}</caption>
<thead><tr><th scope="col">${t('date')}</th><th scope="col" class="num">${t('payments')}</th><th scope="col" class="num">${t('gross')}</th><th scope="col" class="num">${t('fees')}</th><th scope="col" class="num">${t('refunds')}</th><th scope="col" class="num">${t('net')}</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr data-date="total"><th scope="row">${t('total')}</th>${cells(totalsOf(report))}</tr></tfoot></table>`;
}
