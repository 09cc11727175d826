/** The issuer's 3-D Secure page (the sandbox's /acs): self-contained HTML, no script, nothing external. */
import { html, type Html } from '@gateway/runtime';
import type { AcsChallenge } from '../domain/acs-challenge.js';

/** The page offering both answers; every interpolated value is escaped. */
export function challengePage(challenge: AcsChallenge): string {
  return page(
    '3-D Secure authentication',
    html`<h1>3-D Secure authentication</h1>
<p>Sandbox issuer: choose how the cardholder's authentication ends.</p>
<dl>
<dt>Amount</dt><dd>${challenge.amountTnd} TND</dd>
<dt>Card</dt><dd>${challenge.maskedPan}</dd>
<dt>Language asked by the merchant</dt><dd class="language">${challenge.language}</dd>
</dl>
<form method="post" action="${challenge.termUrl}">
<input type="hidden" name="MD" value="${challenge.md}">
<button type="submit" name="PaRes" value="${challenge.paResY}">Complete authentication</button>
<button type="submit" name="PaRes" value="${challenge.paResN}">Fail authentication</button>
</form>`,
  );
}

/** The page of a request that names no challenge. */
export function invalidRequestPage(): string {
  return page(
    '3-D Secure authentication',
    html`<h1>3-D Secure authentication</h1>
<p>The authentication request is invalid.</p>`,
  );
}

function page(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{margin:.5rem .5rem 0 0;padding:.5rem 1rem}</style>
</head>
<body>
${body}
</body>
</html>
`.toString();
}
