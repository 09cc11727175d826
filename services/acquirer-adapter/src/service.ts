/** Wiring of the acquirer adapter: database, broker, command queue, outbox relay, reconciliation sweep, health. */
import { schemaOf } from '@gateway/contracts';
import { CardOpener } from '@gateway/card-sealing';
import type { Pool } from '@gateway/db';
import { CommandServer, EventConsumer, OperatorGuard, OutboxRelay } from '@gateway/messaging';
import { parsePricing } from '@gateway/money';
import type { Logger } from '@gateway/observability';
import { every, healthApp, listen, openServiceBase, serviceMigrations, type RunningService } from '@gateway/runtime';
import { encryptPlaintextColumns, SecretBox, secretsMigrations } from '@gateway/secrets';
import { ClicToPayClient } from './acquirer/clictopay/clictopay.client.js';
import { FlouciClient } from './acquirer/flouci/flouci.client.js';
import type { AdapterConfig } from './config.js';
import { BindingRepository } from './db/binding.repository.js';
import { OrderHoldRepository } from './db/order-hold.repository.js';
import { OrderThreeDSRepository } from './db/order-three-ds.repository.js';
import { OrderRepository } from './db/order.repository.js';
import { RefundOperationRepository } from './db/refund-operation.repository.js';
import { PLAINTEXT_TERMINAL_PASSWORDS, TerminalRepository } from './db/terminal.repository.js';
import { WalletAccountRepository } from './db/wallet-account.repository.js';
import type { AdapterDeps } from './domain/deps.js';
import { giveBackDue } from './domain/give-back.js';
import { reconcileDueHolds } from './domain/reconcile-holds.js';
import { unbindDueCards } from './domain/unbind-card.js';
import { reconcileDueOrders } from './domain/reconcile-orders.js';
import { RECONCILE_BATCH, type ReconcilePolicy } from './domain/reconciliation.js';
import { watchReconciliationBacklog } from './domain/reconciliation-metrics.js';
import { adapterCommands } from './messaging/acquirer-adapter.commands.js';
import { adapterEvents } from './messaging/acquirer-adapter.events.js';
import { loadAdapterConfig, adapterSettings } from './config.js';
import type { ServiceDefinition } from '@gateway/runtime';


export const SCHEMA = schemaOf('acquirer-adapter');

export const migrations = [...serviceMigrations('acquirer-adapter', import.meta.url), secretsMigrations];

/**
 * Connections to the acquirer, per origin: one for each slow command a
 * replica runs at once (a payment or a refund makes its calls one after
 * another) and one for each order a reconciliation round asks about. With
 * fewer, a call would wait inside the client for a connection while its
 * deadline runs: behind a few hundred slow payments, a fresh payment's
 * register.do would time out unsent (declined "processor unavailable"), and
 * the slow lane's queue would show nothing ready for the autoscaler to see.
 */
export function acquirerConnections(config: Pick<AdapterConfig, 'slowCommandPrefetch'>): number {
  return config.slowCommandPrefetch + RECONCILE_BATCH;
}

