/**
 * What every service process shares: health, readiness and metrics endpoints, listening
 * on a port, and a main that stops gracefully on SIGTERM within a bound.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import express, { type Express } from 'express';
import type { Setting } from '@gateway/config';
import { createLogger, describeError, setMetricsService, startTracing, tracingOn, type Logger } from '@gateway/observability';
import { httpMetrics, metricsHandler } from './http-metrics.js';
import { requestContext } from './request-context.js';

export { enterRequest, requestIdOf, serverSpans } from './request-context.js';

export type ReadinessCheck = () => Promise<boolean>;

/** What node:http calls for each request: an express app is one, as is a fastify app's `routing`. */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Adds the HTTP metrics middleware (for every route added after it), GET
 * /metrics (Prometheus text), GET /healthz (the process is alive) and GET
 * /readyz (every dependency answers, or only `degradable` ones do not:
 * "degraded"). None of them needs credentials.
 */
export function addHealthRoutes(app: Express, checks: Record<string, ReadinessCheck>, log?: Logger, options: { degradable?: readonly string[] } = {}): void {
  const degradable = new Set(options.degradable);
  // With a logger (the apps that serve the public): request ids, correlation and access logs.
  if (log) app.use(requestContext(log));
  app.use(httpMetrics());
  app.get('/metrics', metricsHandler);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const { statusCode, body } = await readiness(checks, degradable);
    res.status(statusCode).json(body);
  });
}

/** The answer of GET /readyz: 200 when every check passes or only `degradable` ones fail ("degraded"), else 503. */
export async function readiness(
  checks: Record<string, ReadinessCheck>,
  degradable: ReadonlySet<string>,
): Promise<{ statusCode: 200 | 503; body: { status: 'ready' | 'degraded' | 'not ready'; checks: Record<string, boolean> } }> {
  const results = await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await check().catch(() => false)] as const));
  // A degradable dependency down leaves the process serving, in a reduced way: ready, and said so.
  const ready = results.every(([name, ok]) => ok || degradable.has(name));
  const status = !ready ? 'not ready' : results.every(([, ok]) => ok) ? 'ready' : 'degraded';
  return { statusCode: ready ? 200 : 503, body: { status, checks: Object.fromEntries(results) } };
}

/** A bare app with only the health routes, for services whose work arrives by broker. */
export function healthApp(checks: Record<string, ReadinessCheck>): Express {
  const app = express();
  app.disable('x-powered-by');
  addHealthRoutes(app, checks);
  return app;
}

export interface Listening {
  readonly server: Server;
  readonly port: number;
  /** Stops accepting connections, lets in-flight requests finish, closes idle keep-alive sockets. */
  close(): Promise<void>;
}

/**
 * How long a keep-alive connection that is idle when the server closes (or
 * becomes idle after) is kept open for a request the client may already have
 * sent on it. Closing such a connection at once, as http.Server#close does
 * with closeIdleConnections, loses a request that crosses the close on the
 * wire: the client sees a reset, not an answer.
 */
const IDLE_GRACE_ON_CLOSE_MS = 1_000;

/** Listens on `port` (0 picks a free one) on all interfaces. */
export async function listen(app: RequestListener, port: number, host = '0.0.0.0'): Promise<Listening> {
  const server = createServer();
  server.keepAliveTimeout = 65_000;
  // Requests under way on each open connection, so that a close can tell idle connections from busy ones.
  const busy = new Map<Socket, number>();
  let closing = false;
  const idleAfterClose = (socket: Socket) => {
    // The server's own timeout handler destroys a connection that times out with no request on it.
    socket.setTimeout(IDLE_GRACE_ON_CLOSE_MS);
  };
  server.on('connection', (socket: Socket) => {
    busy.set(socket, 0);
    socket.once('close', () => busy.delete(socket));
  });
  // Registered before the app, so that it runs before any answer is written.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    // Once closing, every answer says Connection: close and ends its connection.
    if (closing) res.shouldKeepAlive = false;
    res.once('close', () => {
      if (!busy.has(socket)) return;
      const left = (busy.get(socket) ?? 1) - 1;
      busy.set(socket, left);
      if (closing && left === 0) idleAfterClose(socket);
    });
  });
  server.on('request', app);
  server.on('clientError', refuseUnparsed);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        // Stops accepting; unlike http.Server#close, leaves idle keep-alive connections to the grace below.
        NetServer.prototype.close.call(server, () => resolve());
        for (const [socket, requests] of busy) if (requests === 0) idleAfterClose(socket);
      }),
  };
}

