/**
 * The public HTTP API, on fastify. Every call takes the same path: route,
 * authenticate, charge the budgets, read the body, send the command to the
 * owning service (once per Idempotency-Key, D10), and turn its reply (or any
 * error) into the HTTP answer.
 *
 * fastify rather than express here alone: the gateway is every merchant call's
 * hot path, and it spends about half the CPU per create express does
 * (BENCHMARKS.md, issue 18). The other services' pages stay on express.
 */
import { METHODS, type IncomingMessage, type ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type HTTPMethods, type onRequestHookHandler } from 'fastify';
import { buildOpenApi, commandLane, EXPORT_PAGE_SIZE, type ApiContext } from '@gateway/contracts';
import { EXPORT_KINDS, type ExportSlots } from '@gateway/exports';
import { outageOf, type RpcClient } from '@gateway/messaging';
import { describeError, renderMetrics, type Logger } from '@gateway/observability';
import { AppError, PROBLEM_CONTENT_TYPE, retryAfterOf, toProblem } from '@gateway/problem';
import { clientAddress, enterRequest, labelledRoute, labelRoute, metricsServedHere, readiness, requestIdOf, throttledAddress, timeRequest, type ReadinessCheck, type RequestListener } from '@gateway/runtime';
import type { Authenticator } from '../auth/authenticator.js';
import type { ApiCaller, Budget } from '../db/merchant.repository.js';
import type { TestEventStreams } from '../events/test-event-streams.js';
import type { StoredAnswer } from '../idempotency/idempotency.repository.js';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey, REPLAYED_HEADER, type Answer, type IdempotentCalls } from '../idempotency/idempotent-call.js';
import { authFailureBucket, bucketsFor, type BudgetDefaults } from '../limits/budgets.js';
import type { TokenBuckets } from '../limits/token-buckets.js';
import { addApiDocsRoutes } from './api-docs.routes.js';
import { sendExport } from './csv-exports.js';
import { bodyProblem, carriesBody, jsonObjectBody, MAX_BODY_BYTES, nulProblem, unwantedBodyProblem } from './json-body.js';
import { unknownParametersProblem } from './query-parameters.js';
import { routes, type Route } from './routes.js';

/** A handler that answers a request by itself on the raw request and answer (a pass-through). */
type RawHandler = (req: IncomingMessage, res: ServerResponse) => void;

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
  /** Proxies of ours in front (TRUST_PROXY_HOPS); 0 when the gateway is the edge. */
  trustedProxyHops: number;
  readiness: Record<string, ReadinessCheck>;
  /** The test-mode event streams of GET /gateway/events/stream/ (`gateway listen`). */
  events: TestEventStreams;
  /** Seconds between the comments that keep an idle event stream's proxies from closing it. */
  eventStreamHeartbeatSeconds: number;
  /** Seconds between an open event stream's checks that its key still works and its merchant is not suspended. */
  eventStreamAuthCheckSeconds: number;
  /** Rows a CSV export reads per page (D21); EXPORT_PAGE_SIZE when not given. */
  exportPageSize?: number;
  /** How long an export may stand without a byte moving (EXPORT_IDLE_TIMEOUT_MS). */
  exportIdleTimeoutMs: number;
  /** How long an export may run (D29: EXPORT_MAX_SECONDS). */
  exportMaxSeconds: number;
  /** The slots of running exports, shared by the replicas and the dashboard through Redis (D29: EXPORTS_PER_MERCHANT). */
  exportSlots: Pick<ExportSlots, 'take'>;
  /** Passes /checkout/ and /pay/ (payment links, D19) requests to the checkout service, when set. */
  checkout?: RawHandler;
  /** Passes /dashboard/ and /ops/ requests to the dashboard service (D14, D15), when set. */
  dashboard?: RawHandler;
}

const API_PREFIX = '/api/v1';
const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
/** A developer over the stream limit has usually left a listener running; a few seconds is enough to notice. */
const EVENT_STREAM_RETRY_AFTER_SECONDS = 5;
const EVENT_STREAM_PATH = '/gateway/events/stream';
/** D21's CSV exports: `<kind>.csv` below it. */
const EXPORTS_PATH = '/gateway/exports';
/** Without Redis the limits hold per replica (TokenBuckets): still ready. */
const DEGRADABLE: ReadonlySet<string> = new Set(['redis']);
/** Longer than any id we make; a longer path segment is simply no resource (404), not fastify's 414. */
const MAX_PARAM_LENGTH = 200;

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller, set by the API routes' onRequest step. */
    caller: ApiCaller | null;
  }
}

