/**
 * The only resources a page loads, served from our own origin (D14: no CDN):
 * the stylesheet, and a small script that only adds comfort (confirmations,
 * copying); every page works without it. One stylesheet for both directions:
 * only logical properties (inline-start/end, text-align start/end), so that a
 * right to left page (Arabic, <html dir="rtl">) is laid out as its mirror;
 * codes, keys, ids, addresses, times and amounts stay left to right inside it.
 */
export const STYLESHEET = `*, *::before, *::after { box-sizing: border-box; }
:root { color-scheme: light; --ink: #1a1d21; --muted: #555e68; --line: #c9ced4; --page: #f3f4f6; --card: #fff;
  --accent: #0b5cad; --accent-dark: #084785; --focus: #ffbf47; --error: #b3261e; --error-bg: #fdecea;
  --ok: #1e6b34; --ok-bg: #e7f4ea; --warn-bg: #fff4d6; --warn-line: #d48a00; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: var(--page); color: var(--ink); font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
a { color: var(--accent); text-underline-offset: 0.15em; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px; box-shadow: 0 0 0 5px var(--ink); }
.skip { position: absolute; inset-inline-start: -999px; } .skip:focus { inset-inline-start: 1rem; inset-block-start: 1rem; background: var(--card); padding: 0.5rem; z-index: 2; }
:lang(ar) body { font-family: system-ui, "Segoe UI", Tahoma, "Noto Sans Arabic", "DejaVu Sans", Arial, sans-serif; line-height: 1.6; }
code, kbd, samp, time, pre, .secret, input[type="email"], input[type="url"], input[type="password"], input[inputmode="decimal"], input[inputmode="numeric"] {
  direction: ltr; unicode-bidi: isolate; }
bdi { unicode-bidi: isolate; }
[dir="rtl"] .arrow { display: inline-block; transform: scaleX(-1); }
header.bar { background: #14213d; color: #fff; padding: 0.5rem 1rem; display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; }
header.bar a, header.bar button.link { color: #fff; }
header.bar .brand { font-weight: 700; margin-inline-end: auto; }
header.bar form { margin: 0; }
nav.languages ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; }
.signin nav.languages { margin-block-start: 1rem; }
nav.sections { background: var(--card); border-bottom: 1px solid var(--line); padding: 0 1rem; overflow-x: auto; }
nav.sections ul { list-style: none; margin: 0; padding: 0; display: flex; gap: 1rem; white-space: nowrap; }
nav.sections a { display: inline-block; padding: 0.75rem 0; text-decoration: none; }
nav.sections a[aria-current="page"] { border-bottom: 3px solid var(--accent); font-weight: 600; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 0.5rem; padding: 1rem; margin: 0 0 1rem; overflow-x: auto; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; } h2 { font-size: 1.15rem; margin: 0 0 0.75rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
th, td { text-align: start; padding: 0.4rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: end; font-variant-numeric: tabular-nums; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
form.inline { display: inline; }
form.row { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: flex-end; margin: 0 0 1rem; }
form.stack { display: grid; gap: 0.75rem; max-width: 26rem; }
label { display: grid; gap: 0.2rem; font-weight: 600; font-size: 0.95rem; }
label.inline { display: inline-flex; gap: 0.4rem; align-items: center; }
header.bar label.inline { color: #fff; }
input, select { font: inherit; padding: 0.45rem 0.6rem; border: 1px solid var(--muted); border-radius: 0.35rem; min-width: 0; }
button { font: inherit; padding: 0.45rem 0.9rem; border-radius: 0.35rem; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: var(--card); color: var(--accent); }
button.danger { background: var(--error); border-color: var(--error); }
button.link { background: none; border: none; padding: 0; color: var(--accent); text-decoration: underline; }
.notice { padding: 0.75rem 1rem; border-radius: 0.4rem; margin: 0 0 1rem; border: 1px solid var(--line); }
.notice.ok { background: var(--ok-bg); border-color: var(--ok); }
.notice.error { background: var(--error-bg); border-color: var(--error); }
.notice.warn { background: var(--warn-bg); border-color: var(--warn-line); }
.secret { font-family: ui-monospace, Menlo, Consolas, monospace; background: var(--page); padding: 0.35rem 0.5rem; border-radius: 0.3rem; overflow-wrap: anywhere; user-select: all; }
code.address { overflow-wrap: anywhere; }
tbody.endpoint > tr:not(:last-child) > td { border-bottom: none; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--page); padding: 0.75rem; border-radius: 0.4rem; max-height: 24rem; overflow: auto; }
.muted { color: var(--muted); }
.pager { display: flex; gap: 1rem; margin-top: 0.75rem; }
.badge { display: inline-block; padding: 0 0.45rem; border-radius: 1rem; font-size: 0.85rem; border: 1px solid var(--line); }
.badge.live { background: var(--warn-bg); border-color: var(--warn-line); }
.signin { max-width: 24rem; margin: 3rem auto; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
figure.chart { margin: 0; overflow-x: auto; }
figure.chart svg { display: block; width: 100%; min-width: 30rem; max-width: 48rem; height: auto; direction: ltr; font: 14px system-ui, sans-serif; }
.chart .bar { fill: var(--accent); } .chart .bar:hover { fill: var(--accent-dark); }
.chart .axis { stroke: var(--muted); } .chart .grid { stroke: var(--line); stroke-dasharray: 4 4; }
.chart text { fill: var(--ink); } .chart .tick, .chart .empty { fill: var(--muted); }
table.summary td.num, table.daily td.num { white-space: nowrap; }
table.daily tfoot th, table.daily tfoot td { font-weight: 700; border-top: 2px solid var(--ink); }
ul.downloads { margin: 0 0 0.5rem; padding-inline-start: 1.25rem; }
@media (max-width: 40rem) { main { padding: 0.5rem; } th, td { padding: 0.35rem 0.3rem; } }
`;

/** Asks before a destructive button acts (data-confirm), and copies a secret (data-copy) when scripts run. */
export const SCRIPT = `document.addEventListener('submit', function (event) {
  var button = event.submitter;
  var question = (button && button.getAttribute('data-confirm')) || event.target.getAttribute('data-confirm');
  if (question && !window.confirm(question)) event.preventDefault();
});
document.addEventListener('click', function (event) {
  var target = event.target;
  if (!(target instanceof HTMLElement) || !target.hasAttribute('data-copy')) return;
  var source = document.getElementById(target.getAttribute('data-copy'));
  if (source && navigator.clipboard) navigator.clipboard.writeText(source.textContent || '');
});
`;
