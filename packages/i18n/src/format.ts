/**
 * Amounts, dates and shares as people read them in each language, so that a
 * buyer reads the same amount on the page, in the mail and in the dashboard.
 */
import { findCurrency } from '@gateway/money';
import { LOCALES, type Language } from './languages.js';

/** Formatters made once each: making one costs far more than formatting with it. */
const numberFormats = new Map<string, Intl.NumberFormat>();

/** The formatter of `currency` with `digits` fraction digits in `language`. */
function currencyFormat(language: Language, currency: string, digits: number): Intl.NumberFormat {
  const key = `${language} ${currency} ${digits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency, currencyDisplay: 'code', minimumFractionDigits: digits, maximumFractionDigits: digits });
    // Bounded by the languages, the currencies and their precisions; a cap all the same.
    if (numberFormats.size < 1_000) numberFormats.set(key, format);
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
export function formatAmount(amount: string, currency: string, language: Language): string {
  const negative = amount.startsWith('-');
  const [integer = '0', given = ''] = (negative ? amount.slice(1) : amount).split('.');
  const fraction = given.padEnd(findCurrency(currency)?.minorUnits ?? 0, '0');
  const format = currencyFormat(language, currency, fraction.length);
  const whole = BigInt(integer);
  // BigInt has no -0: a negative amount under 1 is laid out as -1 and its one integer digit put back to 0.
  const value = negative ? (whole === 0n ? -1n : -whole) : whole;
  return format
    .formatToParts(value)
    .map((part) => (part.type === 'fraction' ? fraction : part.type === 'integer' && whole === 0n ? '0' : part.value))
    .join('');
}

const dateTimeFormats = new Map<Language, Intl.DateTimeFormat>();

/** `at` as a Tunisian reader of `language` reads a date and time (long date, 24-hour clock), in Tunis time. */
export function formatTunisDateTime(at: Date, language: Language): string {
  let format = dateTimeFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALES[language], { timeZone: 'Africa/Tunis', dateStyle: 'long', timeStyle: 'short', hourCycle: 'h23', numberingSystem: 'latn' });
    dateTimeFormats.set(language, format);
  }
  return format.format(at);
}

const percentFormats = new Map<Language, Intl.NumberFormat>();

/** A share (0.25 → "25 %" in French), to one decimal at most. A ratio of counts, never money. */
export function formatPercent(share: number, language: Language): string {
  let format = percentFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(LOCALES[language], { style: 'percent', maximumFractionDigits: 1 });
    percentFormats.set(language, format);
  }
  return format.format(share);
}
