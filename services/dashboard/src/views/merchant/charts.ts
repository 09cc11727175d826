/**
 * Charts drawn on the server (D21): inline SVG, no script, styled by the
 * stylesheet's classes (the pages' CSP takes no inline style). Each chart is
 * an image to assistive technology, named by its <title> and summed up by its
 * <desc>, followed by a visually hidden table of the same figures, which
 * screen readers can walk and which is there without any script.
 *
 * Amounts stay decimal strings everywhere a person reads them; only the
 * bars' lengths are computed from numbers, for drawing.
 */
import { html, type Html } from '@gateway/runtime';

/** One bar: what it is (a date, a reason), its figure as shown, and its size for drawing. */
export interface Bar {
  label: string;
  /** The figure as people read it ("125.500 TND", "3"). */
  shown: string;
  /** The figure as a number, for the bar's length only. */
  size: number;
}

interface ChartText {
  /** The chart's short name: <title>, and the hidden table's caption. */
  title: string;
  /** The summary of what it shows: <desc>. */
  summary: string;
  /** The hidden table's two headings: what a bar is, and its figure. */
  headings: readonly [string, string];
  /** What the chart says when there is nothing to draw. */
  empty: string;
}

/** The charts' width in SVG units, and their text's size in the same units (the stylesheet's font size). */
const WIDTH = 640;
const FONT = 14;

/**
 * Vertical bars in time order (the daily volume): the axis labelled with the
 * largest figure and zero, the first, middle and last bars' labels under
 * them (`tick` shortens a label), each bar's figure in its own tooltip.
 */
export function columnChart(id: string, text: ChartText, bars: readonly Bar[], options: { axisTop: string; tick: (label: string) => string }): Html {
  const height = 240;
  const left = 130;
  const right = 8;
  const top = 12;
  const bottom = 28;
  const plotHeight = height - top - bottom;
  const slot = bars.length > 0 ? (WIDTH - left - right) / bars.length : 0;
  const largest = Math.max(0, ...bars.map((bar) => bar.size));
  const ticks = new Set([0, Math.floor((bars.length - 1) / 2), bars.length - 1]);
  const drawn = bars.map((bar, i) => {
    const length = largest > 0 ? Math.max(0, (bar.size / largest) * plotHeight) : 0;
    const x = left + i * slot + slot * 0.15;
    return html`<rect class="bar" x="${fixed(x)}" y="${fixed(top + plotHeight - length)}" width="${fixed(slot * 0.7)}" height="${fixed(length)}"><title>${bar.label}: ${bar.shown}</title></rect>`;
  });
  // The first label starts at its bar and the last ends at its bar, so that neither runs off the chart.
  const anchor = (i: number) => (i === 0 ? { x: left + i * slot, at: 'start' } : i === bars.length - 1 ? { x: left + (i + 1) * slot, at: 'end' } : { x: left + i * slot + slot / 2, at: 'middle' });
  const labels = [...ticks]
    .filter((i) => i >= 0 && i < bars.length)
    .map((i) => html`<text class="tick" x="${fixed(anchor(i).x)}" y="${height - 8}" text-anchor="${anchor(i).at}">${options.tick(bars[i]?.label ?? '')}</text>`);
  return frame(
    id,
    text,
    WIDTH,
    height,
    html`<line class="axis" x1="${left}" y1="${top + plotHeight}" x2="${WIDTH - right}" y2="${top + plotHeight}"/>
<line class="grid" x1="${left}" y1="${top}" x2="${WIDTH - right}" y2="${top}"/>
<text class="tick" x="${left - 6}" y="${top + FONT / 2}" text-anchor="end">${options.axisTop}</text>
<text class="tick" x="${left - 6}" y="${top + plotHeight}" text-anchor="end">0</text>
${drawn}${labels}
${largest === 0 ? html`<text class="empty" x="${left + (WIDTH - left - right) / 2}" y="${top + plotHeight / 2}" text-anchor="middle">${text.empty}</text>` : ''}`,
    bars,
  );
}

/** Horizontal bars, largest first as given (the declines by reason): each labelled with what it is and its figure. */
export function barChart(id: string, text: ChartText, bars: readonly Bar[]): Html {
  const row = 32;
  const left = 260;
  const right = 50;
  const top = 8;
  const height = top * 2 + Math.max(1, bars.length) * row;
  const largest = Math.max(0, ...bars.map((bar) => bar.size));
  const drawn = bars.map((bar, i) => {
    const length = largest > 0 ? (bar.size / largest) * (WIDTH - left - right) : 0;
    const y = top + i * row;
    return html`<text class="label" x="${left - 8}" y="${y + row / 2 + FONT / 3}" text-anchor="end">${bar.label}</text>
<rect class="bar" x="${left}" y="${y + 5}" width="${fixed(length)}" height="${row - 10}"><title>${bar.label}: ${bar.shown}</title></rect>
<text class="figure" x="${fixed(left + length + 6)}" y="${y + row / 2 + FONT / 3}">${bar.shown}</text>`;
  });
  return frame(
    id,
    text,
    WIDTH,
    height,
    bars.length > 0 ? html`${drawn}` : html`<text class="empty" x="${WIDTH / 2}" y="${top + row / 2 + FONT / 3}" text-anchor="middle">${text.empty}</text>`,
    bars,
  );
}

/** The <svg> named and described for assistive technology, and the hidden table of its figures. */
function frame(id: string, text: ChartText, width: number, height: number, body: Html, bars: readonly Bar[]): Html {
  return html`<figure class="chart">
<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${width} ${height}" focusable="false" direction="ltr" data-chart="${id}">
<title id="${id}-title">${text.title}</title>
<desc id="${id}-desc">${text.summary}</desc>
${body}
</svg>
<div class="visually-hidden"><table data-chart-table="${id}"><caption>${text.title}</caption>
<thead><tr><th scope="col">${text.headings[0]}</th><th scope="col">${text.headings[1]}</th></tr></thead>
<tbody>${bars.map((bar) => html`<tr><th scope="row">${bar.label}</th><td>${bar.shown}</td></tr>`)}</tbody></table></div>
</figure>`;
}

/** A coordinate with at most two decimals: SVG takes more, but nobody sees them. */
function fixed(value: number): string {
  return String(Math.round(value * 100) / 100);
}
