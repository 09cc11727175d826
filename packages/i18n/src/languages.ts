/**
 * The three languages people read us in (D14, D18, D20): French (the default
 * for buyers), English and Arabic, written right to left. One name for them
 * everywhere: `Language`.
 */
export const LANGUAGES = ['fr', 'en', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language as a language switch offers it: its own name, in its own words. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { fr: 'Français', en: 'English', ar: 'العربية' };

/**
 * The locale each language is formatted in: region Tunisia, so Latin digits in
 * all three and the separators Tunisian readers expect (fr "1 234,500",
 * ar "1.234,500").
 */
export const LOCALES: Readonly<Record<Language, string>> = { fr: 'fr-TN', en: 'en-TN', ar: 'ar-TN' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Arabic is written right to left; a page's or a mail's <html dir> follows. */
export function directionOf(language: Language): 'rtl' | 'ltr' {
  return language === 'ar' ? 'rtl' : 'ltr';
}
