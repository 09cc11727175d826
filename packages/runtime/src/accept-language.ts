/**
 * Accept-Language (RFC 9110 12.5.4), read the one way every page that speaks
 * several languages reads it: the hosted checkout (D18) and the dashboard (D14).
 */

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

/** The first of `supported` the header asks for (by its primary subtag: `ar-TN` asks for `ar`), else `fallback`; `*` takes the fallback. */
export function negotiateLanguage<L extends string>(header: string | undefined, supported: readonly L[], fallback: L): L {
  for (const range of parseAcceptLanguage(header ?? '')) {
    if (range === '*') return fallback;
    const primary = supported.find((language) => language === range.split('-')[0]);
    if (primary !== undefined) return primary;
  }
  return fallback;
}
