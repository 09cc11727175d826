/**
 * The hosted page's routes under /checkout/: thin, each calls one step of
 * the flow. The page's own steps are served on node:http directly (runtime's
 * plain routes: they are a payment's hot path); the stylesheet and the pages
 * for paths and bodies nobody serves stay on express. Every answer carries
 * D9's security headers; the card form's body is parsed here and handed on,
 * never logged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, NextFunction, Request, Response } from 'express';
import { describeError, type Logger } from '@gateway/observability';
import { answer, FormRefused, pageSecurityHeaders, readForm, type FormLimits, type PlainRoute } from '@gateway/runtime';
import { CHECKOUT_CSS, chooseLanguage, renderErrorPage, STYLESHEET_PATH } from '../pages/index.js';
import { cancelPayment, pay, returnFromChallenge, showPage, showResult, type Answer, type FlowDeps } from '../domain/checkout-flow.js';

export const SECURITY_HEADERS = pageSecurityHeaders();

const HTML = 'text/html; charset=utf-8';
const CARD_FORM_LIMITS: FormLimits = { maxBytes: 8 * 1024, maxFields: 20 };
/** The bank's 3-D Secure answer: a PaRes is signed XML, compressed and base64-encoded, and can run to tens of KiB. */
const CHALLENGE_RETURN_LIMITS: FormLimits = { maxBytes: 64 * 1024, maxFields: 20 };

/** `acceptLanguage`: the buyer's Accept-Language, for the page's language when the session leaves it to the browser (D18). */
type Step = (deps: FlowDeps, token: string, form: Record<string, unknown>, acceptLanguage: string | undefined) => Promise<Answer>;

interface PageStep {
  route: string;
  step: Step;
  /** The limits of the form the step takes (a POST body); none for a GET. */
  form?: FormLimits;
}

/** The steps, by method and what follows /checkout/:token ('' for the page itself). */
const STEPS: ReadonlyMap<string, PageStep> = new Map<string, PageStep>([
  ['GET ', { route: '/checkout/:token', step: (d, token, _form, language) => showPage(d, token, language) }],
  ['POST pay', { route: '/checkout/:token/pay', step: pay, form: CARD_FORM_LIMITS }],
  ['POST 3ds', { route: '/checkout/:token/3ds', step: returnFromChallenge, form: CHALLENGE_RETURN_LIMITS }],
  ['GET result', { route: '/checkout/:token/result', step: (d, token, _form, language) => showResult(d, token, language) }],
  ['GET cancel', { route: '/checkout/:token/cancel', step: (d, token, _form, language) => cancelPayment(d, token, language) }],
]);

/** Picks the page's steps for runtime's withPlainRoutes; anything else is left to express. */
export function checkoutRoutes(deps: FlowDeps, log: Logger): (method: string, path: string) => PlainRoute | undefined {
  return (method, path) => {
    const [empty, prefix, token, action = '', ...rest] = path.split('/');
    // A trailing slash is the same route, as express has it.
    const extra = rest.length === 1 && rest[0] === '' ? 0 : rest.length;
    if (empty !== '' || prefix !== 'checkout' || !token || extra > 0 || path === STYLESHEET_PATH) return undefined;
    const found = STEPS.get(`${method} ${action}`);
    if (!found) return undefined;
    return { route: found.route, handle: (req, res) => void runStep(deps, log, found, token, req, res) };
  };
}

async function runStep(
  deps: FlowDeps,
  log: Logger,
  { route, step, form }: PageStep,
  token: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const acceptLanguage = req.headers['accept-language'];
  let fields: Record<string, unknown> = {};
  try {
    if (form) fields = (await readForm(req, form)) ?? {};
  } catch (err) {
    // A body that cannot be read (too large, too many fields, another charset): a page, never a stack trace.
    log.warn({ err: describeError(err), reason: err instanceof FormRefused ? err.reason : undefined }, 'checkout request refused');
    return send(res, { status: 400, html: renderErrorPage(chooseLanguage(undefined, acceptLanguage), 400) });
  }
  try {
    send(res, await step(deps, token, fields, acceptLanguage));
  } catch (err) {
    log.error({ err: describeError(err), path: route }, 'checkout step failed');
    send(res, { status: 500, html: renderErrorPage(chooseLanguage(undefined, acceptLanguage), 500) });
  }
}

function send(res: ServerResponse, page: Answer): void {
  if (res.headersSent) return;
  if ('redirect' in page) return answer(res, 303, 'text/plain; charset=utf-8', `See Other. Redirecting to ${page.redirect}`, { ...SECURITY_HEADERS, Location: page.redirect });
  answer(res, page.status, HTML, page.html, SECURITY_HEADERS);
}

/** What express serves under /checkout/: the stylesheet, and the page for any other path, with the same headers. */
export function addCheckoutFallbacks(app: Express, log: Logger): void {
  app.use('/checkout', (_req, res, next) => {
    res.set(SECURITY_HEADERS);
    next();
  });
  app.get(STYLESHEET_PATH, (_req, res) => {
    res.type('text/css').send(CHECKOUT_CSS);
  });
  app.use('/checkout', (req, res) => {
    res.status(404).type('html').send(renderErrorPage(chooseLanguage(undefined, req.headers['accept-language']), 404));
  });
  app.use('/checkout', (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    log.warn({ err: describeError(err) }, 'checkout request refused');
    res.status(400).type('html').send(renderErrorPage(chooseLanguage(undefined, req.headers['accept-language']), 400));
  });
}
