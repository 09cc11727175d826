/** The frame of every sandbox page: self-contained HTML, its one style inline, nothing external. */
import { html, trustedHtml, type Html } from '@gateway/runtime';

const STYLE = 'body{font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{margin:.5rem .5rem 0 0;padding:.5rem 1rem}';

/** A whole page around `body`; the title is escaped like any value, `style` is the page's own rules, written by this program. */
export function sandboxPage(title: string, body: Html, style = ''): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${trustedHtml(STYLE + style)}</style>
</head>
<body>
${body}
</body>
</html>
`.toString();
}