/**
 * The gateway's request listener: request ids and access logs (D1) and
 * metrics for every request, then fastify: health, metrics and the OpenAPI
 * document, the /checkout/, /pay/, /dashboard/ and /ops/ pass-throughs, the API under
 * /api/v1, and a problem document for anything else and for every error.
 */
export async function createApiListener(deps: ApiDependencies): Promise<RequestListener> {
  const app = Fastify({
    logger: false,
    bodyLimit: MAX_BODY_BYTES,
    // Paths match as written (case included) with or without one trailing slash (D1).
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: MAX_PARAM_LENGTH, querystringParser: (query) => parseQuery(query) },
    // A path that is not valid percent-encoding, or a segment too long for any id: no such route.
    frameworkErrors: (_err, _request, reply) => void sendProblem(deps, reply, new AppError('not-found', 'No such route.')),
  });
  app.decorateRequest('caller', null);
  // Every method Node parses is routed, as express's did: a known path answers 405 to any it does not serve (D1), a pass-through passes it on.
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method);
  }
  // Every request is labelled for the metrics and traces with the route pattern it matched, before any step may fail.
  app.addHook('onRequest', (request, reply, done) => {
    const pattern = request.routeOptions.url;
    if (pattern !== undefined) labelRoute(reply.raw, pattern);
    done();
  });
  // Every body is kept as text, whatever its declared type: the API's routes parse theirs as JSON, the others ignore it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => done(null, text));
  app.setErrorHandler((err, _request, reply) => sendError(deps, reply, err));
  app.setNotFoundHandler((_request, reply) => sendProblem(deps, reply, new AppError('not-found', 'No such route.')));

  addHealthRoutes(app, deps.readiness);
  for (const [prefix, proxy] of [['/checkout', deps.checkout], ['/pay', deps.checkout], ['/dashboard', deps.dashboard], ['/ops', deps.dashboard]] as const) {
    if (proxy) addPassThrough(app, prefix, proxy);
  }
  const openApi = JSON.stringify(buildOpenApi(`${deps.publicBaseUrl}${API_PREFIX}`));
  app.get(OPENAPI_PATH, (_request, reply) => void reply.type('application/json; charset=utf-8').send(openApi));
  await addApiDocsRoutes(app, `${API_PREFIX}/docs`, OPENAPI_PATH);
  addApiRoutes(app, deps);
  await app.ready();

  return (req, res) => {
    const route = () => labelledRoute(res);
    timeRequest(req, res, route);
    enterRequest(req, res, deps.log, route, () => app.routing(req, res));
  };
}

