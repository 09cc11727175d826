/**
 * What a refund may take from its captured payment (D10). The refundable
 * balance is `captured - held`, where held counts every refund not FAILED:
 * confirmed, waiting for an operator, or with its acquirer step under way.
 * The repository applies this to the payment's row while it holds it locked,
 * so concurrent refunds can never together pass what was captured.
 */
import { compareTnd, formatTnd, subtractTnd } from '@gateway/money';

/** A captured payment's amounts, TND decimal strings. */
export interface Balance {
  captured: string;
  held: string;
}

export type Reservation =
  | { kind: 'reserved'; amount: string; whole: boolean }
  | { kind: 'nothing-left' }
  | { kind: 'too-large'; remaining: string };

/**
 * The reservation of a refund of `requested` TND (undefined for FULL: whatever
 * is left). Nothing left is `nothing-left` whatever was asked; more than is left
 * is `too-large`; `whole` when the refund takes the entire payment at once, the
 * one case the acquirer can reverse instead of refund.
 */
export function reservationOf(balance: Balance, requested: string | undefined): Reservation {
  const remaining = subtractTnd(balance.captured, balance.held);
  if (compareTnd(remaining, '0') <= 0) return { kind: 'nothing-left' };
  const amount = requested ?? remaining;
  // The request check refuses these; a caller that skipped it must not hold nothing or a negative amount.
  if (compareTnd(amount, '0') <= 0) throw new RangeError(`a refund amount must be positive: ${amount}`);
  if (compareTnd(amount, remaining) > 0) return { kind: 'too-large', remaining };
  const whole = compareTnd(balance.held, '0') === 0 && compareTnd(amount, balance.captured) === 0;
  return { kind: 'reserved', amount: formatTnd(amount), whole };
}
