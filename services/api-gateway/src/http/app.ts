/**
 * The public HTTP API. Every call takes the same path: route, authenticate,
 * charge the budgets, read the body, send the command to the owning service
 * (once per Idempotency-Key, D10), and turn its reply (or any error) into the
 * HTTP answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { buildOpenApi, commandLane, type ApiContext } from '@gateway/contracts';
import type { RpcClient } from '@gateway/messaging';
import { describeError, type Logger } from '@gateway/observability';
import { AppError, PROBLEM_CONTENT_TYPE, toProblem } from '@gateway/problem';
import { addHealthRoutes, labelRoute, requestIdOf, type ReadinessCheck, type RequestListener } from '@gateway/runtime';
import type { Authenticator } from '../auth/authenticator.js';
import type { Budget, Principal } from '../db/merchant.repository.js';
import type { TestEventStreams } from '../events/test-event-streams.js';
import type { StoredAnswer } from '../idempotency/idempotency.repository.js';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey, REPLAYED_HEADER, type Answer, type IdempotentCalls } from '../idempotency/idempotent-call.js';
import { authFailureBucket, bucketsFor, type BudgetDefaults } from '../limits/budgets.js';
import type { TokenBuckets } from '../limits/token-buckets.js';
import { bodyProblem, jsonObjectBody, nulProblem } from './json-body.js';
import { routes, type Route } from './routes.js';

export interface ApiDependencies {
  auth: Authenticator;
  buckets: TokenBuckets;
  rpc: RpcClient;
  idempotency: IdempotentCalls;
  log: Logger;
  budgets: BudgetDefaults;
  authFailuresPerMinute: number;
  /** The deadline of commands that wait on the acquirer. */
  acquirerCommandTimeoutMs: number;
  rateLimitKeyPrefix: string;
  errorsHost: string;
  publicBaseUrl: string;
  trustProxy: boolean;
  readiness: Record<string, ReadinessCheck>;
  /** The test-mode event streams of GET /gateway/events/stream/ (`gateway listen`). */
  events: TestEventStreams;
  /** Seconds between the comments that keep an idle event stream's proxies from closing it. */
  eventStreamHeartbeatSeconds: number;
  /** Passes /checkout/ requests to the checkout service, when set. */
  checkout?: (req: Request, res: Response) => void;
  /** Passes /dashboard/ and /ops/ requests to the dashboard service (D14, D15), when set. */
  dashboard?: (req: Request, res: Response) => void;
}

const API_PREFIX = '/api/v1';
const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
/** A developer over the stream limit has usually left a listener running; a few seconds is enough to notice. */
const EVENT_STREAM_RETRY_AFTER_SECONDS = 5;
const EVENT_STREAM_PATH = '/gateway/events/stream';

/**
 * The gateway's express app: health, metrics and the OpenAPI document, the
 * /checkout/, /dashboard/ and /ops/ pass-throughs, the API under /api/v1,
 * and a problem document for anything else and for every error.
 */
export function createApiListener(deps: ApiDependencies): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', deps.trustProxy);
  const openApi = JSON.stringify(buildOpenApi(`${deps.publicBaseUrl}${API_PREFIX}`));

  // Request ids (D1) and access logs; metrics, health and readiness sit outside /api/v1: no key, no budget.
  // Without Redis the limits hold per replica (TokenBuckets): still ready.
  addHealthRoutes(app, deps.readiness, deps.log, { degradable: ['redis'] });

  const passThrough = (prefix: string, proxy: ((req: Request, res: Response) => void) | undefined) => {
    if (!proxy) return;
    app.use(prefix, (req, res) => {
      labelRoute(res, `${prefix}/*`);
      proxy(Object.assign(req, { url: req.originalUrl }), res);
    });
  };
  passThrough('/checkout', deps.checkout);
  passThrough('/dashboard', deps.dashboard);
  passThrough('/ops', deps.dashboard);

  app.get(OPENAPI_PATH, (_req, res) => {
    res.type('application/json').send(openApi);
  });
  app.use(API_PREFIX, apiRouter(deps));

  app.use((_req, _res, next) => next(new AppError('not-found', 'No such route.')));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => sendError(deps, res, err));
  return app;
}

