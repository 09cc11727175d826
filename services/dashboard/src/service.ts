/**
 * Wiring of the dashboard service: the merchant dashboard (/dashboard/, D14)
 * and the operations console (/ops/, D15). It keeps the people who sign in and
 * their sessions; every read and change of payments, keys, webhooks, rates and
 * merchants is a command to the service that owns it, the same command the API
 * or gateway-admin sends, signed for the person who asked.
 */
import { schemaOf } from '@gateway/contracts';
import { CommandServer, OperatorGuard, OperatorSigner, OutboxRelay, RpcClient, type CommandHandlers, type JWK } from '@gateway/messaging';
import { describeError, type Logger } from '@gateway/observability';
import { createRedis, every, listen, openServiceBase, serviceMigrations, type RunningService } from '@gateway/runtime';
import { SecretBox, secretsMigrations } from '@gateway/secrets';
import type { DashboardConfig } from './config.js';
import { createPerson, type AccountsDeps } from './identity/accounts.js';
import { PeopleRepository } from './identity/people.repository.js';
import { createDashboardListener } from './web/app.js';
import { loadDashboardConfig, dashboardSettings } from './config.js';
import type { ServiceDefinition } from '@gateway/runtime';

export { loadDashboardConfig, type DashboardConfig } from './config.js';

export const SCHEMA = schemaOf('dashboard');

export const migrations = [...serviceMigrations('dashboard', import.meta.url), secretsMigrations];

export async function startDashboard(config: DashboardConfig, log: Logger): Promise<RunningService> {
  const { pool, broker, readiness, close } = openServiceBase('dashboard', SCHEMA, config, log);
  const secrets = await SecretBox.open(pool, { current: config.secretsKek, previous: config.secretsKekPrevious });
  const signer = await OperatorSigner.fromJwk(config.signingKey as JWK, 'dashboard');
  const rpc = new RpcClient(broker, config.rpcTimeoutMs, signer);
  const relay = new OutboxRelay(broker, { pool, log });
  // Sign-in failures are counted in Redis, shared by every replica (D14).
  const redis = createRedis(config, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', (err: Error) => log.warn({ err: err.message }, 'redis error'));

  const accounts: AccountsDeps = {
    pool,
    people: new PeopleRepository(pool),
    secrets,
    redis,
    publicBaseUrl: config.publicBaseUrl,
    setupLinkTtlSeconds: config.setupLinkTtlSeconds,
    passwordResetTtlSeconds: config.passwordResetTtlSeconds,
    passwordResetLimit: config.passwordResetLimit,
    passwordResetWindowSeconds: config.passwordResetWindowSeconds,
    passwordResetIntervalSeconds: config.passwordResetIntervalSeconds,
    // D20: the notifier writes and sends the people's mails; a mail it could not take is logged, and the page says so where it may.
    mailer: {
      async send(type, request) {
        try {
          await rpc.call(type, request);
          return true;
        } catch (err) {
          log.warn({ err: describeError(err), type }, 'mail not handed to the notifier');
          return false;
        }
      },
    },
    passwordHashCost: config.passwordHashCost,
    loginFailureLimit: config.loginFailureLimit,
    loginFailureWindowSeconds: config.loginFailureWindowSeconds,
    secondFactorAccountLimit: config.secondFactorAccountLimit,
    secondFactorLockoutSeconds: config.secondFactorLockoutSeconds,
    rateLimitKeyPrefix: config.rateLimitKeyPrefix,
    afterCommit: () => relay.wake(),
  };
  // gateway-admin's `user create` and `operator create`: the same use case as the Team page's invite.
  const handlers: CommandHandlers = {
    'user.create': async (command, meta) => {
      // The merchant must exist: the api-gateway keeps merchants. Asked for the operator who ran the command: the dashboard's key signs only for someone.
      const operator = meta.operator?.actor ?? { type: 'operator' as const, id: meta.operator?.id ?? '', email: '', address: '' };
      await rpc.call('merchant.get', { merchant_id: command.merchant_id }, { actor: operator });
      const { id, setupUrl } = await createPerson(accounts, { door: 'dashboard', merchantId: command.merchant_id, role: command.role, email: command.email, ...(command.password !== undefined && { password: command.password }) });
      return { body: { user_id: id, setup_url: setupUrl } };
    },
    'dashboard.secrets.rewrap': async () => ({ body: await secrets.rewrap() }),
    // D20: whom the notifier mails a merchant's notices.
    'team.owners': async (command) => ({
      body: { data: (await accounts.people.owners(command.merchant_id)).map((p) => ({ person_id: p.id, email: p.email, ...(p.language !== null && { language: p.language }) })) },
    }),
    'operator.create': async (command) => {
      const { id, setupUrl } = await createPerson(accounts, { door: 'ops', email: command.email, ...(command.password !== undefined && { password: command.password }) });
      return { body: { operator_id: id, setup_url: setupUrl } };
    },
  };

  await redis.connect();
  await broker.start();
  await broker.register(rpc);
  await broker.register(relay);
  const operators = new OperatorGuard({ service: 'dashboard', publicKeys: config.operatorPublicKeys, pool, log, afterCommit: () => relay.wake() });
  await broker.register(new CommandServer(broker, { service: 'dashboard', handlers, log, operators }));

  const app = createDashboardListener({
    config,
    accounts,
    rpc,
    log,
    readiness: { ...readiness, redis: async () => (await redis.ping().catch(() => '')) === 'PONG' },
  });
  const http = await listen(app, config.port);
  const purge = every(config.sessionIdleSeconds > 3600 ? 3600 : config.sessionIdleSeconds, 'web-session-purge', async () => void (await accounts.people.purgeExpiredSessions()), log);
  return {
    port: http.port,
    async stop() {
      await http.close();
      await purge.stop();
      await close();
      redis.disconnect();
    },
  };
}

/** The dashboard service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<DashboardConfig> = { name: 'dashboard', settings: dashboardSettings, loadConfig: loadDashboardConfig, start: startDashboard };