/** Node's own answers to a request it could not parse, by its parser's error code; 400 for any other. */
const UNPARSED: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/**
 * What Node answers a request it could not parse (an unknown method, both
 * Content-Length and Transfer-Encoding, headers too large), before any app
 * sees it, as it does without a handler, but with an X-Request-Id: D1 wants
 * one on every answer. Nothing is written into an answer already under way
 * on the connection, as Node does not either.
 */
function refuseUnparsed(err: Error & { code?: string }, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const status = UNPARSED[err.code ?? ''] ?? '400 Bad Request';
    socket.write(`HTTP/1.1 ${status}\r\nX-Request-Id: ${randomUUID()}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  }
  socket.destroy(err);
}

export interface RunningService {
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts a service and keeps it until SIGTERM or SIGINT, then stops it; a stop
 * that outlasts `shutdownTimeoutMs` ends the process anyway.
 */
async function runMain(log: Logger, shutdownTimeoutMs: number, start: () => Promise<RunningService>): Promise<void> {
  let running: RunningService;
  try {
    running = await start();
  } catch (err) {
    log.fatal({ err: describeError(err) }, 'failed to start');
    log.flush?.();
    setTimeout(() => process.exit(1), 100);
    return;
  }
  log.info({ port: running.port }, 'listening');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    const timer = setTimeout(() => {
      log.error('graceful stop timed out; exiting');
      process.exit(1);
    }, shutdownTimeoutMs);
    timer.unref();
    running
      .stop()
      .then(() => {
        log.info('stopped');
        log.flush?.();
        setTimeout(() => process.exit(0), 50);
      })
      .catch((err: unknown) => {
        log.error({ err: describeError(err) }, 'stop failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('unhandledRejection', (err) => log.error({ err: describeError(err) }, 'unhandled rejection'));
}

/** The settings every service has: how it logs and how long its graceful stop may take. */
interface ServiceConfig {
  readonly logLevel: string;
  readonly shutdownTimeoutMs: number;
}

/**
 * A service as its launchers start it: alone in its process (serviceMain, the
 * process entry) or beside others in one (@gateway/system's in-process launcher).
 * Each service's src/service.ts exports one as `service`.
 */
export interface ServiceDefinition<C extends ServiceConfig = ServiceConfig> {
  /** Its folder under services/, the `service` of its logs and metrics. */
  readonly name: string;
  /** Its settings (src/config.ts): each one's environment variable and whether it has a default. */
  readonly settings: Readonly<Record<string, Setting<unknown>>>;
  /** Reads and checks its settings from `env`; throws one ConfigError naming every bad value. */
  loadConfig(env: Record<string, string | undefined>): C;
  /** Opens what it uses and starts listening; `stop` of the answer drains it. */
  start(config: C, log: Logger): Promise<RunningService>;
}

/**
 * The whole process entry of a service: read its configuration, make its
 * logger, start it and stop it on a signal.
 */
export async function serviceMain<C extends ServiceConfig>(service: ServiceDefinition<C>): Promise<void> {
  const config = service.loadConfig(process.env);
  const log = createLogger({ service: service.name, level: config.logLevel });
  setMetricsService(service.name);
  // Before the service opens anything: its pool decides at creation whether to trace queries.
  const stopTracing = await startTracing(service.name);
  if (tracingOn()) log.info('tracing on: spans are exported over OTLP');
  await runMain(log, config.shutdownTimeoutMs, async () => {
    const running = await service.start(config, log);
    return {
      port: running.port,
      // The last spans (the stop's own) are flushed once the service has stopped.
      stop: async () => {
        await running.stop();
        await stopTracing();
      },
    };
  });
}
export * from './service-base.js';
export * from './periodic.js';
export * from './http-metrics.js';
export * from './bodies.js';
export * from './html.js';
export * from './redis.js';
export * from './client-address.js';
export * from './ttl-cache.js';