/**
 * The API's routes (routes.ts) and the event stream. Paths match as written
 * (case included) with or without the trailing slash (D1); a path served
 * with another method answers 405 with Allow, before any key is asked for.
 */
function apiRouter(deps: ApiDependencies): Router {
  const router = express.Router({ caseSensitive: true });
  // No id holds a NUL character, and PostgreSQL could not even compare one.
  router.param('id', (_req, _res, next, id: string) => next(id.includes('\0') ? new AppError('not-found', 'No such route.') : undefined));

  router
    .route(EVENT_STREAM_PATH)
    .get(async (req, res) => handleEventStream(deps, req, res))
    .all(methodNotAllowed(['GET']));

  const byPath = new Map<string, Route[]>();
  for (const one of routes) byPath.set(one.path, [...(byPath.get(one.path) ?? []), one]);
  for (const [path, served] of byPath) {
    const route = router.route(path);
    for (const one of served) {
      const handlers: RequestHandler[] = [authorized(deps, one.budget), ...(one.hasBody ? jsonObjectBody() : []), async (req, res) => handleApiCall(deps, one, req, res)];
      route[one.method.toLowerCase() as Lowercase<Route['method']>](handlers);
    }
    route.all(methodNotAllowed(served.map((one) => one.method)));
  }
  return router;
}

/** The 405 of a path served only with `allow` (D1). */
function methodNotAllowed(allow: readonly string[]): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Allow', allow.join(', '));
    next(new AppError('method-not-allowed', `Use ${allow.join(' or ')} on this route.`));
  };
}

const PRINCIPAL = 'principal';

/** Authenticates the caller and charges its budgets (authorize), keeping its principal for the call. */
function authorized(deps: ApiDependencies, routeBudget: Budget | undefined): RequestHandler {
  return async (req, res, next) => {
    res.locals[PRINCIPAL] = await authorize(deps, req, res, routeBudget);
    next();
  };
}

