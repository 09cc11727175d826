/** The sandbox's HTTP surface: health, the acquirer REST API and the issuer's 3-D Secure page. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { describeError } from '@gateway/observability';
import { addHealthRoutes, withServerSpan } from '@gateway/runtime';
import { acsRouter } from './acs.page.js';
import { bodyError, notFound } from './responses.js';
import { isRestPath, REST_PATH, restHandler, type RestDependencies } from './rest.routes.js';

/**
 * The request listener: /payment/rest/* on its own handler; /healthz,
 * /readyz, /metrics and /acs through express; anything else is 404.
 */
export function createSandboxHandler(deps: RestDependencies): (req: IncomingMessage, res: ServerResponse) => void {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // No dependencies: alive is ready.
  addHealthRoutes(app, {});
  app.use(acsRouter(deps.sandbox, deps.log));
  app.use((_req, res) => notFound(res));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const rejected = bodyError(err);
    if (!rejected) deps.log.error({ err: describeError(err) }, 'request failed');
    if (res.headersSent) return;
    res
      .status(rejected?.status ?? 500)
      .type('text/plain')
      .send(rejected ? 'Bad Request' : 'Internal Server Error');
  });
  const rest = restHandler(deps);
  const restRoute = () => `${REST_PATH}:call`;
  return (req, res) => (isRestPath(req.url) ? withServerSpan(req, res, restRoute, () => rest(req, res)) : app(req, res));
}
