/** Wiring of the webhook dispatcher: database, broker, event intake, delivery, sweeps, commands, outbox relay (the audit log's entries), health. */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { schemaOf } from '@gateway/contracts';
import type { Pool } from '@gateway/db';
import { CommandServer, EventConsumer, OperatorGuard, OutboxRelay, RpcClient } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { every, healthApp, listen, openServiceBase, serviceMigrations, type RunningService } from '@gateway/runtime';
import { encryptPlaintextColumns, SecretBox, secretsMigrations } from '@gateway/secrets';
import type { DispatcherConfig } from './config.js';
import { DeliveryHistoryRepository } from './db/delivery-history.repository.js';
import { DeliveryRepository } from './db/delivery.repository.js';
import { EndpointRepository, PLAINTEXT_ENDPOINT_SECRETS } from './db/endpoint.repository.js';
import { EventRepository } from './db/event.repository.js';
import { Dispatcher } from './delivery/dispatcher.js';
import { Sweeper } from './delivery/sweeper.js';
import { disableFailingEndpoints } from './domain/disable-failing-endpoints.js';
import { purgeOldDeliveries } from './domain/purge-old-deliveries.js';
import { WebhookHttpClient } from './delivery/webhook-http-client.js';
import { dispatcherCommands } from './messaging/webhook-dispatcher.commands.js';
import { dispatcherEvents, endpointProvisioning } from './messaging/webhook-dispatcher.events.js';
import { loadDispatcherConfig, dispatcherSettings } from './config.js';
import type { ServiceDefinition } from '@gateway/runtime';


export const SCHEMA = schemaOf('webhook-dispatcher');

export const migrations = [...serviceMigrations('webhook-dispatcher', import.meta.url), secretsMigrations];

async function startDispatcher(config: DispatcherConfig, log: Logger): Promise<RunningService> {
  const { pool, broker, readiness, close } = openServiceBase('webhook-dispatcher', SCHEMA, config, log);
  const secrets = await openSecrets(pool, config, log);
  const endpoints = new EndpointRepository(pool, secrets);
  // A new name for every process: a restarted replica holds none of the leases its previous life took.
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const deliveries = new DeliveryRepository(pool, config.leaseSeconds, owner);
  const events = new EventRepository(pool, config.leaseSeconds, owner);
  const history = new DeliveryHistoryRepository(pool);
  const client = new WebhookHttpClient({ timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivate, maxSocketsPerHost: config.endpointConcurrency });
  const dispatcher = new Dispatcher({
    deliveries,
    client,
    secrets,
    log,
    limits: { total: config.concurrency, perEndpoint: config.endpointConcurrency, backlog: config.endpointBacklog },
    retryDelaysSeconds: config.retryDelaysSeconds,
    timeoutMs: config.timeoutMs,
    // Called only once attempts run, after the sweeper below exists.
    wakeSweepAt: (at) => sweeper.wakeAt(at),
  });
  const sweeper = new Sweeper(deliveries, dispatcher, config.sweepIntervalSeconds, log);
  const rpc = new RpcClient(broker, config.rpcTimeoutMs);
  const relay = new OutboxRelay(broker, { pool, log });
  const enqueue = (jobs: Parameters<Dispatcher['enqueue']>[0]) => dispatcher.enqueue(jobs);

  const http = await listen(healthApp(readiness), config);
  await broker.start();
  await broker.register(rpc);
  await broker.register(relay);
  const endpointDeps = { endpoints, allowPrivate: config.allowPrivate, secretGraceSeconds: config.secretGraceSeconds, maxEndpoints: config.maxEndpoints };
  await broker.register(
    new EventConsumer(broker, {
      service: 'webhook-dispatcher',
      log,
      prefetch: config.eventPrefetch,
      changes: dispatcherEvents(events, enqueue, endpointProvisioning({ ...endpointDeps, log })),
    }),
  );
  await broker.register(
    new CommandServer(broker, {
      service: 'webhook-dispatcher',
      log,
      operators: new OperatorGuard({ service: 'webhook-dispatcher', publicKeys: config.operatorPublicKeys, pool, log, afterCommit: () => relay.wake() }),
      handlers: dispatcherCommands({
        ...endpointDeps,
        deliveries,
        history,
        retentionDays: config.retentionDays,
        replayBatch: config.replayBatch,
        enqueue,
        secrets,
        getSession: async (context, sessionId) => (await rpc.call('session.get', { context, session_id: sessionId }, { correlationId: context.request_id })).body,
      }),
    }),
  );
  sweeper.start();
  let stopping = false;
  // Both on the delivery sweep's interval: a disable is due at most one interval late, and retention has no hurry.
  const disableSweep = every(config.sweepIntervalSeconds, 'webhook-endpoint-disable', async () => {
    await disableFailingEndpoints({ pool, endpoints, events, enqueue, log, afterSeconds: config.endpointDisableAfterSeconds, afterCommit: () => relay.wake() });
  }, log);
  const retentionSweep = every(config.sweepIntervalSeconds, 'webhook-retention', async () => {
    const deleted = await purgeOldDeliveries({ history, retentionDays: config.retentionDays, batch: config.retentionBatch, stopping: () => stopping });
    if (deleted.deliveries + deleted.events > 0) log.info(deleted, 'webhook records past retention deleted');
  }, log);
  return {
    port: http.port,
    async stop() {
      stopping = true;
      await http.close();
      await Promise.all([disableSweep.stop(), retentionSweep.stop()]);
      await sweeper.stop();
      // Intake stops first (the broker drains its consumers); then what was taken is sent or released.
      await broker.stop();
      await dispatcher.stop();
      await client.close();
      await close();
    },
  };
}

/**
 * The dispatcher's secret box (D17), once any secret still in clear (stored
 * before D17) is encrypted: before the first webhook is signed.
 */
async function openSecrets(pool: Pool, config: DispatcherConfig, log: Logger): Promise<SecretBox> {
  const secrets = await SecretBox.open(pool, { current: config.secretsKek, previous: config.secretsKekPrevious });
  const encrypted = await encryptPlaintextColumns(pool, secrets, PLAINTEXT_ENDPOINT_SECRETS);
  if (encrypted > 0) log.info({ endpoints: encrypted }, 'webhook secrets stored in clear are now encrypted');
  return secrets;
}

/** The webhook-dispatcher service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<DispatcherConfig> = { name: 'webhook-dispatcher', settings: dispatcherSettings, loadConfig: loadDispatcherConfig, start: startDispatcher };
