// The gateway's hot path (create and get a session) on express 5, for the
// side-by-side measure of run.mjs against the fastify app the gateway ships
// (services/api-gateway/src/http/app.ts): the same steps in the same order, on
// the same dependencies: request id, access log and metrics (runtime's
// express middleware), route, key and budgets before the body, a body of at
// most 64 KiB held to a JSON object without __proto__ or NUL (the gateway's
// own jsonObjectBody), the command over the broker, the reply or a problem
// document.
import express from 'express';
import { AppError, PROBLEM_CONTENT_TYPE, toProblem } from '@gateway/problem';
import { addHealthRoutes, requestIdOf } from '@gateway/runtime';
import { authFailureBucket, bucketsFor } from '../../services/api-gateway/dist/src/limits/budgets.js';
import { jsonObjectBody, MAX_BODY_BYTES, nulProblem } from '../../services/api-gateway/dist/src/http/json-body.js';
import { routes } from '../../services/api-gateway/dist/src/http/routes.js';

const API_PREFIX = '/api/v1';
const HOT = routes.filter((route) => route.command === 'session.create' || route.command === 'session.get');

/** A request listener for startGateway's `listener` option. */
export function expressApiListener(deps) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  addHealthRoutes(app, deps.readiness, deps.log, { degradable: ['redis'] });
  const router = express.Router({ caseSensitive: true });
  // Every body is kept as text, whatever its declared type, as the fastify app does.
  const text = express.text({ type: () => true, limit: MAX_BODY_BYTES, inflate: false });
  for (const route of HOT) {
    const authorized = async (req, res, next) => {
      res.locals.principal = await authorize(deps, req, res, route.budget);
      next();
    };
    const handle = async (req, res) => {
      const body = route.hasBody ? jsonObjectBody(typeof req.body === 'string' ? req.body : undefined) : undefined;
      const principal = res.locals.principal;
      const requestId = requestIdOf(res);
      const context = { merchant_id: principal.merchantId, livemode: principal.livemode, order_prefix: principal.orderPrefix, merchant_name: principal.merchantName, request_id: requestId };
      const refused = nulProblem(req.query);
      if (refused) throw refused;
      const command = route.request({ context, params: req.params, body, query: req.query });
      const answer = await deps.rpc.call(route.command, command, { correlationId: requestId });
      send(res, answer.status, answer.status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json', JSON.stringify(answer.body));
    };
    router[route.method.toLowerCase()](route.path, ...(route.hasBody ? [authorized, text, handle] : [authorized, handle]));
  }
  app.use(API_PREFIX, router);
  app.use((_req, _res, next) => next(new AppError('not-found', 'No such route.')));
  app.use((err, _req, res, _next) => {
    const mapped = err instanceof AppError ? err : err?.status === 413 ? new AppError('payload-too-large') : err;
    if (!(mapped instanceof AppError)) deps.log.error({ err: String(err) }, 'request failed');
    const problem = toProblem(mapped, deps.errorsHost);
    send(res, problem.status, PROBLEM_CONTENT_TYPE, JSON.stringify(problem));
  });
  return app;
}

function send(res, status, contentType, body) {
  res.status(status).type(`${contentType}; charset=utf-8`).send(body);
}

async function authorize(deps, req, res, routeBudget) {
  const header = req.headers.authorization;
  const principal = await deps.auth.authenticate(Array.isArray(header) ? header[0] : header);
  if (!principal) {
    const budget = await deps.buckets.take([authFailureBucket(req.socket.remoteAddress ?? 'unknown', deps.authFailuresPerMinute, deps.rateLimitKeyPrefix)]);
    if (!budget.allowed) rateLimited(res, budget.retryAfterSeconds);
    res.setHeader('WWW-Authenticate', 'Bearer');
    throw new AppError('unauthorized');
  }
  if (principal.suspended) throw new AppError('forbidden', 'This merchant account is suspended.');
  const budget = await deps.buckets.take(bucketsFor(principal, routeBudget, deps.budgets, deps.rateLimitKeyPrefix));
  if (!budget.allowed) rateLimited(res, budget.retryAfterSeconds);
  return principal;
}

function rateLimited(res, retryAfterSeconds) {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  throw new AppError('rate-limit-exceeded');
}
