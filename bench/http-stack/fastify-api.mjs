// The gateway's hot path (create and get a session) on fastify, for the
// side-by-side measure of run.mjs: the same steps as the express app
// (services/api-gateway/src/http/app.ts) in the same order, on the same
// dependencies: request id and access log (runtime's enterRequest), metrics
// (timeRequest), route, key and budgets, a JSON body of at most 64 KiB held
// to an object without __proto__ or NUL, the command over the broker, the
// reply or a problem document.
import Fastify from 'fastify';
import { findNulCharacter, findProtoKey } from '@gateway/contracts';
import { AppError, PROBLEM_CONTENT_TYPE, toProblem, validationError } from '@gateway/problem';
import { enterRequest, requestIdOf, timeRequest } from '@gateway/runtime';
import { authFailureBucket, bucketsFor } from '../../services/api-gateway/dist/src/limits/budgets.js';
import { routes } from '../../services/api-gateway/dist/src/http/routes.js';

const API_PREFIX = '/api/v1';
const HOT = routes.filter((route) => route.command === 'session.create' || route.command === 'session.get');

/** A request listener for startGateway's `listener` option. */
export async function fastifyApiListener(deps) {
  let handler;
  const app = Fastify({
    logger: false,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: true },
    serverFactory: (h) => {
      handler = h;
      // Never listened on: startGateway's listen() serves `handler`.
      return { on() {}, listen() {}, close(cb) { cb?.(); }, address: () => null };
    },
  });
  // Every body is read as JSON, whatever its declared type, as the express app does.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, text, done) => {
    if (text.length === 0) return done(badBody());
    try {
      done(null, JSON.parse(text));
    } catch {
      done(badBody());
    }
  });
  app.setErrorHandler((err, req, reply) => {
    const mapped = err instanceof AppError ? err : err.statusCode === 413 ? new AppError('payload-too-large') : err.statusCode === 415 || err.statusCode === 400 ? badBody() : err;
    if (!(mapped instanceof AppError)) deps.log.error({ err: String(err) }, 'request failed');
    const problem = toProblem(mapped, deps.errorsHost);
    reply.code(problem.status).type(`${PROBLEM_CONTENT_TYPE}; charset=utf-8`).send(JSON.stringify(problem));
  });
  app.setNotFoundHandler((_req, reply) => {
    const problem = toProblem(new AppError('not-found', 'No such route.'), deps.errorsHost);
    reply.code(404).type(`${PROBLEM_CONTENT_TYPE}; charset=utf-8`).send(JSON.stringify(problem));
  });
  for (const route of HOT) {
    const url = `${API_PREFIX}${route.path}`;
    app.route({
      method: route.method,
      url,
      // onRequest runs before the body is read: the key and budgets first, as the express app has them.
      onRequest: async (req, reply) => {
        req.principal = await authorize(deps, req.raw, reply, route.budget);
      },
      handler: async (req, reply) => {
        const body = route.hasBody ? objectBody(req.body) : undefined;
        const principal = req.principal;
        const requestId = requestIdOf(reply.raw);
        const context = { merchant_id: principal.merchantId, livemode: principal.livemode, order_prefix: principal.orderPrefix, merchant_name: principal.merchantName, request_id: requestId };
        const query = req.query;
        const nul = findNulCharacter(query);
        if (nul !== undefined) throw validationError([{ field: nul, code: 'invalid', message: `${nul} must not contain a NUL character.` }]);
        const command = route.request({ context, params: req.params, body, query });
        const answer = await deps.rpc.call(route.command, command, { correlationId: requestId });
        reply
          .code(answer.status)
          .type(`${answer.status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json'}; charset=utf-8`)
          .send(JSON.stringify(answer.body));
      },
    });
  }
  await app.ready();
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = () => path.startsWith(`${API_PREFIX}/gateway/sessions/`) ? `${API_PREFIX}/gateway/sessions/:id` : `${API_PREFIX}/gateway/sessions`;
    timeRequest(req, res, route);
    enterRequest(req, res, deps.log, route, () => handler(req, res));
  };
}

function badBody() {
  return validationError([{ field: 'body', code: 'invalid', message: 'The request body must be valid JSON.' }]);
}

function objectBody(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw validationError([{ field: 'body', code: 'invalid', message: 'The request body must be a JSON object.' }]);
  const poisoned = findProtoKey(value);
  if (poisoned !== undefined) throw validationError([{ field: poisoned, code: 'invalid', message: '__proto__ is not an allowed key.' }]);
  const nul = findNulCharacter(value);
  if (nul !== undefined) throw validationError([{ field: nul, code: 'invalid', message: `${nul} must not contain a NUL character.` }]);
  return value;
}

async function authorize(deps, req, reply, routeBudget) {
  const header = req.headers.authorization;
  const principal = await deps.auth.authenticate(Array.isArray(header) ? header[0] : header);
  if (!principal) {
    const budget = await deps.buckets.take([authFailureBucket(req.socket.remoteAddress ?? 'unknown', deps.authFailuresPerMinute, deps.rateLimitKeyPrefix)]);
    if (!budget.allowed) rateLimited(reply, budget.retryAfterSeconds);
    reply.header('WWW-Authenticate', 'Bearer');
    throw new AppError('unauthorized');
  }
  if (principal.suspended) throw new AppError('forbidden', 'This merchant account is suspended.');
  const budget = await deps.buckets.take(bucketsFor(principal, routeBudget, deps.budgets, deps.rateLimitKeyPrefix));
  if (!budget.allowed) rateLimited(reply, budget.retryAfterSeconds);
  return principal;
}

function rateLimited(reply, retryAfterSeconds) {
  reply.header('Retry-After', String(retryAfterSeconds));
  throw new AppError('rate-limit-exceeded');
}
