/**
 * The hosted page's languages (D18): one catalogue per language, and amounts
 * written the way each language reads them. Which language a request gets is
 * the domain's (domain/language.ts).
 */
import type { Language as PageLanguage } from '@gateway/i18n';
import { ar } from './ar.js';
import { en, type MessageKey, type Messages } from './en.js';
import { fr } from './fr.js';

export type { MessageKey, Messages } from './en.js';
export type Language = PageLanguage;

export const CATALOGUES: Readonly<Record<Language, Messages>> = { fr, en, ar };

/** Arabic is written right to left; the page's <html dir> follows. */
export function directionOf(language: Language): 'rtl' | 'ltr' {
  return language === 'ar' ? 'rtl' : 'ltr';
}

/** The wording of `key` in `language`, its {placeholders} filled (the values are text, escaped by the caller). */
export function translate(language: Language, key: MessageKey, values: Readonly<Record<string, string | number>> = {}): string {
  return CATALOGUES[language][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** Amounts are written as packages/money writes them for every buyer-facing text (pages and receipts). */
export { formatAmount } from '@gateway/i18n';
