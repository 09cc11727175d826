/** Wiring of the ledger service: database, broker, the money events it records, its command queue, health. */
import { schemaOf } from '@gateway/contracts';
import { unlessNotFound } from '@gateway/problem';
import { CommandServer, EventConsumer, RpcClient } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { healthApp, listen, openServiceBase, serviceMigrations, type RunningService, type ServiceDefinition } from '@gateway/runtime';
import { LedgerRepository } from './db/ledger.repository.js';
import { ledgerCommands } from './messaging/ledger.commands.js';
import { ledgerEvents } from './messaging/ledger.events.js';
import { ledgerSettings, loadLedgerConfig, type LedgerConfig } from './config.js';


export const SCHEMA = schemaOf('ledger');

export const migrations = serviceMigrations('ledger', import.meta.url);

/** Starts the ledger; `stop` drains it. */
async function startLedgerService(config: LedgerConfig, log: Logger): Promise<RunningService> {
  const { pool, broker, readiness, close } = openServiceBase('ledger', SCHEMA, config, log);
  const ledger = new LedgerRepository(pool);
  const rpc = new RpcClient(broker, config.rpcTimeoutMs);
  const http = await listen(healthApp(readiness), config);
  await broker.start();
  await broker.register(rpc);
  await broker.register(new EventConsumer(broker, { service: 'ledger', log, prefetch: config.eventPrefetch, changes: ledgerEvents(ledger, config.settlementDelayDays) }));
  await broker.register(
    new CommandServer(broker, {
      service: 'ledger',
      log,
      prefetch: { fast: config.commandPrefetch },
      handlers: ledgerCommands({
        ledger,
        clock: () => new Date(),
        ownsSession: async (context, sessionId) =>
          (await unlessNotFound(rpc.call('session.get', { context, session_id: sessionId }, { correlationId: context.request_id }))) !== undefined,
      }),
    }),
  );
  return {
    port: http.port,
    async stop() {
      await http.close();
      await close();
    },
  };
}

/** The ledger service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<LedgerConfig> = { name: 'ledger', settings: ledgerSettings, loadConfig: loadLedgerConfig, start: startLedgerService };
