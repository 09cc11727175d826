/**
 * Merchant pricing and the fee taken from each captured payment (D13 `fees set`).
 */
import { maxAmount } from './amount.js';
import { DECIMAL_FORMAT, Decimal, HALF_UP, decimalPlaces, toDecimal } from './decimal.js';
import { TND_DECIMALS } from './tnd.js';

/** A merchant's pricing: percent like '2.5' (meaning 2.5 %), fixed like '0.300' TND. */
export interface Pricing {
  readonly percent: string;
  readonly fixed: string;
}

const PERCENT_DECIMALS = 4;

/**
 * Validates pricing input: percent a decimal string from 0 to 100 with at most 4 decimals,
 * fixed a TND amount from 0 to 999999.999 with at most 3 decimals. Returns percent without
 * trailing zeros ('2.50' -> '2.5') and fixed with 3 decimals ('0.3' -> '0.300'), or undefined.
 */
export function parsePricing(percent: unknown, fixed: unknown): Pricing | undefined {
  if (!isUnsignedDecimal(percent) || decimalPlaces(percent) > PERCENT_DECIMALS) return undefined;
  if (!isUnsignedDecimal(fixed) || decimalPlaces(fixed) > TND_DECIMALS) return undefined;
  const percentValue = new Decimal(percent);
  const fixedValue = new Decimal(fixed);
  if (percentValue.gt('100') || fixedValue.gt(maxAmount)) return undefined;
  return { percent: percentValue.toString(), fixed: fixedValue.toFixed(TND_DECIMALS) };
}

// A sign is refused even on zero: '-0' as a price reads as a mistake, not as zero.
function isUnsignedDecimal(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_FORMAT.test(value) && !value.startsWith('-');
}

/**
 * fee = amount x percent / 100 + fixed, rounded half-up to millimes and never more than the
 * amount; net = amount - fee. Takes a TND amount with at most 3 decimals; all results have 3.
 */
export function computeFee(amount: string, pricing: Pricing): { fee: string; net: string } {
  const gross = toDecimal(amount, 'amount', TND_DECIMALS);
  if (gross.lt('0')) throw new RangeError(`amount must not be negative: ${amount}`);
  const checked = parsePricing(pricing.percent, pricing.fixed);
  if (checked === undefined) throw new RangeError(`invalid pricing: ${JSON.stringify(pricing)}`);

  // Exact until the final round: at most 3 + 4 + 2 decimals, well under Decimal.DP.
  const computed = gross.times(checked.percent).div('100').plus(checked.fixed).round(TND_DECIMALS, HALF_UP);
  // A fixed part larger than a small payment would otherwise leave a negative net.
  const fee = computed.gt(gross) ? gross : computed;
  // Net is derived from the rounded fee, so fee + net is exactly the amount.
  const net = gross.minus(fee);
  return { fee: fee.toFixed(TND_DECIMALS), net: net.toFixed(TND_DECIMALS) };
}
