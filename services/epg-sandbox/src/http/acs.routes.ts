/**
 * The sandbox's browser side of 3-D Secure: the issuer's ACS at /acs (the
 * challenge, posted: PaReq, MD and TermUrl, or creq; only ever posted, as a
 * real ACS takes it), the cardholder's answer
 * at /acs/answer (a page handing the buyer back with a posted form, pressed
 * by /acs/continue.js), the 3DS Method URL, and the gateway's own 3-D Secure
 * 2 finish of a deployment without finish3dsVer2Payment.do. Pages:
 * views/acs.page.ts.
 */
import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from '@gateway/observability';
import { formBody } from '@gateway/runtime';
import { answerDecision, openChallenge } from '../domain/acs-challenge.js';
import { finishRedirect } from '../domain/order.js';
import type { Sandbox } from '../domain/sandbox.js';
import { finishByCres, METHOD_PATH, OWN_FINISH_PATH, recordMethod } from '../domain/three-ds2.js';
import { ANSWER_PATH, challengePage, CONTINUE_SCRIPT, CONTINUE_SCRIPT_PATH, invalidRequestPage, methodPage, returnPage } from '../views/acs.page.js';
import { FormFields } from './form.js';
import { PAGE_HEADERS, sendPage } from './page-headers.js';
import { methodNotAllowed } from './responses.js';

/** The hand-back page runs its own script file, and nothing else. */
const RETURN_PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...PAGE_HEADERS,
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; form-action http: https:; frame-ancestors 'none'; base-uri 'none'",
};

/** The 3DS Method page lives in the merchant page's hidden frame: it may be framed by any web page. */
const METHOD_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors http: https:; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
};

const FORM_LIMITS = { maxBytes: 16 * 1024, maxFields: 20 };

/** The routes above; other methods on their paths are 405. */
export function acsRouter(sandbox: Sandbox, log: Logger): Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  const form = (req: Request) => new FormFields((req.body ?? {}) as Record<string, unknown>);
  router.post('/acs', formBody(FORM_LIMITS), (req, res) => showChallenge(sandbox, log, form(req), res));
  router.all('/acs', (_req, res) => {
    log.info({ call: 'acs', status: 405 }, 'authentication request not posted');
    res.status(405).setHeader('Allow', 'POST');
    sendPage(res, 405, invalidRequestPage('The authentication request must be posted (a form with method POST), never opened by its address.'));
  });
  router.post(ANSWER_PATH, formBody(FORM_LIMITS), (req, res) => answer(sandbox, log, form(req), res));
  router.all(ANSWER_PATH, (_req, res) => methodNotAllowed(res, 'POST'));
  router.get(CONTINUE_SCRIPT_PATH, (_req, res) => {
    res.set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).type('text/javascript; charset=utf-8').send(CONTINUE_SCRIPT);
  });
  router.post(METHOD_PATH, formBody(FORM_LIMITS), (req, res) => runMethod(sandbox, log, form(req), res));
  router.all(METHOD_PATH, (_req, res) => methodNotAllowed(res, 'POST'));
  router.post(OWN_FINISH_PATH, formBody(FORM_LIMITS), (req, res) => finishOwn(sandbox, log, form(req), res));
  router.all(OWN_FINISH_PATH, (_req, res) => methodNotAllowed(res, 'POST'));
  return router;
}

function showChallenge(sandbox: Sandbox, log: Logger, fields: FormFields, res: Response): void {
  const challenge = openChallenge(sandbox, { paReq: fields.peek('PaReq'), md: fields.peek('MD'), termUrl: fields.peek('TermUrl'), creq: fields.peek('creq') });
  if (!challenge) {
    log.info({ call: 'acs', status: 400 }, 'authentication request refused');
    sendPage(res, 400, invalidRequestPage());
    return;
  }
  log.info({ call: 'acs', orderId: challenge.orderId, protocol: challenge.protocol, status: 200 }, 'authentication page shown');
  sendPage(res, 200, challengePage(challenge));
}

function answer(sandbox: Sandbox, log: Logger, fields: FormFields, res: Response): void {
  const back = answerDecision(sandbox, fields.peek('decision'), fields.peek('result'));
  if (!back) {
    log.info({ call: 'acs-answer', status: 400 }, 'authentication answer refused');
    sendPage(res, 400, invalidRequestPage('This authentication is no longer awaiting an answer.'));
    return;
  }
  log.info({ call: 'acs-answer', status: 200 }, 'cardholder answered; handed back to the merchant');
  sendPage(res, 200, returnPage(back), RETURN_PAGE_HEADERS);
}

function runMethod(sandbox: Sandbox, log: Logger, fields: FormFields, res: Response): void {
  const known = recordMethod(sandbox, fields.peek('threeDSMethodData'));
  log.info({ call: '3ds-method', status: known ? 200 : 400 }, known ? '3DS Method ran' : '3DS Method data refused');
  sendPage(res, known ? 200 : 400, known ? methodPage() : invalidRequestPage('The 3DS Method data is invalid.'), METHOD_PAGE_HEADERS);
}

/** The gateway finishes the order itself and sends the browser to register.do's returnUrl with a GET. */
function finishOwn(sandbox: Sandbox, log: Logger, fields: FormFields, res: Response): void {
  const order = finishByCres(sandbox, fields.peek('cres'));
  if (!order) {
    log.info({ call: '3ds2-finish', status: 400 }, 'challenge result refused');
    sendPage(res, 400, invalidRequestPage('This authentication result is invalid or was already used.'));
    return;
  }
  log.info({ call: '3ds2-finish', orderId: order.orderId, orderStatus: order.status, status: 303 }, 'order finished by the gateway');
  res.set('Cache-Control', 'no-store').redirect(303, finishRedirect(order));
}
