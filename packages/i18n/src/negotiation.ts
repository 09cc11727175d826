/**
 * Which language a reader gets: what they chose (a session's `locale`, a
 * person's setting, a form's hidden field) or, for `auto` and nothing chosen,
 * their browser's Accept-Language (RFC 9110 12.5.4), else the door's default.
 */
import { LANGUAGES, isLanguage, type Language } from './languages.js';

/** The language ranges of `header` by descending q, ties in header order; q=0 means "not this one". */
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

/** The first language the header asks for (by its primary subtag: `ar-TN` asks for `ar`), else `fallback`; `*` takes the fallback. */
export function negotiateLanguage(header: string | undefined, fallback: Language): Language {
  for (const range of parseAcceptLanguage(header ?? '')) {
    if (range === '*') return fallback;
    const primary = LANGUAGES.find((language) => language === range.split('-')[0]);
    if (primary !== undefined) return primary;
  }
  return fallback;
}

/** `chosen` when it is a language (not `auto`, not missing), else what the browser asks for, else `fallback`. */
export function chooseLanguage(chosen: unknown, acceptLanguage: string | undefined, fallback: Language): Language {
  return isLanguage(chosen) ? chosen : negotiateLanguage(acceptLanguage, fallback);
}
