/** The sandbox's HTTP surface: health, the acquirer REST API and the browser side of 3-D Secure. */
import express, { type NextFunction, type Request, type Response } from 'express';
import { describeError } from '@gateway/observability';
import { addHealthRoutes, bodyRefusal, type RequestListener } from '@gateway/runtime';
import { acsRouter } from './acs.routes.js';
import { flouciPageRouter } from './flouci-page.routes.js';
import { flouciRouter, type FlouciDependencies } from './flouci.routes.js';
import { notFound } from './responses.js';
import { restRouter, type RestDependencies } from './rest.routes.js';

export interface SandboxDependencies extends RestDependencies {
  readonly flouci: Omit<FlouciDependencies, 'log'>;
}

/**
 * The request listener: /healthz, /readyz, /metrics, /payment/rest/* and
 * /payment/recurrentPayment.do, the 3-D Secure pages (acs.routes.ts),
 * Flouci's /api/v2/* (flouci.routes.ts) and its payment page
 * (flouci-page.routes.ts); anything else is 404.
 */
export function createSandboxHandler(deps: SandboxDependencies): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // No dependencies: alive is ready.
  addHealthRoutes(app, {});
  app.use(restRouter(deps));
  app.use(acsRouter(deps.sandbox, deps.log));
  app.use(flouciRouter({ ...deps.flouci, log: deps.log }));
  app.use(flouciPageRouter(deps.flouci.wallet, deps.log));
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
