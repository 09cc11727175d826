/**
 * Arithmetic on TND decimal strings, exact to the millime (refund balances, fee totals).
 */
import type { Big } from 'big.js';
import { toDecimal, toFixedHalfUp } from './decimal.js';

/** Decimals of the account currency: 1 TND = 1000 millimes. */
export const TND_DECIMALS = 3;

/** Formats a TND value with exactly 3 decimals, rounding half-up. */
export function formatTnd(value: Big | string): string {
  return toFixedHalfUp(toDecimal(value, 'value'), TND_DECIMALS);
}

/** A TND amount written with exactly 3 decimals; throws for one with more (a millime cannot be split, and rounding would invent money). */
export function exactTnd(value: string): string {
  return millimes(value, 'value').toFixed(TND_DECIMALS);
}

// Operands may not carry more than 3 decimals: rounding one away would make "exact" a lie.
function millimes(value: string, what: string): Big {
  return toDecimal(value, what, TND_DECIMALS);
}

/** Adds two TND decimal strings exactly; the sum has 3 decimals. */
export function addTnd(a: string, b: string): string {
  return millimes(a, 'a').plus(millimes(b, 'b')).toFixed(TND_DECIMALS);
}

/** Subtracts b from a exactly; the difference has 3 decimals and may be negative. */
export function subtractTnd(a: string, b: string): string {
  return millimes(a, 'a').minus(millimes(b, 'b')).toFixed(TND_DECIMALS);
}

/** Compares two TND decimal strings by value: -1 when a < b, 0 when equal, 1 when a > b. */
export function compareTnd(a: string, b: string): -1 | 0 | 1 {
  return millimes(a, 'a').cmp(millimes(b, 'b'));
}
