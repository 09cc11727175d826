/**
 * The hosted page's languages (D18): one catalogue per language, the choice
 * of language for a request, and amounts written the way each language reads
 * them.
 */
import type { Locale, PageLanguage } from '@gateway/contracts';
import { findCurrency } from '@gateway/money';
import { ar } from './ar.js';
import { en, type MessageKey, type Messages } from './en.js';
import { fr } from './fr.js';

export type { MessageKey, Messages } from './en.js';
export type Language = PageLanguage;

export const CATALOGUES: Readonly<Record<Language, Messages>> = { fr, en, ar };
const LANGUAGES = Object.keys(CATALOGUES) as Language[];
const DEFAULT_LANGUAGE: Language = 'fr';

/** Arabic is written right to left; the page's <html dir> follows. */
export function directionOf(language: Language): 'rtl' | 'ltr' {
  return language === 'ar' ? 'rtl' : 'ltr';
}

/** The wording of `key` in `language`, its {placeholders} filled (the values are text, escaped by the caller). */
export function translate(language: Language, key: MessageKey, values: Readonly<Record<string, string | number>> = {}): string {
  return CATALOGUES[language][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * The page's language: the session's `locale` unless `auto`, then the first
 * language of Accept-Language (by q-value, then order) the page speaks, then French.
 */
/** The language a form says its page was in (a hidden field), if it is one the page speaks. */
export function languageOf(value: unknown): Language | undefined {
  return LANGUAGES.find((language) => language === value);
}

export function chooseLanguage(locale: Locale | undefined, acceptLanguage: string | undefined): Language {
  if (locale !== undefined && locale !== 'auto') return locale;
  for (const range of parseAcceptLanguage(acceptLanguage ?? '')) {
    if (range === '*') return DEFAULT_LANGUAGE;
    const primary = range.split('-')[0] as Language;
    if (LANGUAGES.includes(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/** RFC 9110 12.5.4: language ranges by descending q, ties in header order; q=0 means "not this one". */
export function parseAcceptLanguage(header: string): string[] {
  const ranges: { range: string; q: number; at: number }[] = [];
  for (const [at, part] of header.split(',').entries()) {
    const [rangeText = '', ...params] = part.split(';').map((p) => p.trim());
    const range = rangeText.toLowerCase();
    if (!/^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/.test(range)) continue;
    let q = 1;
    for (const param of params) {
      const match = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i.exec(param);
      if (match) q = Number(match[1]);
      else if (/^q=/i.test(param)) q = 0; // A malformed weight is ignored with its range rather than guessed.
    }
    if (q > 0) ranges.push({ range, q, at });
  }
  return ranges.sort((a, b) => b.q - a.q || a.at - b.at).map((r) => r.range);
}

/** Region Tunisia: Latin digits in all three, and the separators Tunisian readers expect (fr "1 234,500", ar "1.234,500"). */
const NUMBER_LOCALES: Readonly<Record<Language, string>> = { fr: 'fr-TN', en: 'en-TN', ar: 'ar-TN' };

/** Formatters made once each: making one costs far more than formatting with it. */
const formats = new Map<string, Intl.NumberFormat>();

/** The formatter of `currency` with `digits` fraction digits in `language`. */
function numberFormat(language: Language, currency: string, digits: number): Intl.NumberFormat {
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
export function formatAmount(amount: string, currency: string, language: Language): string {
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
