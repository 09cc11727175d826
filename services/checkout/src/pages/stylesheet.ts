/**
 * The checkout stylesheet, served from our own origin (style-src 'self'): system fonts,
 * a centred card, visible focus, colours at WCAG AA contrast or better; sides are
 * logical (start/end), so the Arabic page mirrors without a second sheet.
 */
export const CHECKOUT_CSS = `*, *::before, *::after { box-sizing: border-box; }
:root {
  color-scheme: light;
  --ink: #1a1d21;
  --muted: #555e68;
  --line: #c9ced4;
  --page: #f3f4f6;
  --card: #ffffff;
  --accent: #0b5cad;
  --accent-dark: #084785;
  --focus: #ffbf47;
  --error: #b3261e;
  --error-bg: #fdecea;
  --amber-bg: #fff4d6;
  --amber-line: #d48a00;
  --amber-ink: #5c3b00;
  --success: #1e6b34;
}
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  background: var(--page);
  color: var(--ink);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 1rem;
  line-height: 1.5;
}
.page {
  width: 100%;
  max-width: 28rem;
  margin: 0 auto;
  padding: 1.25rem 1rem 2rem;
  background: var(--card);
  min-height: 100vh;
}
@media (min-width: 32rem) {
  body { padding: 2rem 1rem; }
  .page { min-height: 0; border: 1px solid var(--line); border-radius: 0.75rem; padding: 1.75rem; }
}
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 0.75rem; color: var(--heading, var(--ink)); }
.brand-logo { margin: 0 0 0.75rem; }
.brand-logo img { display: block; max-width: 12rem; max-height: 4rem; width: auto; height: auto; }
p { margin: 0 0 0.75rem; }
a { color: var(--accent); text-underline-offset: 0.15em; }
a:hover { color: var(--accent-dark); }
a:focus-visible, button:focus-visible, input:focus-visible {
  outline: 3px solid var(--focus);
  outline-offset: 2px;
  box-shadow: 0 0 0 5px var(--ink);
}
.visually-hidden {
  position: absolute !important;
  width: 1px; height: 1px;
  margin: -1px; padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}
.test-banner {
  margin: 0 0 1.25rem;
  padding: 0.75rem 1rem;
  background: var(--amber-bg);
  border: 2px solid var(--amber-line);
  border-radius: 0.5rem;
  color: var(--amber-ink);
  font-size: 0.9375rem;
}
.test-banner-title { margin: 0 0 0.25rem; font-size: 1.125rem; font-weight: 700; }
.test-cards { list-style: none; margin: 0; padding: 0; }
.test-cards li { padding: 0.25rem 0; border-top: 1px solid rgba(92, 59, 0, 0.2); }
.card-number { display: block; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; }
.test-tag { color: var(--amber-ink); background: var(--amber-bg); border-inline-start: 4px solid var(--amber-line); padding: 0.25rem 0.5rem; }
.merchant { margin: 0 0 0.25rem; color: var(--muted); font-weight: 600; }
.amount { font-size: 2rem; margin: 0 0 0.25rem; font-variant-numeric: tabular-nums; }
.original, .order-number, .hint { color: var(--muted); font-size: 0.9375rem; }
.description { margin-top: 0.5rem; }
.items { width: 100%; border-collapse: collapse; margin: 0 0 1rem; font-size: 0.9375rem; }
.items caption { text-align: start; font-weight: 600; padding-bottom: 0.25rem; }
.items th, .items td { padding: 0.375rem 0.25rem; border-bottom: 1px solid var(--line); text-align: start; vertical-align: top; }
.items tbody th { font-weight: 400; }
.items .num { text-align: end; font-variant-numeric: tabular-nums; white-space: nowrap; }
.item-description { display: block; color: var(--muted); font-size: 0.875rem; }
.notice {
  margin: 1rem 0;
  padding: 0.75rem 1rem;
  border-inline-start: 5px solid var(--error);
  background: var(--error-bg);
  color: var(--ink);
}
.notice p:last-child { margin-bottom: 0; }
.attempts { font-weight: 600; }
.payment-form, .wallets { margin-top: 1.25rem; }
.wallets h2 { font-size: 1.125rem; margin: 0 0 0.5rem; }
.saved-card-form fieldset { border: 0; padding: 0; margin: 0 0 1rem; }
.saved-card { margin: 0.25rem 0; }
.another-card { margin-top: 1.25rem; }
.another-card summary { cursor: pointer; color: var(--accent); }
.save-card { margin: 0.75rem 0; }
.field { margin: 0 0 1rem; }
.field label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.field .hint { margin: 0 0 0.25rem; }
.field input {
  display: block;
  width: 100%;
  min-height: 2.75rem;
  padding: 0.5rem 0.625rem;
  font: inherit;
  color: var(--ink);
  background: #fff;
  border: 2px solid #6b7580;
  border-radius: 0.375rem;
}
.field-invalid { border-inline-start: 4px solid var(--error); padding-inline-start: 0.75rem; }
.field-invalid input { border-color: var(--error); }
.field-error { margin: 0 0 0.25rem; color: var(--error); font-weight: 600; }
.pay, .button {
  display: block;
  width: 100%;
  min-height: 3rem;
  padding: 0.75rem 1rem;
  font: inherit;
  font-weight: 700;
  text-align: center;
  text-decoration: none;
  color: #fff;
  background: var(--accent);
  border: 0;
  border-radius: 0.375rem;
  cursor: pointer;
}
.pay:hover, .button:hover { background: var(--accent-dark); color: #fff; }
.cancel { margin-top: 1rem; text-align: center; }
.warning { font-weight: 600; }
.summary { margin: 1rem 0; }
.summary div { display: flex; justify-content: space-between; gap: 1rem; padding: 0.375rem 0; border-bottom: 1px solid var(--line); }
.summary dt { color: var(--muted); }
.summary dd { margin: 0; font-weight: 600; text-align: end; overflow-wrap: anywhere; }
.outcome-succeeded { color: var(--success); }
.outcome-failed { color: var(--error); }
@media (forced-colors: active) {
  .pay, .button { border: 2px solid ButtonText; }
  .test-banner, .notice { border: 2px solid CanvasText; }
}
`;
