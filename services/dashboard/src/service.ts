/**
 * Wiring of the dashboard service: the merchant dashboard (/dashboard/, D14)
 * and the operations console (/ops/, D15). It keeps the people who sign in and
 * their sessions; every read and change of payments, keys, webhooks, rates and
 * merchants is a command to the service that owns it, the same command the API
 * or gateway-admin sends, signed for the person who asked.
 */
import { OperatorSigner, OutboxRelay, RpcClient, type JWK } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { listen, openServiceBase, serviceMigrations, type RunningService } from '@gateway/runtime';
import { SecretBox, secretsMigrations } from '@gateway/secrets';
import type { DashboardConfig } from './config.js';
import { createDashboardListener } from './web/app.js';

export { loadDashboardConfig, type DashboardConfig } from './config.js';

export const SCHEMA = 'dashboard';

export const migrations = [...serviceMigrations('dashboard', import.meta.url), secretsMigrations];

export async function startDashboard(config: DashboardConfig, log: Logger): Promise<RunningService> {
  const { pool, broker, readiness, close } = openServiceBase('dashboard', SCHEMA, config, log);
  const secrets = await SecretBox.open(pool, { current: config.secretsKek, previous: config.secretsKekPrevious });
  const signer = await OperatorSigner.fromJwk(config.signingKey as JWK, 'dashboard');
  const rpc = new RpcClient(broker, config.rpcTimeoutMs, signer);
  const relay = new OutboxRelay(broker, { pool, log });

  await broker.start();
  await broker.register(rpc);
  await broker.register(relay);

  const app = createDashboardListener({ config, pool, rpc, secrets, log, readiness, afterCommit: () => relay.wake() });
  const http = await listen(app, config.port);
  return {
    port: http.port,
    async stop() {
      await http.close();
      await close();
    },
  };
}
