/**
 * Where an HTTP request enters a service: it gets its request id (D1: echoed
 * from X-Request-Id when given, else a new one), which becomes the
 * correlation id of everything done for it (log lines, commands, events), and
 * an access log line when answered. Health and metrics probes are not logged.
 * The same for requests express routes and for those a service serves on
 * node:http directly (plain-routes.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { withCorrelation, type Logger } from '@gateway/observability';
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
  if (!QUIET.has((req.url ?? '').split('?')[0] ?? '')) {
    const start = Date.now();
    res.once('finish', () => {
      withCorrelation(requestId, () => log.info({ method: req.method, route: route(), status: res.statusCode, ms: Date.now() - start }, 'request'));
    });
  }
  withCorrelation(requestId, handle);
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
