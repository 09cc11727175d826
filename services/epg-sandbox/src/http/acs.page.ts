/**
 * The issuer's 3-D Secure page at /acs (GET with a query, or POST with a form):
 * the buyer's browser arrives with PaReq, MD and TermUrl and leaves by posting
 * PaRes and MD to TermUrl. Self-contained HTML: no script, nothing external.
 */
import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from '@gateway/observability';
import { formBody, html, type Html } from '@gateway/runtime';
import { openChallenge, type AcsChallenge } from '../domain/acs-challenge.js';
import type { Sandbox } from '../domain/sandbox.js';
import { FormFields } from './form.js';
import { methodNotAllowed } from './responses.js';

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action http: https:; frame-ancestors 'none'; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
};

/** GET and POST /acs; other methods 405. */
export function acsRouter(sandbox: Sandbox, log: Logger): Router {
  const router = express.Router();
  router.get('/acs', (req, res) => showChallenge(sandbox, log, req.query, res));
  router.post('/acs', formBody({ maxBytes: 16 * 1024, maxFields: 20 }), (req: Request, res) =>
    showChallenge(sandbox, log, (req.body ?? {}) as Record<string, unknown>, res),
  );
  router.all('/acs', (_req, res) => methodNotAllowed(res, 'GET, POST'));
  return router;
}

function showChallenge(sandbox: Sandbox, log: Logger, fields: Record<string, unknown>, res: Response): void {
  const form = new FormFields(fields);
  const challenge = openChallenge(sandbox, { paReq: form.peek('PaReq'), md: form.peek('MD'), termUrl: form.peek('TermUrl') });
  res.set(SECURITY_HEADERS).type('text/html; charset=utf-8');
  if (!challenge) {
    log.info({ call: 'acs', status: 400 }, 'authentication request refused');
    res.status(400).send(invalidRequestPage());
    return;
  }
  log.info({ call: 'acs', orderId: challenge.orderId, status: 200 }, 'authentication page shown');
  res.status(200).send(challengePage(challenge));
}

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

function invalidRequestPage(): string {
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