/** GET /metrics (Prometheus text), /healthz (alive) and /readyz (every dependency, Redis degradable): no key, no budget. */
function addHealthRoutes(app: FastifyInstance, checks: Record<string, ReadinessCheck>): void {
  app.get('/metrics', async (request, reply) => {
    if (!metricsServedHere(request.raw)) return reply.callNotFound();
    const { contentType, body } = await renderMetrics();
    return reply.header('Cache-Control', 'no-store').type(contentType).send(body);
  });
  app.get('/healthz', async (_request, reply) => reply.send({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const { statusCode, body } = await readiness(checks, DEGRADABLE);
    return reply.code(statusCode).send(body);
  });
}

/**
 * Every method on `prefix` and below it goes to `proxy` as it came: the body
 * unread, the path and query as the client sent them.
 */
function addPassThrough(app: FastifyInstance, prefix: string, proxy: RawHandler): void {
  const passOn: onRequestHookHandler = (request, reply, done) => {
    labelRoute(reply.raw, `${prefix}/*`);
    // From here the answer is the proxy's: fastify reads no body and sends nothing.
    reply.hijack();
    proxy(request.raw, reply.raw);
    done();
  };
  const handler = () => undefined;
  app.all(prefix, { onRequest: passOn }, handler);
  app.all(`${prefix}/*`, { onRequest: passOn }, handler);
}

/**
 * The API's routes (routes.ts), the event stream and the CSV exports. A path
 * served with another method answers 405 with Allow, before any key is asked
 * for (D1).
 */
function addApiRoutes(app: FastifyInstance, deps: ApiDependencies): void {
  const byPath = new Map<string, Route[]>();
  for (const one of routes) byPath.set(one.path, [...(byPath.get(one.path) ?? []), one]);
  for (const [path, served] of byPath) {
    const url = `${API_PREFIX}${path}`;
    for (const route of served) {
      app.route({
        method: route.method,
        url,
        onRequest: async (request, reply) => {
          // No id holds a NUL character, and PostgreSQL could not even compare one.
          if ((request.params as Record<string, string>)['id']?.includes('\0')) throw new AppError('not-found', 'No such route.');
          request.caller = await authorize(deps, request, reply, route.budget);
        },
        handler: async (request, reply) => handleApiCall(deps, route, request, reply),
      });
    }
    addMethodNotAllowed(app, url, served.map((one) => one.method));
  }

  const stream = `${API_PREFIX}${EVENT_STREAM_PATH}`;
  app.get(stream, async (request, reply) => handleEventStream(deps, request, reply));
  addMethodNotAllowed(app, stream, ['GET']);

  // Counted against the account budget alone, like a list: one call, however many pages it reads.
  const exportDeps = {
    rpc: deps.rpc,
    log: deps.log,
    pageSize: deps.exportPageSize ?? EXPORT_PAGE_SIZE,
    idleTimeoutMs: deps.exportIdleTimeoutMs,
    maxSeconds: deps.exportMaxSeconds,
    slots: deps.exportSlots,
  };
  for (const kind of EXPORT_KINDS) {
    const url = `${API_PREFIX}${EXPORTS_PATH}/${kind}.csv`;
    app.get(
      url,
      {
        onRequest: async (request, reply) => {
          request.caller = await authorize(deps, request, reply, undefined);
        },
      },
      async (request, reply) => sendExport(exportDeps, kind, contextOf(request.caller as ApiCaller, reply), request, reply),
    );
    addMethodNotAllowed(app, url, ['GET']);
  }
}

/** Every other method fastify knows on `url` answers 405 with Allow (HEAD goes with GET). */
function addMethodNotAllowed(app: FastifyInstance, url: string, allow: readonly string[]): void {
  const taken = new Set([...allow, ...(allow.includes('GET') ? ['HEAD'] : [])]);
  const others = app.supportedMethods.filter((method) => !taken.has(method)) as HTTPMethods[];
  app.route({
    method: others,
    url,
    handler: async (_request, reply) => {
      reply.header('Allow', allow.join(', '));
      throw new AppError('method-not-allowed', `Use ${allow.join(' or ')} on this route.`);
    },
  });
}

async function handleApiCall(deps: ApiDependencies, route: Route, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const caller = request.caller as ApiCaller;
  const text = request.body as string | undefined;
  // A route that takes no body refuses one (D29), as part of the call: a key sent with it keeps that answer, and a key used without one is not replayed for it.
  const unwanted = route.hasBody === false && carriesBody(text) ? text : undefined;
  // A route whose body is optional (capture) takes no body at all as an empty object.
  const body: unknown = route.hasBody === false ? undefined : route.hasBody === 'optional' && !text ? {} : jsonObjectBody(text, request.headers['content-type']);
  const slow = route.slow?.when(body) === true;
  // The work that waits on the acquirer (a charge of a saved card, D24) gives it the caller's address, which it requires.
  const context = contextOf(caller, reply, slow ? clientAddress(request.raw, deps.trustedProxyHops) : undefined);
  const requestId = context.request_id;
  const query = request.query as Record<string, unknown>;
  const refused = nulProblem(query) ?? (route.method === 'GET' && !route.takesQuery ? unknownParametersProblem(query) : undefined);
  if (refused) throw refused;
  const params = request.params as Record<string, string>;
  const call = async (): Promise<StoredAnswer> => {
    if (unwanted !== undefined) throw unwantedBodyProblem();
    const command = route.request({ context, params, body, query });
    const type = slow && route.slow ? route.slow.command : route.command;
    // A command of the slow lane waits on the acquirer: it gets the longer deadline.
    const answer = await deps.rpc.call(type, command, { correlationId: requestId, ...(commandLane(type) === 'slow' && { timeoutMs: deps.acquirerCommandTimeoutMs }) });
    return { status: answer.status, body: JSON.stringify(answer.body) };
  };

  const keyHeader = request.method === 'POST' ? headerOf(request.raw, IDEMPOTENCY_KEY_HEADER) : undefined;
  let answer: Answer;
  if (keyHeader === undefined) {
    answer = { ...(await call()), replayed: false };
  } else {
    // The scope's route carries the path parameters: a key used on one session's cancel is free on another's.
    const key = parseIdempotencyKey(keyHeader);
    // Passed on too: a refund whose answer was lost must not be made twice by a retry with this key.
    context.idempotency_key = key;
    const scope = { merchantId: caller.merchantId, livemode: caller.livemode, key, route: `POST ${scopePathOf(request.routeOptions.url ?? '', request.raw.url ?? '')}` };
    // A body the route does not take is the request's all the same: hashed as the text it was, so that another one is another request.
    answer = await deps.idempotency.run(scope, unwanted ?? body, call, { sealed: route.answerHoldsSecret === true });
  }
  if (answer.replayed) reply.header(REPLAYED_HEADER, 'true');
  // Commands answer successes; a stored answer of 400 or more is a problem document (D10 keeps 4xx answers).
  return send(reply, answer.status, answer.status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json', answer.body);
}

/** What a command learns of the authenticated caller and the request. */
function contextOf(caller: ApiCaller, reply: FastifyReply, clientIp?: string): ApiContext {
  return {
    merchant_id: caller.merchantId,
    livemode: caller.livemode,
    order_prefix: caller.orderPrefix,
    merchant_name: caller.merchantName,
    request_id: requestIdOf(reply.raw),
    ...(clientIp && { client_ip: clientIp }),
  };
}

/**
 * The path below /api/v1 of an Idempotency-Key's scope, without a trailing
 * slash: the route's own `pattern` (fastify's, /api/v1/gateway/sessions/:id/cancel)
 * with each parameter as the client wrote it in `url` (not decoded). For every
 * request express routed this is the path it stored (req.path); and a request
 * fastify routes to the same call however its line was written (an
 * absolute-form target, a fragment, a percent-encoded letter of the route's
 * own text: /%61pi/v1/..., .../%63ancel) shares its scope, so that a retry
 * written another way is a replay, not the command run again.
 */
export function scopePathOf(pattern: string, url: string): string {
  const origin = url.startsWith('/') ? undefined : /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i.exec(url)?.[0];
  const target = origin === undefined ? url : url.slice(origin.length);
  const end = target.search(/[?#]/);
  const written = (end === -1 ? target : target.slice(0, end)).split('/');
  const path = pattern
    .replace(/\/$/, '')
    .split('/')
    .map((segment, i) => (segment.startsWith(':') ? (written[i] ?? '') : segment))
    .join('/');
  return path.slice(API_PREFIX.length);
}

/** The caller once its key and its budgets allow the call (D12); throws the problem otherwise. */
async function authorize(deps: ApiDependencies, request: FastifyRequest, reply: FastifyReply, routeBudget: Budget | undefined): Promise<ApiCaller> {
  const caller = await deps.auth.authenticate(headerOf(request.raw, 'authorization'));
  if (!caller) {
    const budget = await deps.buckets.take([authFailureBucket(throttledAddress(clientAddress(request.raw, deps.trustedProxyHops)), deps.authFailuresPerMinute, deps.rateLimitKeyPrefix)]);
    if (!budget.allowed) rateLimited(reply, budget.retryAfterSeconds);
    reply.header('WWW-Authenticate', 'Bearer');
    throw new AppError('unauthorized');
  }
  if (caller.suspended) throw new AppError('forbidden', 'This merchant account is suspended.');

  const budget = await deps.buckets.take(bucketsFor(caller, routeBudget, deps.budgets, deps.rateLimitKeyPrefix));
  if (!budget.allowed) rateLimited(reply, budget.retryAfterSeconds);
  return caller;
}

/**
 * GET /gateway/events/stream/: the merchant's test-mode events as server-sent
 * events, each carrying the exact webhook body, until the client goes, or
 * until its key stops working (revoked, rolled) or its merchant is
 * suspended: the stream checks again every EVENT_STREAM_AUTH_CHECK_SECONDS
 * and then ends with a last comment saying why. Test keys only: a
 * developer's laptop must never receive live payments' data.
 */
async function handleEventStream(deps: ApiDependencies, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const caller = await authorize(deps, request, reply, undefined);
  if (caller.livemode) throw new AppError('forbidden', 'The event stream is for test keys (sk_test_...) only.');
  const unknown = unknownParametersProblem(request.query as Record<string, unknown>);
  if (unknown) throw unknown;
  if (!deps.events.hasRoomFor(caller.merchantId)) {
    reply.header('Retry-After', String(EVENT_STREAM_RETRY_AFTER_SECONDS));
    throw new AppError('rate-limit-exceeded', 'This account has as many event streams open as it may; close one first.');
  }

  const res = reply.raw;
  // Events may arrive while the queue is being bound, before the answer has started: they wait here.
  const early: string[] = [];
  let write = (chunk: string) => void early.push(chunk);
  // Bound before the answer starts: an event published once the client reads "ready" is never missed.
  const unsubscribe = await deps.events.subscribe(caller.merchantId, {
    event: (id, type, body) => write(`id: ${id}\nevent: ${type}\ndata: ${body}\n\n`),
    end: () => res.end(),
  });
  // The stream is written on the raw answer from here on: fastify sends nothing more.
  reply.hijack();
  // The client may have gone while the queue was being bound.
  if (res.destroyed) {
    unsubscribe();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
  res.write(`: ready\n\n${early.join('')}`);
  // An event taken between the stream's end and its queue's going is dropped, never written after the end.
  write = (chunk) => void (res.writableEnded || res.write(chunk));
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), deps.eventStreamHeartbeatSeconds * 1000);
  const authorization = headerOf(request.raw, 'authorization');
  const close = (why: string) => {
    // Nothing more is written once it ends: no keep-alive, no second check.
    clearInterval(heartbeat);
    clearInterval(recheck);
    if (!res.writableEnded) res.end(`: closed: ${why}\n\n`);
  };
  const recheck: NodeJS.Timeout = setInterval(() => {
    deps.auth.authenticate(authorization).then(
      (now) => {
        if (!now) close('this API key no longer works.');
        else if (now.suspended) close('this merchant account is suspended.');
      },
      // Not known to be good any more: the client reconnects, and is asked for its key again.
      () => close('the key could not be checked; reconnect.'),
    );
  }, deps.eventStreamAuthCheckSeconds * 1000);
  res.once('close', () => {
    unsubscribe();
    clearInterval(heartbeat);
    clearInterval(recheck);
  });
}

/** A request header's value; the first when it is given more than once. */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function send(reply: FastifyReply, status: number, contentType: string, body: string): FastifyReply {
  return reply.code(status).type(`${contentType}; charset=utf-8`).send(body);
}

function rateLimited(reply: FastifyReply, retryAfterSeconds: number): never {
  reply.header('Retry-After', String(retryAfterSeconds));
  throw new AppError('rate-limit-exceeded');
}

/**
 * The problem document of any error: an AppError's own, fastify's refusals
 * of a body as D1 has them, and anything else as a 500 that tells nothing.
 */
function sendError(deps: ApiDependencies, reply: FastifyReply, thrown: unknown): FastifyReply {
  const err = bodyProblem(thrown) ?? thrown;
  if (err instanceof AppError) return sendProblem(deps, reply, err);
  const outage = outageOf(err);
  if (outage) {
    deps.log.warn({ err: describeError(err), requestId: requestIdOf(reply.raw) }, 'request failed while a dependency is out; answered as retryable');
    return sendProblem(deps, reply, outage);
  }
  deps.log.error({ err: describeError(err), requestId: requestIdOf(reply.raw) }, 'request failed');
  return sendProblem(deps, reply, err);
}

function sendProblem(deps: ApiDependencies, reply: FastifyReply, err: unknown): FastifyReply {
  const problem = toProblem(err, deps.errorsHost);
  const retryAfter = retryAfterOf(err);
  if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
  // The rest of a body too large is not read: the connection cannot carry another request.
  if (problem.status === 413) reply.header('Connection', 'close');
  return send(reply, problem.status, PROBLEM_CONTENT_TYPE, JSON.stringify(problem));
}
