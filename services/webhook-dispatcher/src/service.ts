/** Wiring of the webhook dispatcher: database, broker, operator commands, health. */
import { CommandServer } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { healthApp, listen, openServiceBase, serviceMigrations, type RunningService } from '@gateway/runtime';
import type { DispatcherConfig } from './config.js';
import { EndpointRepository } from './db/endpoint.repository.js';
import { provisionEndpoint } from './domain/provision-endpoint.js';

export { loadDispatcherConfig, type DispatcherConfig } from './config.js';

export const SCHEMA = 'webhooks';

export const migrations = serviceMigrations('webhook-dispatcher', import.meta.url);

export async function startDispatcher(config: DispatcherConfig, log: Logger): Promise<RunningService> {
  const { pool, broker, readiness, close } = openServiceBase('webhook-dispatcher', SCHEMA, config, log);
  const endpoints = new EndpointRepository(pool);
  const http = await listen(healthApp(readiness), config.port);
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
      await close();
    },
  };
}
