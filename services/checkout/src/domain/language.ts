/**
 * The language the hosted page speaks to the buyer (D18): the session's
 * locale unless `auto`, then the first language of the buyer's
 * Accept-Language (by q-value, then order), then French.
 */
import { chooseLanguage as choose, isLanguage, type Language } from '@gateway/i18n';
import type { Locale } from '@gateway/contracts';

/** The language a form says its page was in (a hidden field), if it is one the page speaks. */
export function languageOf(value: unknown): Language | undefined {
  return isLanguage(value) ? value : undefined;
}

/** The page's language for a session of `locale` (none for a link that leads to no session) and the buyer's Accept-Language. */
export function chooseLanguage(locale: Locale | undefined, acceptLanguage: string | undefined): Language {
  return choose(locale, acceptLanguage, 'fr');
}