/** Starts the acquirer adapter; `stop` drains it. */
async function startAdapter(config: AdapterConfig, log: Logger): Promise<RunningService> {
  const defaultPricing = parsePricing(config.defaultFeePercent, config.defaultFeeFixed);
  if (!defaultPricing) throw new Error('DEFAULT_FEE_PERCENT or DEFAULT_FEE_FIXED is not a valid pricing');
  const { pool, broker, readiness, close } = openServiceBase('acquirer-adapter', SCHEMA, config, log);
  const secrets = await openSecrets(pool, config, log);
  const relay = new OutboxRelay(broker, { pool, log, gatherMs: config.outboxGatherMs });
  const acquirer = new ClicToPayClient(config.acquirerTimeoutMs, acquirerConnections(config));
  const flouci = new FlouciClient(config.acquirerTimeoutMs, acquirerConnections(config));
  const deps: AdapterDeps = {
    orders: new OrderRepository(pool, config.reconcileAfterSeconds),
    holds: new OrderHoldRepository(pool, config.reconcileAfterSeconds),
    threeDS: new OrderThreeDSRepository(pool, config.reconcileAfterSeconds),
    terminals: new TerminalRepository(pool, secrets),
    refunds: new RefundOperationRepository(pool),
    bindings: new BindingRepository(pool, secrets),
    walletAccounts: new WalletAccountRepository(pool, secrets),
    acquirer,
    cards: CardOpener.fromJwk(config.cardDecryptionKey),
    flouci,
    sandbox: { baseUrl: config.sandboxUrl, userName: config.sandboxUser, password: config.sandboxPassword },
    liveUrl: config.liveUrl,
    wallet: {
      sandbox: { baseUrl: config.flouciTestUrl, userName: config.flouciTestPublicKey, password: config.flouciTestPrivateKey },
      liveUrl: config.flouciLiveUrl,
      timeoutSeconds: config.walletTimeoutSeconds,
    },
    defaultPricing,
    // A call's deadline plus 5 s for the database, as for reconciliation's lease.
    refundInFlightMs: config.acquirerTimeoutMs + 5_000,
    clock: () => new Date(),
    log,
    afterCommit: () => relay.wake(),
  };
  const unwatch = watchReconciliationBacklog(deps.orders);
  const http = await listen(healthApp(readiness), config);
  await broker.start();
  await broker.register(relay);
  // Releases of holds (D22) are rare, so a small prefetch: with the default 32, refunds through this adapter measured
  // slower on a shared host (p50 about 220 ms instead of 40-70 ms at 50/s), with 8 or 1 as with no consumer; not
  // explained, and noisy (BENCHMARKS.md).
  await broker.register(new EventConsumer(broker, { service: 'acquirer-adapter', log, changes: adapterEvents(deps), afterCommit: () => relay.wake(), prefetch: 8 }));
  const operators = new OperatorGuard({ service: 'acquirer-adapter', publicKeys: config.operatorPublicKeys, pool, log, afterCommit: () => relay.wake() });
  await broker.register(new CommandServer(broker, { service: 'acquirer-adapter', handlers: adapterCommands(deps, secrets), log, prefetch: { fast: config.commandPrefetch, slow: config.slowCommandPrefetch }, operators }));
  const policy = reconcilePolicy(config);
  let stopping = false;
  const reconciliation = every(
    config.sweepIntervalSeconds,
    'reconcile-orders',
    async () => {
      await reconcileDueOrders(deps, policy, () => stopping);
      await reconcileDueHolds(deps, policy, () => stopping);
      await giveBackDue(deps, policy, () => stopping);
      await unbindDueCards(deps);
    },
    log,
  );
  return {
    port: http.port,
    async stop() {
      stopping = true;
      unwatch();
      await http.close();
      await reconciliation.stop();
      await close();
      await acquirer.close();
      await flouci.close();
    },
  };
}

/**
 * The adapter's secret box (D17), once any terminal password still in clear
 * (stored before D17) is encrypted: before the first call to the acquirer.
 */
async function openSecrets(pool: Pool, config: AdapterConfig, log: Logger): Promise<SecretBox> {
  const secrets = await SecretBox.open(pool, { current: config.secretsKek, previous: config.secretsKekPrevious });
  const encrypted = await encryptPlaintextColumns(pool, secrets, PLAINTEXT_TERMINAL_PASSWORDS);
  if (encrypted > 0) log.info({ terminals: encrypted }, 'terminal passwords stored in clear are now encrypted');
  return secrets;
}

/**
 * Backoff starts at the sweep interval (a shorter wait would only be kept by
 * the next sweep anyway). A claimed order is left to its replica for twice an
 * acquirer call's deadline plus 5 s for the database: longer than one check
 * (one call, two short writes) takes.
 */
function reconcilePolicy(config: AdapterConfig): ReconcilePolicy {
  return {
    reconcileAfterSeconds: config.reconcileAfterSeconds,
    challengeTimeoutSeconds: config.challengeTimeoutSeconds,
    baseDelaySeconds: config.sweepIntervalSeconds,
    maxDelaySeconds: config.reconcileMaxDelaySeconds,
    leaseSeconds: Math.ceil((2 * config.acquirerTimeoutMs) / 1000) + 5,
  };
}

/** The acquirer-adapter service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<AdapterConfig> = { name: 'acquirer-adapter', settings: adapterSettings, loadConfig: loadAdapterConfig, start: startAdapter };
