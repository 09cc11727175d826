/**
 * Where an HTTP request enters a service: it gets its request id (D1: echoed
 * from X-Request-Id when given, else a new one), which becomes the
 * correlation id of everything done for it (log lines, commands, events), and
 * an access log line when answered. Health and metrics probes are not logged.
 */
import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { withCorrelation, type Logger } from '@gateway/observability';
import { routeLabel } from './http-metrics.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const QUIET = new Set(['/healthz', '/readyz', '/metrics']);

/** The request id of a request this middleware has seen. */
export function requestIdOf(res: Response): string {
  return res.locals['requestId'] as string;
}

/** Express middleware: request id and correlation, then one access log line per answered request. */
export function requestContext(log: Logger): RequestHandler {
  return (req, res, next) => {
    if (res.locals['requestId'] !== undefined) {
      next();
      return;
    }
    const given = req.header('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals['requestId'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    if (!QUIET.has(req.path)) {
      const start = Date.now();
      res.once('finish', () => {
        withCorrelation(requestId, () =>
          log.info({ method: req.method, route: routeLabel(req, res), status: res.statusCode, ms: Date.now() - start }, 'request'),
        );
      });
    }
    withCorrelation(requestId, next);
  };
}
