/**
 * Conversion between decimal amounts and integer minor units, the form acquirers exchange.
 */
import type { Currency } from './currencies.js';
import { Decimal, toDecimal } from './decimal.js';

const INTEGER_FORMAT = /^-?\d+$/;

/**
 * Decimal string to an integer string of minor units ('12.345' TND -> '12345' millimes).
 * Throws when the amount has more decimals than the currency has minor units.
 */
export function toMinorUnits(amount: string, currency: Currency): string {
  const value = toDecimal(amount, 'amount', currency.minorUnits);
  // Exact: big.js multiplies decimals without rounding, and the decimals check leaves an integer.
  return value.times(new Decimal('10').pow(currency.minorUnits)).toFixed(0);
}

/**
 * Integer string of minor units back to a decimal string at the currency's precision
 * ('12345' -> '12.345' for TND). Leading zeros are accepted, as fixed-width acquirer fields carry them.
 */
export function fromMinorUnits(minor: string, currency: Currency): string {
  if (typeof minor !== 'string' || !INTEGER_FORMAT.test(minor)) {
    throw new RangeError(`minor units must be an integer string: ${JSON.stringify(minor)}`);
  }
  // Exact: dividing by a power of ten needs at most minorUnits decimals, far under Decimal.DP.
  const value = new Decimal(minor).div(new Decimal('10').pow(currency.minorUnits));
  return value.toFixed(currency.minorUnits);
}
