/** The dashboard service's HTTP listener: /dashboard/ for merchants, /ops/ for operators, health and metrics. */
import express from 'express';
import type { RpcClient } from '@gateway/messaging';
import type { Pool } from '@gateway/db';
import type { Logger } from '@gateway/observability';
import { addHealthRoutes, type ReadinessCheck, type RequestListener } from '@gateway/runtime';
import type { SecretBox } from '@gateway/secrets';
import type { DashboardConfig } from '../config.js';

export interface WebDependencies {
  config: DashboardConfig;
  pool: Pool;
  rpc: RpcClient;
  secrets: SecretBox;
  log: Logger;
  readiness: Record<string, ReadinessCheck>;
  /** Wakes the outbox relay once an audit entry is committed. */
  afterCommit: () => void;
}

export function createDashboardListener(deps: WebDependencies): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', deps.config.trustProxy);
  addHealthRoutes(app, deps.readiness, deps.log);
  return app;
}
