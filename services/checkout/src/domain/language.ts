/**
 * The language the hosted page speaks to the buyer (D18): the session's
 * locale unless `auto`, then the first language of the buyer's
 * Accept-Language (by q-value, then order) the page speaks, then French.
 */
import { PageLanguage, type Locale } from '@gateway/contracts';
import { negotiateLanguage } from '@gateway/runtime';

export { parseAcceptLanguage } from '@gateway/runtime';

const LANGUAGES: readonly PageLanguage[] = PageLanguage.anyOf.map((literal) => literal.const);
const DEFAULT_LANGUAGE: PageLanguage = 'fr';

/** The language a form says its page was in (a hidden field), if it is one the page speaks. */
export function languageOf(value: unknown): PageLanguage | undefined {
  return LANGUAGES.find((language) => language === value);
}

/** The page's language for a session of `locale` (none for a link that leads to no session) and the buyer's Accept-Language. */
export function chooseLanguage(locale: Locale | undefined, acceptLanguage: string | undefined): PageLanguage {
  if (locale !== undefined && locale !== 'auto') return locale;
  return negotiateLanguage(acceptLanguage, LANGUAGES, DEFAULT_LANGUAGE);
}
