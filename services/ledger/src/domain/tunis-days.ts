/**
 * Days as the merchant counts them (D21): Africa/Tunis dates, YYYY-MM-DD. A
 * transaction belongs to the Tunis day of its created_at, and becomes
 * available SETTLEMENT_DELAY_DAYS after that day.
 */
const TUNIS = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Tunis', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The Africa/Tunis date of `at`. */
export function tunisDate(at: Date): string {
  return TUNIS.format(at);
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** Whether `text` is a real calendar date written YYYY-MM-DD (not 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const at = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === text;
}

/** Days from `from` to `to`, both counted: 1 for the same date. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}
