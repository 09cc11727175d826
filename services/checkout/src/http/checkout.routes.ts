/**
 * The hosted page's routes under /checkout/: thin, each calls one step of
 * the flow and renders the page it decided on. Every answer carries D9's
 * security headers (the pages that hand the buyer to the bank, D30's); the
 * card form's body is parsed here and handed on, never logged. Paths, bodies
 * and methods nobody serves get a page, never a stack trace.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { describeError, type Logger } from '@gateway/observability';
import { bodyRefusal, formBody, type FormLimits } from '@gateway/runtime';
import { CHECKOUT_CSS, HAND_OFF_SCRIPT, HAND_OFF_SCRIPT_PATH, renderCheckoutPage, STYLESHEET_PATH } from '../pages/index.js';
import { cancelPayment, pay, showPage, showResult } from '../domain/checkout-flow.js';
import type { Answer, CheckoutPage } from '../domain/page-answers.js';
import type { FlowDeps } from '../domain/payment-steps.js';
import { continueAfterMethod, isAttemptId, returnByGet, returnFromBank, returnFromChallenge } from '../domain/three-d-secure.js';
import { payWithWallet, returnFromWallet } from '../domain/wallet-flow.js';
import type { BrandingRepository } from '../db/branding.repository.js';
import { brandView, type BrandView } from '../domain/branding.js';
import { sendErrorPage, sendFailurePage, sendHtml, sendSeeOther } from './answers.js';
import { buyerAddress } from './buyer-address.js';
import { pageHeaders, SECURITY_HEADERS } from './page-headers.js';

const CARD_FORM_LIMITS: FormLimits = { maxBytes: 8 * 1024, maxFields: 20 };
/** The bank's 3-D Secure answer: a PaRes or cres is signed, compressed and base64-encoded, and can run to tens of KiB. */
const BANK_ANSWER_LIMITS: FormLimits = { maxBytes: 64 * 1024, maxFields: 20 };
const METHOD_FORM_LIMITS: FormLimits = { maxBytes: 1024, maxFields: 5 };
/** "Pay with Flouci" posts the page's language alone. */
const WALLET_FORM_LIMITS: FormLimits = { maxBytes: 1024, maxFields: 5 };
/** The script's path names its content, so a browser may keep it for as long as it likes. */
const SCRIPT_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface CheckoutRoutesOptions {
  /** How many proxies of ours stand in front: the buyer's address is the X-Forwarded-For entry that many hops back. */
  trustProxyHops: number;
}

/** What a step reads of its request: the checkout link's token, the form, the buyer's language and address, the attempt the path names. */
interface StepRequest {
  token: string;
  form: Record<string, unknown>;
  /** The buyer's Accept-Language, for the page's language when the session leaves it to the browser (D18). */
  acceptLanguage: string | undefined;
  buyerIp: string | undefined;
  attemptId: string;
}

type Step = (deps: FlowDeps, request: StepRequest) => Promise<Answer>;

/**
 * Everything under /checkout/: the stylesheet and script, the page's steps,
 * and the page for any other path or method. Paths match as written (case
 * included) with or without the trailing slash.
 */
