/** The one page shell every checkout page goes through. */
import { html, type Html } from '@gateway/runtime';
import { directionOf } from '@gateway/i18n';
import type { PageTranslate } from './catalogue/index.js';

/** Path of the stylesheet that gives the pages `color` (#rrggbb) as their accent (served by http/brand.routes). */
function accentStylesheetPath(color: string): string {
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) throw new RangeError(`an accent colour is #rrggbb, got ${color}`);
  return `/checkout/brand/accent-${color.slice(1).toLowerCase()}.css`;
}

/** The merchant's logo above its name, as an image of ours the pages' CSP (img-src 'self') allows; its alternative text is the merchant's name. */
export function brandLogo(logoPath: string | undefined, merchantName: string): Html {
  return logoPath === undefined ? html`` : html`<p class="brand-logo"><img src="${logoPath}" alt="${merchantName}"></p>\n`;
}

/** Path of the page stylesheet; with the merchant's accent stylesheet and logo, the only resources a page loads. */
export const STYLESHEET_PATH = '/checkout/assets/checkout.css';

export interface LayoutOptions {
  /** Sends the browser to `url` after `seconds`: the only way these pages move on without script. */
  refresh?: { seconds: number; url: string };
  /** The merchant's accent colour (#rrggbb): a second stylesheet of ours sets it, so the pages' CSP (style-src 'self') holds. */
  accentColor?: string;
  /** The path of a script of ours the page runs once parsed (D30's pages only: their CSP allows script-src 'self'). */
  script?: string;
}

/** Wraps a page body in the document shell, in the language of `t` and its direction (D18): the page as sent. */
export function layout(t: PageTranslate, title: string, body: Html, options: LayoutOptions = {}): string {
  const { language } = t;
  const refresh = options.refresh === undefined ? '' : html`\n<meta http-equiv="refresh" content="${refreshContent(options.refresh)}">`;
  const accent = options.accentColor === undefined ? '' : html`\n<link rel="stylesheet" href="${accentStylesheetPath(options.accentColor)}">`;
  const script = options.script === undefined ? '' : html`\n<script src="${options.script}" defer></script>`;
  return html`<!doctype html>
<html lang="${language}" dir="${directionOf(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">${refresh}
<title>${title}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">${accent}${script}
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
