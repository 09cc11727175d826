/**
 * HTTP metrics for every service's port: requests by route pattern, method
 * and status, and latency by route pattern and method. The route is the
 * pattern that matched (`/checkout/:token/pay`), set by the app with
 * `labelRoute` or read from express's matched route; a request nothing
 * matched is `unmatched`. Raw paths never become labels: they carry ids.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { counter, histogram, renderMetrics, secondsSince } from '@gateway/observability';

const UNMATCHED_ROUTE = 'unmatched';

const ROUTE_LABEL = Symbol('metricsRoute');
const TIMED = 'metricsTimed';

type Labelled = ServerResponse & { [ROUTE_LABEL]?: string };
const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const requests = counter('gateway_http_requests_total', 'HTTP requests answered, by route pattern, method and status.', ['route', 'method', 'status']);
const duration = histogram('gateway_http_request_duration_seconds', 'Time to answer an HTTP request, by route pattern and method.', ['route', 'method']);

// Bound children, so that a request costs a map lookup rather than a label hash.
const bound = new Map<string, { count: () => void; observe: (seconds: number) => void }>();
const MAX_BOUND = 2_000;

function series(route: string, method: string, status: string) {
  const key = `${route} ${method} ${status}`;
  let found = bound.get(key);
  if (!found) {
    const c = requests.labels({ route, method, status });
    const h = duration.labels({ route, method });
    found = { count: () => c.inc(), observe: (s) => h.observe(s) };
    if (bound.size < MAX_BOUND) bound.set(key, found);
  }
  return found;
}

/** Names the route pattern a request matched: for a route that stands for many (a pass-through), or a router other than express's. */
export function labelRoute(res: ServerResponse, pattern: string): void {
  (res as Labelled)[ROUTE_LABEL] = pattern;
}

/** The route pattern named by labelRoute, else `unmatched`. */
export function labelledRoute(res: ServerResponse): string {
  return (res as Labelled)[ROUTE_LABEL] ?? UNMATCHED_ROUTE;
}

/** The route label of an answered request: the pattern the app named, else express's matched route, else `unmatched`. */
export function routeLabel(req: Request, res: Response): string {
  const named = (res as Labelled)[ROUTE_LABEL];
  if (named !== undefined) return named;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : UNMATCHED_ROUTE;
}

/** Counts and times one request, from now until its answer is finished; `route` names it then. */
export function timeRequest(req: IncomingMessage, res: ServerResponse, route: () => string): void {
  const start = process.hrtime.bigint();
  res.once('finish', () => {
    const method = req.method !== undefined && METHODS.has(req.method) ? req.method : 'OTHER';
    const s = series(route(), method, String(res.statusCode));
    s.count();
    s.observe(secondsSince(start));
  });
}

/** Express middleware that counts and times every request that passes it. */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    if (res.locals[TIMED]) {
      next();
      return;
    }
    res.locals[TIMED] = true;
    timeRequest(req, res, () => routeLabel(req, res));
    next();
  };
}

/** Marks the requests of a port whose /metrics is served on a port of its own. */
const METRICS_ELSEWHERE = Symbol('metricsElsewhere');

type Marked = IncomingMessage & { [METRICS_ELSEWHERE]?: true };

/** Says that `req` came in on a port that does not serve /metrics: the process has a loopback port for them. */
export function markMetricsElsewhere(req: IncomingMessage): void {
  (req as Marked)[METRICS_ELSEWHERE] = true;
}

/** Whether GET /metrics may be answered on the port `req` came in on: false where metrics have a loopback port of their own. */
export function metricsServedHere(req: IncomingMessage): boolean {
  return (req as Marked)[METRICS_ELSEWHERE] !== true;
}

/** GET /metrics: the process's registry in Prometheus text format; passed on (404) where metrics have a port of their own. */
export const metricsHandler: RequestHandler = (req, res, next) => {
  if (!metricsServedHere(req)) {
    next();
    return;
  }
  renderMetrics()
    .then(({ contentType, body }) => {
      res.setHeader('Cache-Control', 'no-store');
      res.type(contentType).send(body);
    })
    .catch(next);
};
