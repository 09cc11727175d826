/**
 * Amounts in millimes, the protocol's minor units. They arrive as digit strings
 * and stay integers; the bound keeps them exact as JavaScript numbers.
 */

/** 999 999.999 TND: nine digits of millimes, far below Number.MAX_SAFE_INTEGER. */
const MAX_MILLIMES = 999_999_999n;

/** A positive integer of millimes from its digits, or undefined when it is not one. */
export function parseMillimes(raw: string): number | undefined {
  return parseAtLeast(raw, 1n);
}

/** As parseMillimes, but 0 too: deposit.do's "the whole hold". */
export function parseMillimesOrZero(raw: string): number | undefined {
  return parseAtLeast(raw, 0n);
}

function parseAtLeast(raw: string, min: bigint): number | undefined {
  if (!/^[0-9]{1,10}$/.test(raw)) return undefined;
  const value = BigInt(raw);
  if (value < min || value > MAX_MILLIMES) return undefined;
  return Number(value);
}
