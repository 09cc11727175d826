/**
 * The issuer's 3-D Secure page at /acs (GET with a query, or POST with a form):
 * the buyer's browser arrives with PaReq, MD and TermUrl and leaves by posting
 * PaRes and MD to TermUrl (the page: views/acs.page.ts).
 */
import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from '@gateway/observability';
import { formBody } from '@gateway/runtime';
import { openChallenge } from '../domain/acs-challenge.js';
import type { Sandbox } from '../domain/sandbox.js';
import { challengePage, invalidRequestPage } from '../views/acs.page.js';
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
