/** What the adapter records of a card: its brand and last four digits, never the card itself. */

/** The card brand from its number's leading digits. */
export function cardBrand(pan: string): string {
  if (pan.startsWith('4')) return 'visa';
  const two = Number(pan.slice(0, 2));
  const four = Number(pan.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  if (two === 34 || two === 37) return 'amex';
  return 'unknown';
}

/** The number's last four digits, all of it the adapter keeps. */
export function lastFour(pan: string): string {
  return pan.slice(-4);
}
