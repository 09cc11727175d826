/** Wiring of the refund service: database, broker, commands, outbox relay, health. */
import { schemaOf } from '@gateway/contracts';
import { CommandServer, OperatorGuard, OutboxRelay, RpcClient } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { healthApp, listen, openServiceBase, serviceMigrations, type RunningService } from '@gateway/runtime';
import { refundCommands } from './messaging/refund.commands.js';
import type { RefundConfig } from './config.js';
import { RefundRepository } from './db/refund.repository.js';
import { watchOperationsQueue } from './domain/manual-refunds.js';
import { loadRefundConfig, refundSettings } from './config.js';
import type { ServiceDefinition } from '@gateway/runtime';


export const SCHEMA = schemaOf('refund');

export const migrations = serviceMigrations('refund', import.meta.url);

/** Starts the refund service; `stop` drains it. */
async function startRefundService(config: RefundConfig, log: Logger): Promise<RunningService> {
  const { pool, broker, readiness, close } = openServiceBase('refund', SCHEMA, config, log);
  const refunds = new RefundRepository(pool);
  const relay = new OutboxRelay(broker, { pool, log, gatherMs: config.outboxGatherMs });
  const rpc = new RpcClient(broker, config.rpcTimeoutMs);
  const staleSeconds = Math.ceil((config.adapterTimeoutMs * 2) / 1000);
  const unwatch = watchOperationsQueue(() => refunds.awaitingOperator(staleSeconds));
  const http = await listen(healthApp(readiness), config);
  await broker.start();
  await broker.register(relay);
  await broker.register(rpc);
  await broker.register(
    new CommandServer(broker, {
      service: 'refund',
      log,
      prefetch: { fast: config.commandPrefetch, slow: config.slowCommandPrefetch },
      operators: new OperatorGuard({ service: 'refund', publicKeys: config.operatorPublicKeys, pool, log, afterCommit: () => relay.wake() }),
      handlers: refundCommands({
        refunds,
        log,
        afterCommit: () => relay.wake(),
        staleSeconds,
        getSession: async (context, sessionId) => (await rpc.call('session.get', { context, session_id: sessionId }, { correlationId: context.request_id })).body,
        getSessionForEvent: async (context, sessionId) => (await rpc.call('session.get_for_event', { context, session_id: sessionId }, { correlationId: context.request_id })).body,
        recordAtSession: async (request, correlationId) => rpc.call('session.record_refund', request, { correlationId }),
        refundAtAcquirer: async (request, correlationId) => (await rpc.call('payment.refund', request, { correlationId, timeoutMs: config.adapterTimeoutMs })).body,
      }),
    }),
  );
  return {
    port: http.port,
    async stop() {
      unwatch();
      await http.close();
      await close();
    },
  };
}

/** The refund service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<RefundConfig> = { name: 'refund', settings: refundSettings, loadConfig: loadRefundConfig, start: startRefundService };
