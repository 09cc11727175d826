/** The sandbox's HTTP surface: health, the acquirer REST API and the browser side of 3-D Secure. */
import express, { type NextFunction, type Request, type Response } from 'express';
import { describeError } from '@gateway/observability';
import { addHealthRoutes, bodyRefusal, type RequestListener } from '@gateway/runtime';
import { acsRouter } from './acs.routes.js';
import { notFound } from './responses.js';
import { restRouter, type RestDependencies } from './rest.routes.js';

/** The request listener: /healthz, /readyz, /metrics, /payment/rest/* and /payment/recurrentPayment.do, and the 3-D Secure pages (acs.routes.ts); anything else is 404. */
export function createSandboxHandler(deps: RestDependencies): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // No dependencies: alive is ready.
  addHealthRoutes(app, {});
  app.use(restRouter(deps));
  app.use(acsRouter(deps.sandbox, deps.log));
  app.use((_req, res) => notFound(res));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const rejected = bodyRefusal(err);
    if (!rejected) deps.log.error({ err: describeError(err) }, 'request failed');
    if (res.headersSent) return;
    res
      .status(rejected?.status ?? 500)
      .type('text/plain')
      .send(rejected ? 'Bad Request' : 'Internal Server Error');
  });
  return app;
}
