/**
 * Amounts as people read them, in the languages buyers see (D18): the hosted
 * page and the receipts write an amount the same way.
 */
import { findCurrency } from './currencies.js';

/** A language a buyer reads: the hosted page's and the receipts'. */
export type DisplayLanguage = 'fr' | 'en' | 'ar';

/** Region Tunisia: Latin digits in all three, and the separators Tunisian readers expect (fr "1 234,500", ar "1.234,500"). */
const NUMBER_LOCALES: Readonly<Record<DisplayLanguage, string>> = { fr: 'fr-TN', en: 'en-TN', ar: 'ar-TN' };

/** Formatters made once each: making one costs far more than formatting with it. */
const formats = new Map<string, Intl.NumberFormat>();

/** The formatter of `currency` with `digits` fraction digits in `language`. */
function numberFormat(language: DisplayLanguage, currency: string, digits: number): Intl.NumberFormat {
  const key = `${language} ${currency} ${digits}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(NUMBER_LOCALES[language], { style: 'currency', currency, currencyDisplay: 'code', minimumFractionDigits: digits, maximumFractionDigits: digits });
    // Bounded by the languages, the currencies and their precisions; a cap all the same.
    if (formats.size < 1_000) formats.set(key, format);
  }
  return format;
}

/**
 * "1234.500" in TND → "1 234,500 TND" (fr), "TND 1,234.500" (en), "1.234,500 TND" (ar).
 * `amount` is a decimal string (the contracts' pattern); it never becomes a
 * float: Intl formats the integer part as a BigInt (exact) and lays out sign,
 * separators and code, and the fraction digits are copied from the string,
 * padded to the currency's minor units.
 */
export function formatAmount(amount: string, currency: string, language: DisplayLanguage): string {
  const negative = amount.startsWith('-');
  const [integer = '0', given = ''] = (negative ? amount.slice(1) : amount).split('.');
  const fraction = given.padEnd(findCurrency(currency)?.minorUnits ?? 0, '0');
  const format = numberFormat(language, currency, fraction.length);
  const whole = BigInt(integer);
  // BigInt has no -0: a negative amount under 1 is laid out as -1 and its one integer digit put back to 0.
  const value = negative ? (whole === 0n ? -1n : -whole) : whole;
  return format
    .formatToParts(value)
    .map((part) => (part.type === 'fraction' ? fraction : part.type === 'integer' && whole === 0n ? '0' : part.value))
    .join('');
}
