/**
 * The buyer's side of Flouci: a payment's page at link (GET), and the
 * buyer's answer posted to it (a form: phone and the button pressed), which
 * sends the buyer back to the merchant (303). An unknown payment's page is
 * 404, a payment no longer awaiting its buyer 410. Log lines name the payment
 * and what became of it, never the phone.
 */
import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from '@gateway/observability';
import { formBody } from '@gateway/runtime';
import { answerPayPage, openPayPage, type NoPage } from '../domain/flouci/buyer-answer.js';
import { PAY_PAGE_PATH, type Wallet } from '../domain/flouci/wallet.js';
import { noPayPage, payPage } from '../views/flouci.page.js';
import { sendPage } from './page-headers.js';
import { methodNotAllowed } from './responses.js';

const PATH = `${PAY_PAGE_PATH}:payment_id`;
const FORM_LIMITS = { maxBytes: 4 * 1024, maxFields: 10 };

const NO_PAGE: Readonly<Record<NoPage, { status: number; message: string }>> = {
  unknown: { status: 404, message: 'This payment is unknown.' },
  finished: { status: 410, message: 'This payment is no longer awaiting you: it was answered, or its time ran out.' },
};

/** The routes above; other methods on the page's path are 405. */
export function flouciPageRouter(wallet: Wallet, log: Logger): Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.get(PATH, (req, res) => show(wallet, log, paymentIdOf(req), res));
  router.post(PATH, formBody(FORM_LIMITS), (req, res) => answer(wallet, log, paymentIdOf(req), (req.body ?? {}) as Record<string, unknown>, res));
  router.all(PATH, (_req, res) => methodNotAllowed(res, 'GET, POST'));
  return router;
}

function show(wallet: Wallet, log: Logger, paymentId: string, res: Response): void {
  const page = openPayPage(wallet, paymentId);
  if (typeof page === 'string') {
    noPage(log, paymentId, page, res);
    return;
  }
  log.info({ call: 'flouci-page', paymentId: logged(paymentId), status: 200 }, 'payment page shown');
  sendPage(res, 200, payPage(page));
}

function answer(wallet: Wallet, log: Logger, paymentId: string, form: Record<string, unknown>, res: Response): void {
  const outcome = answerPayPage(wallet, paymentId, { phone: field(form, 'phone'), action: field(form, 'action') });
  switch (outcome.kind) {
    case 'unknown':
    case 'finished':
      noPage(log, paymentId, outcome.kind, res);
      return;
    case 'invalid':
      log.info({ call: 'flouci-answer', paymentId: logged(paymentId), status: 400 }, 'buyer answer refused; page shown again');
      sendPage(res, 400, payPage(outcome.page, outcome.error));
      return;
    default:
      log.info({ call: 'flouci-answer', paymentId: logged(paymentId), paymentStatus: outcome.status, status: 303 }, 'buyer answered; sent back to the merchant');
      res.set('Cache-Control', 'no-store').redirect(303, outcome.redirect);
  }
}

function noPage(log: Logger, paymentId: string, why: NoPage, res: Response): void {
  const { status, message } = NO_PAGE[why];
  log.info({ call: 'flouci-page', paymentId: logged(paymentId), status }, `payment page ${why}`);
  sendPage(res, status, noPayPage(message));
}

function paymentIdOf(req: Request): string {
  return String(req.params['payment_id']);
}

/** A payment id as logged: a real one is 22 characters, anything longer a caller's string cut short. */
function logged(paymentId: string): string {
  return paymentId.slice(0, 64);
}

/** A form field's one value; absent, empty or given twice is undefined. */
function field(form: Record<string, unknown>, name: string): string | undefined {
  const value = Object.hasOwn(form, name) ? form[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}
