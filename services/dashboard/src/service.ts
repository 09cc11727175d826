/**
 * Wiring of the dashboard service: the merchant dashboard (/dashboard/, D14)
 * and the operations console (/ops/, D15). It keeps the people who sign in and
 * their sessions; every read and change of payments, keys, webhooks, rates and
 * merchants is a command to the service that owns it, the same command the API
 * or gateway-admin sends, signed for the person who asked.
 */
import { schemaOf } from '@gateway/contracts';
import { CommandServer, OperatorGuard, OperatorSigner, OutboxRelay, RpcClient, type JWK } from '@gateway/messaging';
import { ExportSlots, SLOT_STORE_OPTIONS } from '@gateway/exports';
import { describeError, type Logger } from '@gateway/observability';
import { createRedis, every, listen, openServiceBase, serviceMigrations, type RunningService } from '@gateway/runtime';
import { SecretBox, secretsMigrations } from '@gateway/secrets';
import type { DashboardConfig } from './config.js';
import { AccountLinkRepository } from './db/account-link.repository.js';
import { PersonRepository } from './db/person.repository.js';
import { WebSessionRepository } from './db/web-session.repository.js';
import type { AccountsDeps } from './domain/accounts.js';
import { createDashboardListener } from './http/app.js';
import { dashboardCommands } from './messaging/dashboard.commands.js';
import { notifierMailer } from './messaging/people-mailer.js';
import { loadDashboardConfig, dashboardSettings } from './config.js';
import type { ServiceDefinition } from '@gateway/runtime';

export const SCHEMA = schemaOf('dashboard');

export const migrations = [...serviceMigrations('dashboard', import.meta.url), secretsMigrations];

/** Starts the dashboard service: its people's repositories, its command queue, its listener and its session purge. */
async function startDashboard(config: DashboardConfig, log: Logger): Promise<RunningService> {
  const { pool, broker, readiness, close } = openServiceBase('dashboard', SCHEMA, config, log);
  const secrets = await SecretBox.open(pool, { current: config.secretsKek, previous: config.secretsKekPrevious });
  const signer = await OperatorSigner.fromJwk(config.signingKey as JWK, 'dashboard');
  const rpc = new RpcClient(broker, config.rpcTimeoutMs, signer);
  const relay = new OutboxRelay(broker, { pool, log });
  // Sign-in failures are counted in Redis, shared by every replica (D14).
  const redis = createRedis(config, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', (err: Error) => log.warn({ err: err.message }, 'redis error'));
  // The Reports downloads take the API's export slots (D29), on a connection of their own as the gateway's: given up on quickly.
  const exportSlotsRedis = createRedis(config, SLOT_STORE_OPTIONS);
  exportSlotsRedis.on('error', () => undefined);
  const exportSlots = ExportSlots.fromConfig(exportSlotsRedis, config, log);

  const accounts: AccountsDeps = {
    pool,
    people: new PersonRepository(pool),
    accountLinks: new AccountLinkRepository(pool),
    sessions: new WebSessionRepository(pool),
    secrets,
    redis,
    publicBaseUrl: config.publicBaseUrl,
    setupLinkTtlSeconds: config.setupLinkTtlSeconds,
    passwordResetTtlSeconds: config.passwordResetTtlSeconds,
    passwordResetLimit: config.passwordResetLimit,
    passwordResetWindowSeconds: config.passwordResetWindowSeconds,
    passwordResetIntervalSeconds: config.passwordResetIntervalSeconds,
    // D20: the notifier writes and sends the people's mails.
    mailer: notifierMailer(rpc, log),
    passwordHashCost: config.passwordHashCost,
    loginFailureLimit: config.loginFailureLimit,
    loginAccountFailureLimit: config.loginAccountFailureLimit,
    loginAccountFailureWindowSeconds: config.loginAccountFailureWindowSeconds,
    loginFailureWindowSeconds: config.loginFailureWindowSeconds,
    secondFactorAccountLimit: config.secondFactorAccountLimit,
    secondFactorLockoutSeconds: config.secondFactorLockoutSeconds,
    rateLimitKeyPrefix: config.rateLimitKeyPrefix,
    afterCommit: () => relay.wake(),
  };

  await redis.connect();
  await exportSlotsRedis.connect().catch((err: unknown) => log.warn({ err: describeError(err) }, 'redis not reachable yet (export slots)'));
  await broker.start();
  await broker.register(rpc);
  await broker.register(relay);
  const operators = new OperatorGuard({ service: 'dashboard', publicKeys: config.operatorPublicKeys, pool, log, afterCommit: () => relay.wake() });
  await broker.register(new CommandServer(broker, { service: 'dashboard', handlers: dashboardCommands({ accounts, secrets, rpc }), log, operators }));

  const app = createDashboardListener({
    config,
    accounts,
    rpc,
    log,
    readiness: { ...readiness, redis: async () => (await redis.ping().catch(() => '')) === 'PONG' },
    exportSlots,
  });
  const http = await listen(app, config);
  const purge = every(config.sessionIdleSeconds > 3600 ? 3600 : config.sessionIdleSeconds, 'web-session-purge', async () => void (await accounts.sessions.purgeExpired()), log);
  return {
    port: http.port,
    async stop() {
      await http.close();
      await purge.stop();
      await close();
      redis.disconnect();
      await exportSlotsRedis.quit().catch(() => exportSlotsRedis.disconnect());
    },
  };
}

/** The dashboard service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<DashboardConfig> = { name: 'dashboard', settings: dashboardSettings, loadConfig: loadDashboardConfig, start: startDashboard };
