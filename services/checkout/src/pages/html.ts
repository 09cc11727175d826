/** The one escaping function and the one page shell every checkout page goes through. */
import { directionOf, type Language } from './messages/index.js';

/** Path of the page stylesheet; the only resource a page loads. */
export const STYLESHEET_PATH = '/checkout/assets/checkout.css';

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes a value for HTML text and for a quoted attribute value alike. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

export interface LayoutOptions {
  /** Sends the browser to `url` after `seconds`: the only way these pages move on without script. */
  refresh?: { seconds: number; url: string };
}

/** Wraps a page body (already escaped HTML) in the document shell, in `language` and its direction (D18). */
export function layout(language: Language, title: string, body: string, options: LayoutOptions = {}): string {
  const refresh = options.refresh === undefined ? '' : `\n<meta http-equiv="refresh" content="${refreshContent(options.refresh)}">`;
  return `<!doctype html>
<html lang="${language}" dir="${directionOf(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">${refresh}
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main class="page">
${body}
</main>
</body>
</html>
`;
}

function refreshContent({ seconds, url }: { seconds: number; url: string }): string {
  if (!Number.isInteger(seconds) || seconds < 0) throw new RangeError(`refresh seconds must be a non-negative integer, got ${seconds}`);
  // The URL is left unquoted: browsers take everything after "url=" as the URL, ";" and "," included.
  return escapeHtml(`${seconds};url=${url}`);
}
