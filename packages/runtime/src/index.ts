/**
 * What every service process shares: health, readiness and metrics endpoints, listening
 * on a port (listen.ts), and a main that stops gracefully on SIGTERM within a bound.
 */
import express, { type Express } from 'express';
import type { Setting } from '@gateway/config';
import { createLogger, describeError, setMetricsService, startTracing, tracingOn, type Logger } from '@gateway/observability';
import { httpMetrics, metricsHandler } from './http-metrics.js';
import { requestContext } from './request-context.js';

export { enterRequest, requestIdOf, serverSpans } from './request-context.js';
export * from './listen.js';

export type ReadinessCheck = () => Promise<boolean>;

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
