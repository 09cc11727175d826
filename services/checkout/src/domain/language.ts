/**
 * The language the hosted page speaks to the buyer (D18): the session's
 * locale unless `auto`, then the first language of the buyer's
 * Accept-Language (by q-value, then order) the page speaks, then French.
 */
import { PageLanguage, type Locale } from '@gateway/contracts';

const LANGUAGES: readonly PageLanguage[] = PageLanguage.anyOf.map((literal) => literal.const);
const DEFAULT_LANGUAGE: PageLanguage = 'fr';

/** The language a form says its page was in (a hidden field), if it is one the page speaks. */
export function languageOf(value: unknown): PageLanguage | undefined {
  return LANGUAGES.find((language) => language === value);
}

/** The page's language for a session of `locale` (none for a link that leads to no session) and the buyer's Accept-Language. */
export function chooseLanguage(locale: Locale | undefined, acceptLanguage: string | undefined): PageLanguage {
  if (locale !== undefined && locale !== 'auto') return locale;
  for (const range of parseAcceptLanguage(acceptLanguage ?? '')) {
    if (range === '*') return DEFAULT_LANGUAGE;
    const primary = range.split('-')[0] as PageLanguage;
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
