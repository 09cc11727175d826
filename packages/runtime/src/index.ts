/**
 * What every service process shares: health, readiness and metrics endpoints, listening
 * on a port, and a main that stops gracefully on SIGTERM within a bound.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { createLogger, describeError, setMetricsService, type Logger } from '@gateway/observability';
import { httpMetrics, metricsHandler } from './http-metrics.js';

export type ReadinessCheck = () => Promise<boolean>;

/**
 * Adds the HTTP metrics middleware (for every route added after it), GET
 * /metrics (Prometheus text), GET /healthz (the process is alive) and GET
 * /readyz (every dependency answers). None of them needs credentials.
 */
export function addHealthRoutes(app: Express, checks: Record<string, ReadinessCheck>): void {
  app.use(httpMetrics());
  app.get('/metrics', metricsHandler);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const results = await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await check().catch(() => false)] as const));
    const ready = results.every(([, ok]) => ok);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(results) });
  });
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

/** Listens on `port` (0 picks a free one) on all interfaces. */
export async function listen(app: Express, port: number, host = '0.0.0.0'): Promise<Listening> {
  const server = createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

export interface RunningService {
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts a service and keeps it until SIGTERM or SIGINT, then stops it; a stop
 * that outlasts `shutdownTimeoutMs` ends the process anyway.
 */
export async function runMain(log: Logger, shutdownTimeoutMs: number, start: () => Promise<RunningService>): Promise<void> {
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

/**
 * The whole process entry of a service: read its configuration, make its
 * logger, start it and stop it on a signal.
 */
export async function serviceMain<C extends { logLevel: string; shutdownTimeoutMs: number }>(
  service: string,
  loadConfig: () => C,
  start: (config: C, log: Logger) => Promise<RunningService>,
): Promise<void> {
  const config = loadConfig();
  const log = createLogger({ service, level: config.logLevel });
  setMetricsService(service);
  await runMain(log, config.shutdownTimeoutMs, () => start(config, log));
}
export * from './service-base.js';
export * from './periodic.js';
export * from './http-metrics.js';
