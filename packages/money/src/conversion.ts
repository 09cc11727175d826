/**
 * Exchange rates and conversion of a foreign amount into the account currency (INTERFACE 2.8, D5).
 */
import type { Big } from 'big.js';
import { maxAmount } from './amount.js';
import { DECIMAL_FORMAT, Decimal, HALF_UP, decimalPlaces, toDecimal } from './decimal.js';
import { TND_DECIMALS } from './tnd.js';

/** Decimals of a stored rate and of original.rate (INTERFACE 2.2). */
const RATE_DECIMALS = 6;

/** The rate written into original for a request already in TND. */
export const IDENTITY_RATE = '1.000000';

/**
 * Parses an exchange rate (TND per 1 unit of the foreign currency): a positive decimal
 * string with at most 6 decimals. Returns it with exactly 6 decimals, or undefined when invalid.
 */
export function parseRate(value: unknown): string | undefined {
  if (typeof value !== 'string' || !DECIMAL_FORMAT.test(value)) return undefined;
  if (decimalPlaces(value) > RATE_DECIMALS) return undefined;
  const rate = new Decimal(value);
  if (rate.lte('0')) return undefined;
  return rate.toFixed(RATE_DECIMALS);
}

export type ConversionResult =
  | { ok: true; amount: string }
  | { ok: false; code: 'invalid_value' | 'amount_too_large' };

/**
 * Converts a requested amount into TND: amount x rate, rounded half-up to millimes.
 * A result of 0.000 is invalid_value and one over 999999.999 is amount_too_large.
 */
export function convertToAccountCurrency(amount: Big | string, rate: string): ConversionResult {
  const requested = toDecimal(amount, 'amount');
  const parsedRate = parseRate(rate);
  if (parsedRate === undefined) throw new RangeError(`rate is not a valid exchange rate: ${JSON.stringify(rate)}`);

  // Rounded before the checks, so a product such as 0.0004 counts as the 0.000 the card would be charged.
  const converted = requested.times(parsedRate).round(TND_DECIMALS, HALF_UP);
  if (converted.lte('0')) return { ok: false, code: 'invalid_value' };
  if (converted.gt(maxAmount)) return { ok: false, code: 'amount_too_large' };
  return { ok: true, amount: converted.toFixed(TND_DECIMALS) };
}
