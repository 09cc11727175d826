/**
 * Amounts in millimes, the protocol's minor units. They arrive as digit strings
 * and stay integers; the bound keeps them exact as JavaScript numbers.
 */

/** 999 999.999 TND: nine digits of millimes, far below Number.MAX_SAFE_INTEGER. */
export const MAX_MILLIMES = 999_999_999n;

/** A positive integer of millimes from its digits, or undefined when it is not one. */
export function parseMillimes(raw: string): number | undefined {
  if (!/^[0-9]{1,10}$/.test(raw)) return undefined;
  const value = BigInt(raw);
  if (value < 1n || value > MAX_MILLIMES) return undefined;
  return Number(value);
}
