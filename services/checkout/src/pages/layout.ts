/** The one page shell every checkout page goes through. */
import { html, type Html } from '@gateway/runtime';
import { directionOf, type Language } from './messages/index.js';

/** Path of the page stylesheet; the only resource a page loads. */
export const STYLESHEET_PATH = '/checkout/assets/checkout.css';

export interface LayoutOptions {
  /** Sends the browser to `url` after `seconds`: the only way these pages move on without script. */
  refresh?: { seconds: number; url: string };
}

/** Wraps a page body in the document shell, in `language` and its direction (D18): the page as sent. */
export function layout(language: Language, title: string, body: Html, options: LayoutOptions = {}): string {
  const refresh = options.refresh === undefined ? '' : html`\n<meta http-equiv="refresh" content="${refreshContent(options.refresh)}">`;
  return html`<!doctype html>
<html lang="${language}" dir="${directionOf(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">${refresh}
<title>${title}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main class="page">
${body}
</main>
</body>
</html>
`.toString();
}

function refreshContent({ seconds, url }: { seconds: number; url: string }): string {
  if (!Number.isInteger(seconds) || seconds < 0) throw new RangeError(`refresh seconds must be a non-negative integer, got ${seconds}`);
  // The URL is left unquoted: browsers take everything after "url=" as the URL, ";" and "," included.
  return `${seconds};url=${url}`;
}
