/**
 * The hosted page's routes under /checkout/: thin, each calls one step of
 * the flow and renders the page it decided on. Every answer carries D9's security headers; the card form's body
 * is parsed here and handed on, never logged. Paths, bodies and methods
 * nobody serves get a page, never a stack trace.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { describeError, type Logger } from '@gateway/observability';
import { bodyRefusal, formBody, pageSecurityHeaders, type FormLimits } from '@gateway/runtime';
import { CHECKOUT_CSS, renderCheckoutPage, STYLESHEET_PATH } from '../pages/index.js';
import { cancelPayment, pay, returnFromChallenge, showPage, showResult, type Answer, type CheckoutPage, type FlowDeps } from '../domain/checkout-flow.js';
import type { BrandingRepository } from '../db/branding.repository.js';
import { brandView, type BrandView } from '../domain/branding.js';
import { sendErrorPage, sendFailurePage, sendHtml, sendSeeOther } from './answers.js';

export const SECURITY_HEADERS = pageSecurityHeaders();

const CARD_FORM_LIMITS: FormLimits = { maxBytes: 8 * 1024, maxFields: 20 };
/** The bank's 3-D Secure answer: a PaRes is signed XML, compressed and base64-encoded, and can run to tens of KiB. */
const CHALLENGE_RETURN_LIMITS: FormLimits = { maxBytes: 64 * 1024, maxFields: 20 };

/** `acceptLanguage`: the buyer's Accept-Language, for the page's language when the session leaves it to the browser (D18). */
type Step = (deps: FlowDeps, token: string, form: Record<string, unknown>, acceptLanguage: string | undefined) => Promise<Answer>;

/**
 * Everything under /checkout/: the stylesheet, the page's steps, and the
 * page for any other path or method. Paths match as written (case included)
 * with or without the trailing slash.
 */
export function addCheckoutRoutes(app: Express, deps: FlowDeps, log: Logger, brands: BrandingRepository): void {
  const router = express.Router({ caseSensitive: true });
  router.use('/checkout', (_req, res, next) => {
    res.set(SECURITY_HEADERS);
    next();
  });
  router.get(STYLESHEET_PATH, (_req, res) => {
    res.type('text/css').send(CHECKOUT_CSS);
  });
  // Express would answer HEAD with a GET route; the steps are for browsers, which never send one (cancel even changes the session).
  router.use('/checkout', (req, _res, next) => next(req.method === 'HEAD' ? 'router' : undefined));
  router.get('/checkout/:token', step(deps, log, brands, (d, token, _form, language) => showPage(d, token, language)));
  router.post('/checkout/:token/pay', formBody(CARD_FORM_LIMITS), step(deps, log, brands, pay));
  router.post('/checkout/:token/3ds', formBody(CHALLENGE_RETURN_LIMITS), step(deps, log, brands, returnFromChallenge));
  router.get('/checkout/:token/result', step(deps, log, brands, (d, token, _form, language) => showResult(d, token, language)));
  router.get('/checkout/:token/cancel', step(deps, log, brands, (d, token, _form, language) => cancelPayment(d, token, language)));
  app.use(router);

  app.use('/checkout', (req, res) => {
    sendErrorPage(res, 404, req.headers['accept-language']);
  });
  // A body that cannot be read (too large, too many fields, another charset) or a path that cannot be decoded: a page.
  app.use('/checkout', (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    log.warn({ err: describeError(err), reason: bodyRefusal(err)?.type }, 'checkout request refused');
    res.set(SECURITY_HEADERS);
    sendErrorPage(res, 400, req.headers['accept-language']);
  });
}

/** The route handler of one step: a form other than urlencoded is an empty one; a failure is a page, logged. */
function step(deps: FlowDeps, log: Logger, brands: BrandingRepository, run: Step) {
  return async (req: Request, res: Response): Promise<void> => {
    const acceptLanguage = req.headers['accept-language'];
    const token = String(req.params['token']);
    const form = (req.body ?? {}) as Record<string, unknown>;
    try {
      const answer = await run(deps, token, form, acceptLanguage);
      // The card form shows the merchant's branding (D20).
      const brand = 'page' in answer && answer.page === 'payment' ? await brandView(brands, answer.session.merchant_id) : {};
      send(res, answer, brand);
    } catch (err) {
      sendFailurePage(res, log, err, acceptLanguage, 'checkout step', { path: req.route?.path as unknown });
    }
  };
}

function send(res: Response, answer: Answer, brand: BrandView): void {
  if ('redirect' in answer) return sendSeeOther(res, answer.redirect);
  sendHtml(res, statusOf(answer), renderCheckoutPage(answer, brand));
}

/**
 * A checkout link that leads to no session is gone (410), a suspended merchant's
 * session refused (403), a payment link's session without a slot of the payment link
 * refused for now (409) or for good (410), a refused card form unprocessable
 * (422); any other page is a 200.
 */
function statusOf(page: CheckoutPage): number {
  if (page.page === 'checkout-link-expired') return 410;
  if (page.page === 'unavailable') return page.reason === 'payment-link-held' ? 409 : page.reason === 'payment-link-used' ? 410 : 403;
  return page.page === 'payment' && page.refused ? 422 : 200;
}

