/** Wiring of the webhook dispatcher: database, broker, operator commands, health. */
import { fileURLToPath } from 'node:url';
import { createPool, ping, type MigrationSource } from '@gateway/db';
import { Broker, CommandServer, messagingMigrations } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { healthApp, listen, type RunningService } from '@gateway/runtime';
import type { DispatcherConfig } from './config.js';
import { EndpointRepository } from './db/endpoint.repository.js';
import { provisionEndpoint } from './domain/provision-endpoint.js';

export { loadDispatcherConfig, type DispatcherConfig } from './config.js';

export const SCHEMA = 'webhooks';

export const migrations: readonly MigrationSource[] = [
  messagingMigrations,
  { name: 'webhook-dispatcher', dir: fileURLToPath(new URL('../../migrations', import.meta.url)) },
];

export async function startDispatcher(config: DispatcherConfig, log: Logger): Promise<RunningService> {
  const pool = createPool({ url: config.databaseUrl, schema: SCHEMA, max: config.dbPoolMax, applicationName: 'webhook-dispatcher' });
  const broker = new Broker({ url: config.amqpUrl, prefix: config.brokerPrefix, service: 'webhook-dispatcher', log });
  const endpoints = new EndpointRepository(pool);
  const http = await listen(healthApp({ database: () => ping(pool), broker: async () => broker.connected }), config.port);
  await broker.start();
  await broker.register(
    new CommandServer(broker, {
      service: 'webhook-dispatcher',
      log,
      handlers: { 'webhook_endpoint.provision': async (command) => ({ body: await provisionEndpoint(endpoints, command) }) },
    }),
  );
  return {
    port: http.port,
    async stop() {
      await http.close();
      await broker.stop();
      await pool.end();
    },
  };
}
