/**
 * The public HTTP API. Every call takes the same path: route, authenticate,
 * charge the budgets, read the body, send the command to the owning service
 * (once per Idempotency-Key, D10), and turn its reply (or any error) into the
 * HTTP answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import express, { type Request, type Response } from 'express';
import { buildOpenApi, type ApiContext } from '@gateway/contracts';
import type { RpcClient } from '@gateway/messaging';
import { describeError, type Logger } from '@gateway/observability';
import { AppError, PROBLEM_CONTENT_TYPE, toProblem } from '@gateway/problem';
import { addHealthRoutes, answer, labelRoute, requestIdOf, UNMATCHED_ROUTE, withPlainRoutes, type ReadinessCheck, type RequestListener } from '@gateway/runtime';
import type { Authenticator } from '../auth/authenticator.js';
import type { Budget, Principal } from '../db/merchant.repository.js';
import type { TestEventStreams } from '../events/test-event-streams.js';
import type { StoredAnswer } from '../idempotency/idempotency.repository.js';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey, REPLAYED_HEADER, type Answer, type IdempotentCalls } from '../idempotency/idempotent-call.js';
import { authFailureBucket, bucketsFor, type BudgetDefaults } from '../limits/budgets.js';
import type { TokenBuckets } from '../limits/token-buckets.js';
import { readJsonObject, refuseNulCharacter } from './body.js';
import { matchRoute, type RouteMatch } from './routes.js';

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
const EVENT_STREAM_PATH = /^\/api\/v1\/gateway\/events\/stream\/?$/;

/**
 * The gateway's request listener. /api/v1's calls are served on node:http
 * directly (runtime's plain routes: every payment starts with one);
 * health, metrics, the OpenAPI document, the /checkout/, /dashboard/ and /ops/
 * pass-throughs and the 404 for anything else go through express.
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

  app.use((_req, res) => sendError(deps, res, new AppError('not-found', 'No such route.')));

  return withPlainRoutes(app, deps.log, (method, path) => {
    if (!path.startsWith(`${API_PREFIX}/`) || path === OPENAPI_PATH) return undefined;
    if (EVENT_STREAM_PATH.test(path)) {
      return {
        route: `${API_PREFIX}/gateway/events/stream`,
        handle: (req, res) => void handleEventStream(deps, method, req, res).catch((err: unknown) => sendError(deps, res, err)),
      };
    }
    const match = matchRoute(method, path.slice(API_PREFIX.length));
    return {
      route: match.kind === 'found' ? `${API_PREFIX}${match.route.path}` : UNMATCHED_ROUTE,
      handle: (req, res) => void handleApiCall(deps, match, req, res).catch((err: unknown) => sendError(deps, res, err)),
    };
  });
}

async function handleApiCall(deps: ApiDependencies, match: RouteMatch, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (match.kind === 'not-found') throw new AppError('not-found', 'No such route.');
  if (match.kind === 'method-not-allowed') {
    res.setHeader('Allow', match.allow.join(', '));
    throw new AppError('method-not-allowed', `Use ${match.allow.join(' or ')} on this route.`);
  }

  const principal = await authorize(deps, req, res, match.route.budget);
  const body = match.route.hasBody ? await readJsonObject(req) : undefined;
  const requestId = requestIdOf(res);
  const context: ApiContext = {
    merchant_id: principal.merchantId,
    livemode: principal.livemode,
    order_prefix: principal.orderPrefix,
    merchant_name: principal.merchantName,
    request_id: requestId,
  };
  const route = match.route;
  const query = parseQuery((req.url ?? '').split('?')[1] ?? '');
  refuseNulCharacter(query);
  const call = async (): Promise<StoredAnswer> => {
    const command = route.request({ context, params: match.params, body, query });
    const reply = await deps.rpc.call(route.command, command, { correlationId: requestId, ...(route.waitsForAcquirer && { timeoutMs: deps.acquirerCommandTimeoutMs }) });
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
    const scope = { merchantId: principal.merchantId, livemode: principal.livemode, key, route: `POST ${pathOf(req).slice(API_PREFIX.length).replace(/\/$/, '')}` };
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
async function handleEventStream(deps: ApiDependencies, method: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (method !== 'GET') {
    res.setHeader('Allow', 'GET');
    throw new AppError('method-not-allowed', 'Use GET on this route.');
  }
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

function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0] ?? '/';
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

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  answer(res, status, `${contentType}; charset=utf-8`, body);
}

function rateLimited(res: ServerResponse, retryAfterSeconds: number): never {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  throw new AppError('rate-limit-exceeded');
}

function sendError(deps: ApiDependencies, res: ServerResponse, err: unknown): void {
  if (!(err instanceof AppError)) {
    deps.log.error({ err: describeError(err), requestId: requestIdOf(res) }, 'request failed');
  }
  const problem = toProblem(err, deps.errorsHost);
  if (res.headersSent) return;
  if (problem.status === 413) res.setHeader('Connection', 'close');
  send(res, problem.status, PROBLEM_CONTENT_TYPE, JSON.stringify(problem));
}
