/**
 * How the buyer-facing routes (the hosted page, a payment link's page) answer:
 * an HTML page, a 303 to the next page, or the error page of a step that
 * failed, with Retry-After when a dependency is out (D23).
 */
import type { Response } from 'express';
import { outageOf } from '@gateway/messaging';
import { describeError, type Logger } from '@gateway/observability';
import { retryAfterOf } from '@gateway/problem';
import { negotiateLanguage } from '@gateway/i18n';
import { pageTranslator, renderErrorPage } from '../pages/index.js';

export function sendHtml(res: Response, status: number, html: string): void {
  if (res.headersSent) return;
  res.status(status).type('text/html; charset=utf-8').send(html);
}

/** 303 See Other to `url`, the answer to a form that moved the buyer on. */
export function sendSeeOther(res: Response, url: string): void {
  if (res.headersSent) return;
  res.status(303).set('Location', url).type('text/plain; charset=utf-8').send(`See Other. Redirecting to ${url}`);
}

/** The 500 page of a step that failed (`step` names it in the log); nothing of the failure reaches the buyer. */
export function sendFailurePage(res: Response, log: Logger, err: unknown, acceptLanguage: string | undefined, step: string, logFields: Record<string, unknown> = {}): void {
  const outage = outageOf(err);
  if (outage) {
    log.warn({ err: describeError(err), ...logFields }, `${step} failed while a dependency is out`);
    res.set('Retry-After', String(retryAfterOf(outage)));
  } else {
    log.error({ err: describeError(err), ...logFields }, `${step} failed`);
  }
  sendErrorPage(res, 500, acceptLanguage);
}

/** The error page of `status` (404: not found; else something went wrong) in the buyer's own language: there is no session to ask, so Accept-Language, then French (D18). */
export function sendErrorPage(res: Response, status: number, acceptLanguage: string | undefined): void {
  sendHtml(res, status, renderErrorPage(pageTranslator(negotiateLanguage(acceptLanguage, 'fr')), status));
}
