/** Wiring of the session service: database, broker, command queue, outbox relay, health. */
import { schemaOf } from '@gateway/contracts';
import { CommandServer, EventConsumer, OperatorGuard, OutboxRelay, RpcClient } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { every, healthApp, listen, openServiceBase, serviceMigrations, type RunningService } from '@gateway/runtime';
import type { SessionConfig } from './config.js';
import { AttemptRepository } from './db/attempt.repository.js';
import { CheckoutLinkRepository } from './db/checkout-link.repository.js';
import { ExchangeRateRepository } from './db/exchange-rate.repository.js';
import { HoldRepository } from './db/hold.repository.js';
import { MerchantStandingRepository } from './db/merchant-standing.repository.js';
import { MerchantWalletRepository } from './db/merchant-wallet.repository.js';
import { RefundRecordRepository } from './db/refund-record.repository.js';
import { SessionStatsRepository } from './db/session-stats.repository.js';
import { CustomerRepository } from './db/customer.repository.js';
import { SessionRepository } from './db/session.repository.js';
import { checkStuckAttempts } from './domain/check-stuck-attempts.js';
import { checkStuckCaptures } from './domain/check-stuck-captures.js';
import { CheckoutLinkSigner } from './domain/checkout-links.js';
import type { SessionDeps } from './domain/deps.js';
import { sweepExpiry } from './domain/expire-sessions.js';
import { countSessionOutcome } from './domain/session-metrics.js';
import { sessionCommands } from './messaging/session.commands.js';
import { sessionChanges, sessionEvents } from './messaging/session.events.js';
import { StepsUnderway } from './domain/steps-underway.js';
import { loadSessionConfig, sessionSettings } from './config.js';
import type { ServiceDefinition } from '@gateway/runtime';

export { loadSessionConfig, type SessionConfig } from './config.js';

export const SCHEMA = schemaOf('session');

export const migrations = serviceMigrations('session', import.meta.url);

export interface SessionService extends RunningService {
  readonly relay: OutboxRelay;
}

export interface SessionOverrides {
  clock?: () => Date;
}

/** Starts the session service; `stop` drains it. */
export async function startSessionService(config: SessionConfig, log: Logger, overrides: SessionOverrides = {}): Promise<SessionService> {
  const { pool, broker, readiness, close } = openServiceBase('session', SCHEMA, config, log);
  const repositories = {
    sessions: new SessionRepository(pool),
    attempts: new AttemptRepository(pool),
    checkoutLinks: new CheckoutLinkRepository(pool),
    holds: new HoldRepository(pool),
    refundRecords: new RefundRecordRepository(pool),
    rates: new ExchangeRateRepository(pool),
    stats: new SessionStatsRepository(pool),
    customers: new CustomerRepository(pool),
  };
  // Each change applies once, whichever path brings it first: a payment step's answer, a refund's record, or the event.
  const underway = new StepsUnderway();
  const changes = sessionChanges({ ...repositories, standings: new MerchantStandingRepository(pool), wallets: new MerchantWalletRepository(pool), log, authorizationTtlSeconds: config.authorizationTtlSeconds, underway });
  const relay = new OutboxRelay(broker, { pool, log, gatherMs: config.outboxGatherMs, onPublished: countSessionOutcome });
  const rpc = new RpcClient(broker, config.rpcTimeoutMs);
  const deps: SessionDeps = {
    ...repositories,
    underway,
    signer: await CheckoutLinkSigner.fromJwk(config.checkoutLinkSigningKey),
    clock: overrides.clock ?? (() => new Date()),
    publicBaseUrl: config.publicBaseUrl,
    sessionTtlSeconds: config.sessionTtlSeconds,
    checkoutLinkTtlSeconds: config.checkoutLinkTtlSeconds,
    allowPrivateWebhooks: config.allowPrivateWebhooks,
    afterCommit: () => relay.wake(),
    terminalStatus: async (merchantId: string) => (await rpc.call('terminal.check', { merchant_id: merchantId })).body.status,
    adapter: rpc,
    adapterTimeoutMs: config.adapterTimeoutMs,
    log,
    outcomes: changes.outcomes,
    captures: changes.captures,
    captureTimeoutMs: config.captureTimeoutMs,
    captureCheckAfterSeconds: config.attemptCheckAfterSeconds,
  };
  const http = await listen(healthApp(readiness), config);
  await broker.start();
  await broker.register(relay);
  await broker.register(rpc);
  await broker.register(new EventConsumer(broker, { service: 'session', log, changes: sessionEvents(changes), afterCommit: () => relay.wake() }));
  const operators = new OperatorGuard({ service: 'session', publicKeys: config.operatorPublicKeys, pool, log, afterCommit: () => relay.wake() });
  await broker.register(new CommandServer(broker, { service: 'session', handlers: sessionCommands(deps, changes.refunds), log, prefetch: { fast: config.commandPrefetch, slow: config.slowCommandPrefetch }, operators }));
  const expiry = every(config.sweepIntervalSeconds, 'session-expiry', async () => void (await sweepExpiry(deps)), log);
  const stuck = every(
    config.sweepIntervalSeconds,
    'stuck-attempts',
    async () => {
      await checkStuckAttempts(deps, { afterSeconds: config.attemptCheckAfterSeconds, maxDelaySeconds: config.attemptCheckMaxDelaySeconds });
      await checkStuckCaptures(deps, config.attemptCheckMaxDelaySeconds);
    },
    log,
  );
  return {
    port: http.port,
    relay,
    async stop() {
      await http.close();
      await expiry.stop();
      await stuck.stop();
      await close();
    },
  };
}

/** The session service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<SessionConfig> = { name: 'session', settings: sessionSettings, loadConfig: loadSessionConfig, start: startSessionService };