async function handleApiCall(deps: ApiDependencies, route: Route, req: Request, res: Response): Promise<void> {
  const principal = res.locals[PRINCIPAL] as Principal;
  const body: unknown = route.hasBody ? req.body : undefined;
  const requestId = requestIdOf(res);
  const context: ApiContext = {
    merchant_id: principal.merchantId,
    livemode: principal.livemode,
    order_prefix: principal.orderPrefix,
    merchant_name: principal.merchantName,
    request_id: requestId,
  };
  const query = req.query as Record<string, unknown>;
  const refused = nulProblem(query);
  if (refused) throw refused;
  const params = req.params as Record<string, string>;
  const call = async (): Promise<StoredAnswer> => {
    const command = route.request({ context, params, body, query });
    // A command of the slow lane waits on the acquirer: it gets the longer deadline.
    const reply = await deps.rpc.call(route.command, command, { correlationId: requestId, ...(commandLane(route.command) === 'slow' && { timeoutMs: deps.acquirerCommandTimeoutMs }) });
    return { status: reply.status, body: JSON.stringify(reply.body) };
  };

  const keyHeader = req.method === 'POST' && !route.answerHoldsSecret ? headerOf(req, IDEMPOTENCY_KEY_HEADER) : undefined;
  let answer: Answer;
  if (keyHeader === undefined) {
    answer = { ...(await call()), replayed: false };
  } else {
    // The scope's route carries the path parameters: a key used on one session's cancel is free on another's.
    const key = parseIdempotencyKey(keyHeader);
    // Passed on too: a refund whose answer was lost must not be made twice by a retry with this key.
    context.idempotency_key = key;
    const scope = { merchantId: principal.merchantId, livemode: principal.livemode, key, route: `POST ${req.path.replace(/\/$/, '')}` };
    answer = await deps.idempotency.run(scope, body, call);
  }
  if (answer.replayed) res.setHeader(REPLAYED_HEADER, 'true');
  // Commands answer successes; a stored answer of 400 or more is a problem document (D10 keeps 4xx answers).
  send(res, answer.status, answer.status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json', answer.body);
}

/** The caller's principal once its key and its budgets allow the call (D12); throws the problem otherwise. */
async function authorize(deps: ApiDependencies, req: IncomingMessage, res: ServerResponse, routeBudget: Budget | undefined): Promise<Principal> {
  const principal = await deps.auth.authenticate(headerOf(req, 'authorization'));
  if (!principal) {
    const budget = await deps.buckets.take([authFailureBucket(clientAddress(req, deps.trustProxy), deps.authFailuresPerMinute, deps.rateLimitKeyPrefix)]);
    if (!budget.allowed) rateLimited(res, budget.retryAfterSeconds);
    res.setHeader('WWW-Authenticate', 'Bearer');
    throw new AppError('unauthorized');
  }
  if (principal.suspended) throw new AppError('forbidden', 'This merchant account is suspended.');

  const budget = await deps.buckets.take(bucketsFor(principal, routeBudget, deps.budgets, deps.rateLimitKeyPrefix));
  if (!budget.allowed) rateLimited(res, budget.retryAfterSeconds);
  return principal;
}

/**
 * GET /gateway/events/stream/: the merchant's test-mode events as server-sent
 * events, each carrying the exact webhook body, until the client goes. Test
 * keys only: a developer's laptop must never receive live payments' data.
 */
async function handleEventStream(deps: ApiDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const principal = await authorize(deps, req, res, undefined);
  if (principal.livemode) throw new AppError('forbidden', 'The event stream is for test keys (sk_test_...) only.');
  if (!deps.events.hasRoomFor(principal.merchantId)) {
    res.setHeader('Retry-After', String(EVENT_STREAM_RETRY_AFTER_SECONDS));
    throw new AppError('rate-limit-exceeded', 'This account has as many event streams open as it may; close one first.');
  }

  // Events may arrive while the queue is being bound, before the answer has started: they wait here.
  const early: string[] = [];
  let write = (chunk: string) => void early.push(chunk);
  // Bound before the answer starts: an event published once the client reads "ready" is never missed.
  const unsubscribe = await deps.events.subscribe(principal.merchantId, {
    event: (id, type, body) => write(`id: ${id}\nevent: ${type}\ndata: ${body}\n\n`),
    end: () => res.end(),
  });
  // The client may have gone while the queue was being bound.
  if (res.destroyed) {
    unsubscribe();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
  res.write(`: ready\n\n${early.join('')}`);
  write = (chunk) => void res.write(chunk);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), deps.eventStreamHeartbeatSeconds * 1000);
  res.once('close', () => {
    unsubscribe();
    clearInterval(heartbeat);
  });
}

/** A request header's value; the first when it is given more than once. */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The client's address, for the failed-authentication budget: the first
 * address of X-Forwarded-For when the gateway sits behind a trusted proxy
 * (TRUST_PROXY), as express's `trust proxy` true has it; else the peer's.
 */
function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? headerOf(req, 'x-forwarded-for')?.split(',')[0]?.trim() : undefined;
  return forwarded || req.socket.remoteAddress || 'unknown';
}

function send(res: Response, status: number, contentType: string, body: string): void {
  res.status(status).type(`${contentType}; charset=utf-8`).send(body);
}

function rateLimited(res: ServerResponse, retryAfterSeconds: number): never {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  throw new AppError('rate-limit-exceeded');
}

/**
 * The problem document of any error: an AppError's own, the body parser's
 * refusals as D1 has them, a path parameter that is not valid percent-encoding
 * as an unknown route, and anything else as a 500 that tells nothing.
 */
function sendError(deps: ApiDependencies, res: Response, thrown: unknown): void {
  const err = thrown instanceof URIError ? new AppError('not-found', 'No such route.') : (bodyProblem(thrown) ?? thrown);
  if (!(err instanceof AppError)) {
    deps.log.error({ err: describeError(err), requestId: requestIdOf(res) }, 'request failed');
  }
  const problem = toProblem(err, deps.errorsHost);
  if (res.headersSent) return;
  if (problem.status === 413) res.setHeader('Connection', 'close');
  send(res, problem.status, PROBLEM_CONTENT_TYPE, JSON.stringify(problem));
}
