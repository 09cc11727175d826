/** The page shell of the dashboard and the console, and the small pieces every page is made of. */
import { directionOf, LANGUAGE_NAMES, type Language } from '@gateway/i18n';
import type { AppError } from '@gateway/problem';
import { html, type Html, type HtmlValue } from '@gateway/runtime';
import { wordsIn, type TextKey, type Words } from './texts/catalogue.js';

/** Who a page is shown to, as its view needs them: their language and words, the mode in view, and the token its forms carry. */
export interface Reader {
  readonly language: Language;
  readonly t: Words;
  readonly mode: 'test' | 'live';
  readonly csrf: string;
}

interface Shell {
  language: Language;
  t: Words;
  /** '/dashboard' or '/ops'. */
  base: string;
  title: string;
  /** The signed-in frame: header and sections; absent on sign-in pages. */
  frame?: {
    brand: string;
    who: string;
    csrf: string;
    sections: readonly { href: string; label: TextKey }[];
    current: string;
    /** The dashboard's test/live switch. */
    mode?: { mode: 'test' | 'live'; livePending: boolean };
  };
}

/** A section's page as its view makes it: its title and its body, for the door's frame to go around. */
export interface PageView {
  title: string;
  body: Html;
}

/** A bare page of a door (no signed-in frame: sign-in, failures) in `language`. */
export function barePage(language: Language, base: string, title: string, body: HtmlValue): Html {
  return layout({ language, t: wordsIn(language), base, title }, body);
}

/** The whole page: the shell, with the signed-in frame when there is one, around `body`. */
export function layout(shell: Shell, body: HtmlValue): Html {
  const { t, base, frame } = shell;
  const here = frame?.current ?? '';
  return html`<!doctype html>
<html lang="${shell.language}" dir="${directionOf(shell.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${shell.title} · ${frame?.brand ?? t('gateway_brand')}</title>
<link rel="stylesheet" href="${base}/assets/app.css">
<script src="${base}/assets/app.js" defer></script>
</head>
<body>
<a class="skip" href="#content">${t('skip_to_content')}</a>
${frame ? header(shell, frame) : ''}
${
  frame
    ? html`<nav class="sections" aria-label="${t('sections_nav')}"><ul>${frame.sections.map(
        (section) => html`<li><a href="${section.href}"${here === section.href ? html` aria-current="page"` : ''}>${t(section.label)}</a></li>`,
      )}</ul></nav>`
    : ''
}
<main id="content">
${frame?.mode?.mode === 'live' && frame.mode.livePending ? html`<p class="notice warn" role="status"><strong>${t('verification_pending')}</strong>. ${t('live_after_verification')}</p>` : ''}
${body}
</main>
</body>
</html>
`;
}

function header(shell: Shell, frame: NonNullable<Shell['frame']>): Html {
  const { t, base } = shell;
  return html`<header class="bar">
<span class="brand">${frame.brand}</span>
${
  frame.mode
    ? html`<form method="post" action="${base}/mode" class="inline">${csrfField(frame.csrf)}
<input type="hidden" name="back" value="${frame.current}">
<label class="inline">${t('mode')} <select name="mode" aria-label="${t('mode')}">
<option value="test"${frame.mode.mode === 'test' ? html` selected` : ''}>${t('test_mode')}</option>
<option value="live"${frame.mode.mode === 'live' ? html` selected` : ''}>${t('live_mode')}</option>
</select></label> <button type="submit" class="secondary">${t('continue_button')}</button></form>
<span class="badge ${frame.mode.mode}">${frame.mode.mode === 'live' ? t('live_mode') : t('test_mode')}</span>`
    : ''
}
${languageSwitch(shell, frame.current)}
<span><bdi>${frame.who}</bdi></span>
<form method="post" action="${base}/sign-out" class="inline">${csrfField(frame.csrf)}<button type="submit" class="link">${t('sign_out_button')}</button></form>
</header>`;
}

/** The switch's order: English, the dashboard's default, first. */
const SWITCH_ORDER: readonly Language[] = ['en', 'fr', 'ar'];

/**
 * The language switch (D14): a link to each other language, named in its own
 * words; the choice is kept in a cookie (GET {base}/language?to=…&back=…).
 */
export function languageSwitch(shell: Pick<Shell, 'language' | 't' | 'base'>, back: string): Html {
  const others = SWITCH_ORDER.filter((language) => language !== shell.language);
  return html`<nav class="languages" aria-label="${shell.t('language_switch')}"><ul>${others.map(
    (language) =>
      html`<li><a href="${shell.base}/language?to=${language}&amp;back=${encodeURIComponent(back)}" lang="${language}" dir="${directionOf(language)}" hreflang="${language}">${LANGUAGE_NAMES[language]}</a></li>`,
  )}</ul></nav>`;
}

/** The mode in view as people read it: "Test mode" or "Live mode". */
export function modeName(reader: Pick<Reader, 't' | 'mode'>): string {
  return reader.mode === 'live' ? reader.t('live_mode') : reader.t('test_mode');
}

/** The mode in view as a badge beside a section's heading. */
export function modeBadge(reader: Pick<Reader, 't' | 'mode'>): Html {
  return html`<span class="badge ${reader.mode}">${modeName(reader)}</span>`;
}

/** A "back" (←) or "forward" (→) arrow, drawn turned round on a right to left page (the text, and so a link's name, stays the same). */
export const BACK_ARROW = html`<span class="arrow">←</span>`;
export const FORWARD_ARROW = html`<span class="arrow">→</span>`;

/**
 * A text of the catalogue whose values are markup (a link, a code), each kept
 * in its own direction (<bdi>) inside the sentence; the words are escaped.
 */
export function phrase(t: Words, key: TextKey, values: Readonly<Record<string, HtmlValue>>): Html {
  const isolated = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, html`<bdi>${value}</bdi>`]));
  return html`${t.parts(key, isolated)}`;
}

/** The hidden field that carries the session's CSRF token in a form. */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

/** A notice at the top of a section: a success, a refusal (an alert) or a warning. */
export function notice(kind: 'ok' | 'error' | 'warn', text: HtmlValue): Html {
  return html`<div class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</div>`;
}

/** A refusal as a notice: the problem's detail and field errors, in the page's language where they are the catalogue's texts. */
export function problemNotice(err: AppError, t: Words): Html {
  const fields = err.errors.map((e) => html`<li><code>${e.field}</code>: ${t.known(e.message)}</li>`);
  return notice('error', html`<p>${t.known(err.detail)}</p>${fields.length > 0 ? html`<ul>${fields}</ul>` : ''}`);
}

/** A table whose rows are already rendered; an empty list says so. */
export function table(headings: readonly string[], rows: readonly Html[], empty: string, numeric: readonly number[] = []): Html {
  if (rows.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<table><thead><tr>${headings.map((h, i) => html`<th scope="col"${numeric.includes(i) ? html` class="num"` : ''}>${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** A date-time as people read it, in UTC, with the exact value for machines. */
export function when(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="muted">—</span>`;
  const shown = iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  return html`<time datetime="${iso}">${shown}</time>`;
}
