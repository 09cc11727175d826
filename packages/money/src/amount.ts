/**
 * Validation of a requested amount (INTERFACE 2.8 and 7.2, DECISIONS D5).
 */
import type { Big } from 'big.js';
import type { Currency } from './currencies.js';
import { DECIMAL_FORMAT, Decimal, decimalPlaces } from './decimal.js';

/** Largest amount in TND; D5 also applies it numerically to the requested amount, whatever its currency. */
export const MAX_AMOUNT = '999999.999';

export const maxAmount: Big = new Decimal(MAX_AMOUNT);

export type AmountErrorCode =
  | 'required'
  | 'invalid_type'
  | 'invalid_format'
  | 'invalid_precision'
  | 'invalid_value'
  | 'amount_too_large';

const AMOUNT_MESSAGES: Record<AmountErrorCode, (currency: Currency) => string> = {
  required: () => 'amount is required.',
  invalid_type: () => 'amount must be a string such as "12.500", not a number.',
  invalid_format: () => 'amount must be a plain decimal string, without separators, signs or leading zeros.',
  invalid_precision: (c) => `amount must have exactly ${c.minorUnits} decimal places for ${c.code}.`,
  invalid_value: () => 'amount must be greater than zero.',
  amount_too_large: () => `amount must not exceed ${MAX_AMOUNT} TND.`,
};

/** The sentence a validation problem gives for an amount refused with `code` (D5), in `currency`. */
export function amountMessage(code: AmountErrorCode, currency: Currency): string {
  return AMOUNT_MESSAGES[code](currency);
}

export type AmountCheck =
  | { ok: true; amount: Big; text: string }
  | { ok: false; code: AmountErrorCode };

/**
 * Checks a requested amount against its currency in the D5 order, first failure wins:
 * required, invalid_type, invalid_format, invalid_precision, invalid_value, amount_too_large.
 */
export function checkAmount(value: unknown, currency: Currency): AmountCheck {
  if (value === undefined) return { ok: false, code: 'required' };
  // A JSON number has already lost precision in the parser, so it is refused, never read.
  if (typeof value !== 'string') return { ok: false, code: 'invalid_type' };
  if (!DECIMAL_FORMAT.test(value)) return { ok: false, code: 'invalid_format' };
  // Exact match, not "at most": a 2-decimal TND amount is refused rather than guessed at (7.2).
  if (decimalPlaces(value) !== currency.minorUnits) return { ok: false, code: 'invalid_precision' };

  const amount = new Decimal(value);
  if (amount.lte('0')) return { ok: false, code: 'invalid_value' };
  if (amount.gt(maxAmount)) return { ok: false, code: 'amount_too_large' };
  return { ok: true, amount, text: amount.toFixed(currency.minorUnits) };
}
