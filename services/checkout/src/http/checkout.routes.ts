/**
 * The hosted page's routes under /checkout/: thin, each calls one step of
 * the flow. Every answer carries D9's security headers; the card form's
 * body is parsed here and handed on, never logged.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { describeError, type Logger } from '@gateway/observability';
import { CHECKOUT_CSS, renderErrorPage, STYLESHEET_PATH } from '../pages/index.js';
import { cancelPayment, pay, returnFromChallenge, showPage, showResult, type Answer, type FlowDeps } from '../domain/checkout-flow.js';

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

type Step = (deps: FlowDeps, token: string, form: Record<string, unknown>) => Promise<Answer>;

export function addCheckoutRoutes(app: Express, deps: FlowDeps, log: Logger): void {
  app.use('/checkout', (_req, res, next) => {
    res.set(SECURITY_HEADERS);
    next();
  });
  app.get(STYLESHEET_PATH, (_req, res) => {
    res.type('text/css').send(CHECKOUT_CSS);
  });

  const form = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 20 });
  const route = (step: Step) => async (req: Request, res: Response) => {
    const token = String(req.params.token);
    try {
      send(res, await step(deps, token, (req.body ?? {}) as Record<string, unknown>));
    } catch (err) {
      log.error({ err: describeError(err), path: req.route?.path as unknown }, 'checkout step failed');
      res.status(500).type('html').send(renderErrorPage(500));
    }
  };
  app.get('/checkout/:token', route((d, token) => showPage(d, token)));
  app.post('/checkout/:token/pay', form, route(pay));
  app.post('/checkout/:token/3ds', form, route(returnFromChallenge));
  app.get('/checkout/:token/result', route((d, token) => showResult(d, token)));
  app.get('/checkout/:token/cancel', route((d, token) => cancelPayment(d, token)));

  app.use('/checkout', (_req, res) => {
    res.status(404).type('html').send(renderErrorPage(404));
  });
  // A body that cannot be parsed (too large, malformed): a page, never a stack trace.
  app.use('/checkout', (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    log.warn({ err: describeError(err) }, 'checkout request refused');
    res.status(400).type('html').send(renderErrorPage(400));
  });
}

function send(res: Response, answer: Answer): void {
  if ('redirect' in answer) {
    res.redirect(303, answer.redirect);
    return;
  }
  res.status(answer.status).type('html').send(answer.html);
}
