/**
 * When a payment is settled, for choosing between reverse.do and refund.do
 * (ACQUIRER.md: "reverse.do for a full refund before settlement"). The
 * acquirer settles at the end of each business day, Tunis time, so a
 * payment is unsettled only on the day it was deposited.
 */

/** The acquirer's business days are Tunis calendar days. */
const SETTLEMENT_TIME_ZONE = 'Africa/Tunis';

const DAY_FORMAT = new Intl.DateTimeFormat('en-US', { timeZone: SETTLEMENT_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The business day of an instant, as YYYY-MM-DD in Tunis time. */
export function businessDay(at: Date): string {
  const parts = Object.fromEntries(DAY_FORMAT.formatToParts(at).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/**
 * Whether a payment deposited no earlier than `depositedFrom` may have been
 * settled by `now`: true once `now` falls on a later business day. False
 * is certain (the deposit, between the two, fell on today); true may err,
 * but only towards a refund.do where a reverse.do would also have done.
 */
export function maybeSettled(depositedFrom: Date, now: Date): boolean {
  return businessDay(now) > businessDay(depositedFrom);
}