export function addCheckoutRoutes(app: Express, deps: FlowDeps, log: Logger, brands: BrandingRepository, options: CheckoutRoutesOptions): void {
  const router = express.Router({ caseSensitive: true });
  router.use('/checkout', (_req, res, next) => {
    res.set(SECURITY_HEADERS);
    next();
  });
  router.get(STYLESHEET_PATH, (_req, res) => {
    res.type('text/css').send(CHECKOUT_CSS);
  });
  router.get(HAND_OFF_SCRIPT_PATH, (_req, res) => {
    res.set('Cache-Control', SCRIPT_CACHE_CONTROL).type('text/javascript; charset=utf-8').send(HAND_OFF_SCRIPT);
  });
  // Express would answer HEAD with a GET route; the steps are for browsers, which never send one (cancel even changes the session).
  router.use('/checkout', (req, _res, next) => next(req.method === 'HEAD' ? 'router' : undefined));
  // A path naming no attempt id of ours is no page.
  router.param('attemptId', (_req, _res, next, id: string) => next(isAttemptId(id) ? undefined : 'route'));
  const handle = (run: Step) => step(deps, log, brands, options, run);
  router.get('/checkout/:token', handle((d, r) => showPage(d, r.token, r.acceptLanguage)));
  router.post('/checkout/:token/pay', formBody(CARD_FORM_LIMITS), handle((d, r) => pay(d, r.token, r.form, r.acceptLanguage, r.buyerIp)));
  // Before each attempt had its own address (MD names the attempt): kept for a buyer who was at the bank when the page changed.
  router.post('/checkout/:token/3ds', formBody(BANK_ANSWER_LIMITS), handle((d, r) => returnFromChallenge(d, r.token, r.form, r.acceptLanguage)));
  router.post('/checkout/:token/3ds/:attemptId', formBody(BANK_ANSWER_LIMITS), handle((d, r) => returnFromBank(d, r.token, r.attemptId, r.form, r.acceptLanguage)));
  router.get('/checkout/:token/3ds/:attemptId', handle((d, r) => returnByGet(d, r.token, r.attemptId, r.acceptLanguage)));
  router.post('/checkout/:token/3ds/:attemptId/method', formBody(METHOD_FORM_LIMITS), handle((d, r) => continueAfterMethod(d, r.token, r.attemptId, r.form, r.acceptLanguage)));
  // D26: "Pay with Flouci", and the buyer's return from Flouci (its payment_id in the query is not read: the attempt in the path is the one finished).
  router.post('/checkout/:token/wallet/flouci', formBody(WALLET_FORM_LIMITS), handle((d, r) => payWithWallet(d, r.token, r.form, r.acceptLanguage)));
  router.get('/checkout/:token/wallet/:attemptId', handle((d, r) => returnFromWallet(d, r.token, r.attemptId, r.acceptLanguage)));
  router.get('/checkout/:token/result', handle((d, r) => showResult(d, r.token, r.acceptLanguage)));
  router.get('/checkout/:token/cancel', handle((d, r) => cancelPayment(d, r.token, r.acceptLanguage)));
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
function step(deps: FlowDeps, log: Logger, brands: BrandingRepository, options: CheckoutRoutesOptions, run: Step) {
  return async (req: Request, res: Response): Promise<void> => {
    const acceptLanguage = req.headers['accept-language'];
    const request: StepRequest = {
      token: String(req.params['token']),
      form: (req.body ?? {}) as Record<string, unknown>,
      acceptLanguage,
      buyerIp: buyerAddress(req, options.trustProxyHops),
      attemptId: String(req.params['attemptId'] ?? ''),
    };
    try {
      const answer = await run(deps, request);
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
  const headers = pageHeaders(answer);
  if (headers) res.set(headers);
  sendHtml(res, statusOf(answer), renderCheckoutPage(answer, brand));
}

/**
 * A checkout link that leads to no session is gone (410), a suspended merchant's
 * session refused (403), a payment link's session without a slot of the payment link
 * refused for now (409) or for good (410), as is one of a closed payment link (410), a refused card form unprocessable
 * (422), a form of the acquirer's the page will not post, or a wallet's page it will
 * not send the buyer to, a bad answer from upstream (502); any other page is a 200.
 */
function statusOf(page: CheckoutPage): number {
  if (page.page === 'checkout-link-expired') return 410;
  if (page.page === 'bank-refused') return 502;
  if (page.page === 'unavailable') return page.reason === 'payment-link-held' ? 409 : page.reason === 'payment-link-used' || page.reason === 'payment-link-closed' ? 410 : 403;
  return page.page === 'payment' && (page.refused || page.savedRefused) ? 422 : 200;
}
