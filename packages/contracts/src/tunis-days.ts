/**
 * Days as merchants count them (D21): Africa/Tunis dates, written YYYY-MM-DD.
 * The daily report, the session stats and the dashboard's Home and Reports
 * pages all count a moment on the Tunis date it falls on, and check a range
 * of such dates the same way.
 */
import { DailyReportQuery } from './api.js';
import { listFilterErrors, storableDateText, type SchemaFieldError } from './validation.js';

/** The longest range of days a report covers (D21). */
const MAX_REPORT_DAYS = 366;

const TUNIS = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Tunis', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Africa/Tunis date of `at`. */
export function tunisDate(at: Date): string {
  return TUNIS.format(at);
}

/** `date` plus `days` calendar days (minus when negative). */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** Whether `text` is a real calendar date written YYYY-MM-DD (not 2026-02-30, not year 0000). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || !storableDateText(text)) return false;
  const at = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === text;
}

/** Days from `from` to `to`, both counted: 1 for the same date. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Every date from `from` to `to`, both included, in order. */
export function datesFrom(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date);
  return dates;
}

/**
 * The instants a range of Tunis dates spans, in UTC, as the lists'
 * created[gte] and created[lte] take them: from midnight in Tunis on `from`
 * to the last millisecond of `to` there. Tunis keeps UTC+1 all year (no
 * daylight saving since 2009).
 */
export function tunisDayBounds(from: string, to: string): { gte: string; lte: string } {
  return {
    gte: new Date(`${from}T00:00:00.000+01:00`).toISOString(),
    lte: new Date(Date.parse(`${addDays(to, 1)}T00:00:00.000+01:00`) - 1).toISOString(),
  };
}

/**
 * What is wrong with a query of report dates {from, to} (D21), each entry
 * naming its field as the daily report names it: a missing or unknown
 * parameter, not a real YYYY-MM-DD date, `to` before `from`, or more than
 * MAX_REPORT_DAYS days. Empty when the range is good.
 */
export function dayRangeErrors(query: Record<string, unknown>): SchemaFieldError[] {
  const errors = listFilterErrors(DailyReportQuery, query);
  const refused = new Set(errors.map((error) => error.field));
  for (const field of ['from', 'to'] as const) {
    const value = query[field];
    if (!refused.has(field) && typeof value === 'string' && !isCalendarDate(value)) errors.push({ field, code: 'invalid', message: `${field} must be a date written YYYY-MM-DD.` });
  }
  const { from, to } = query;
  if (errors.length === 0 && typeof from === 'string' && typeof to === 'string') {
    if (to < from) errors.push({ field: 'to', code: 'invalid', message: 'to must not be before from.' });
    else if (daysBetween(from, to) > MAX_REPORT_DAYS) errors.push({ field: 'to', code: 'invalid', message: `A report covers at most ${MAX_REPORT_DAYS} days.` });
  }
  return errors;
}

/** A report's dates, checked (dayRangeErrors): the range when they are good, else what is wrong with them. */
export function dayRangeOf(query: Record<string, unknown>): { range: { from: string; to: string } } | { errors: SchemaFieldError[] } {
  const errors = dayRangeErrors(query);
  const { from, to } = query;
  return errors.length === 0 && typeof from === 'string' && typeof to === 'string' ? { range: { from, to } } : { errors };
}
