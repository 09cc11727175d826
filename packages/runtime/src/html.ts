/**
 * HTML that escapes by default: every value put into an `html` template is
 * escaped for text and quoted attributes alike, unless it is itself `Html`
 * (made by `html`, or by `trustedHtml`, the one explicit, greppable opt-out).
 * Arrays are joined, `undefined`, `null` and `false` render as nothing.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes a value for HTML text and for a quoted attribute value alike. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** A piece of markup known to be safe to write as it is. */
export class Html {
  private constructor(private readonly markup: string) {}

  /** @internal Only `html` and `trustedHtml` make Html. */
  static of(markup: string): Html {
    return new Html(markup);
  }

  toString(): string {
    return this.markup;
  }
}

/** What a template may interpolate. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value as string | number | boolean));
}

/** The tagged template: `html\`<p>${name}</p>\`` escapes `name`. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return Html.of(out);
}

/** `parts` one after another with `separator` (text, escaped like any) between them: lines, attributes. */
export function joinHtml(parts: readonly HtmlValue[], separator: string): Html {
  return Html.of(parts.map(render).join(escapeHtml(separator)));
}

/**
 * Markup written as it is, unescaped: only for text this program wrote itself
 * (a stylesheet, a fixed fragment), never for anything a person or another
 * system supplied.
 */
export function trustedHtml(markup: string): Html {
  return Html.of(markup);
}

/**
 * The headers of every page people see (D9, D14): no resource but our own
 * stylesheet (and, where a page needs it, our own script), no framing, nothing
 * cached, no referrer. A page that hands the buyer to another party (D30) may
 * post forms to `formOrigins` and frame `frameOrigins` besides: origins
 * (scheme://host[:port]) its caller has checked, or `https:` for any https: origin.
 */
export function pageSecurityHeaders(options: { scripts?: boolean; formOrigins?: readonly string[]; frameOrigins?: readonly string[] } = {}): Readonly<Record<string, string>> {
  const script = options.scripts ? " script-src 'self';" : '';
  const forms = ["'self'", ...sourcesOf(options.formOrigins)].join(' ');
  const frames = options.frameOrigins?.length ? ` frame-src ${sourcesOf(options.frameOrigins).join(' ')};` : '';
  return {
    'Content-Security-Policy': `default-src 'none';${script}${frames} style-src 'self'; img-src 'self'; form-action ${forms}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  };
}

/** Origins as policy sources; anything else (a path, a quote, a separator) would change the policy, so it throws. */
function sourcesOf(origins: readonly string[] = []): string[] {
  for (const origin of origins) if (!/^https:$|^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/.test(origin)) throw new RangeError(`not an origin a policy may name: ${origin}`);
  return [...origins];
}
