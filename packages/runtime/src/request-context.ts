/**
 * Where an HTTP request enters a service: it gets its request id (D1: echoed
 * from X-Request-Id when given, else a new one), which becomes the
 * correlation id of everything done for it (log lines, commands, events), and
 * an access log line when answered. Health and metrics probes are not logged.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { openSpan, SpanKind, withCorrelation, type Logger, type OpenSpan } from '@gateway/observability';
import { routeLabel } from './http-metrics.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const QUIET = new Set(['/healthz', '/readyz', '/metrics']);
const REQUEST_ID_OF = Symbol('requestId');

type Tagged = ServerResponse & { [REQUEST_ID_OF]?: string };

/** The request id of a request that entered through enterRequest. */
export function requestIdOf(res: ServerResponse): string {
  return (res as Tagged)[REQUEST_ID_OF] ?? '';
}

/**
 * Gives the request its id and, unless it is a probe, an access log line
 * naming `route` once answered; then runs `handle` with the id as the
 * correlation id.
 */
export function enterRequest(req: IncomingMessage, res: ServerResponse, log: Logger, route: () => string, handle: () => void): void {
  const given = req.headers['x-request-id'];
  const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  (res as Tagged)[REQUEST_ID_OF] = requestId;
  res.setHeader('X-Request-Id', requestId);
  if (QUIET.has((req.url ?? '').split('?')[0] ?? '')) {
    withCorrelation(requestId, handle);
    return;
  }
  const start = Date.now();
  const span = serverSpan(req, res, route);
  res.once('finish', () => {
    const line = () => withCorrelation(requestId, () => log.info({ method: req.method, route: route(), status: res.statusCode, ms: Date.now() - start }, 'request'));
    if (span) span.run(line);
    else line();
  });
  if (span) span.run(() => withCorrelation(requestId, handle));
  else withCorrelation(requestId, handle);
}

/**
 * Runs `handle` in the request's server span (when tracing is on), for a
 * listener that does not pass through enterRequest.
 */
function withServerSpan(req: IncomingMessage, res: ServerResponse, route: () => string, handle: () => void): void {
  const span = serverSpan(req, res, route);
  if (span) span.run(handle);
  else handle();
}

/**
 * The request's server span, continuing the trace its traceparent names
 * (another service's, or a merchant's); ended when the connection is done
 * with the answer. Named and tagged by route pattern and method only: a raw
 * path can hold a checkout token. Undefined when tracing is off.
 */
function serverSpan(req: IncomingMessage, res: ServerResponse, route: () => string): OpenSpan | undefined {
  const method = req.method ?? 'GET';
  const span = openSpan(method, { kind: SpanKind.SERVER, from: req.headers, attributes: { 'http.request.method': method } });
  if (!span) return undefined;
  res.once('close', () => {
    const pattern = route();
    span.span.updateName(`${method} ${pattern}`);
    span.set('http.route', pattern).set('http.response.status_code', res.statusCode);
    span.end(res.statusCode >= 500 ? `HTTP ${res.statusCode}` : !res.writableFinished ? 'connection closed before the answer was sent' : undefined);
  });
  return span;
}

/** Express middleware: enterRequest for every request the app routes. */
export function requestContext(log: Logger): RequestHandler {
  return (req, res: Response, next) => {
    if (requestIdOf(res)) {
      next();
      return;
    }
    enterRequest(req, res, log, () => routeLabel(req, res), next);
  };
}

/** Express middleware: the request's server span, for an app whose requests do not pass requestContext (the sandbox). */
export function serverSpans(): RequestHandler {
  return (req, res: Response, next) => withServerSpan(req, res, () => routeLabel(req, res), next);
}
