/**
 * What every service opens the same way: a pool on its own schema, one broker
 * connection, readiness checks on both, and its migrations (messaging's
 * tables, then its own folder).
 */
import { fileURLToPath } from 'node:url';
import type { ServiceName } from '@gateway/contracts';
import { createPool, ping, type MigrationSource, type Pool } from '@gateway/db';
import { Broker, messagingMigrations } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import type { ReadinessCheck } from './index.js';

interface ServiceBaseConfig {
  databaseUrl: string;
  dbPoolMax: number;
  amqpUrl: string;
  brokerPrefix: string;
  brokerSharedUser: boolean;
}

interface ServiceBase {
  readonly pool: Pool;
  readonly broker: Broker;
  /** Database and broker checks, for /readyz. */
  readonly readiness: Record<string, ReadinessCheck>;
  /** Drains the broker's components, then closes the connection and the pool. */
  close(): Promise<void>;
}

export function openServiceBase(service: ServiceName, schema: string, config: ServiceBaseConfig, log: Logger): ServiceBase {
  const pool = createPool({ url: config.databaseUrl, schema, max: config.dbPoolMax, applicationName: service });
  const broker = new Broker({ url: config.amqpUrl, prefix: config.brokerPrefix, service, sharedUser: config.brokerSharedUser, log });
  return {
    pool,
    broker,
    readiness: { database: () => ping(pool), broker: async () => broker.connected },
    async close() {
      await broker.stop();
      await pool.end();
    },
  };
}

/** A service's migrations: messaging's (the outbox, the spent operator commands), then `migrations/` beside its `dist/`. */
export function serviceMigrations(service: ServiceName, moduleUrl: string): readonly MigrationSource[] {
  return [messagingMigrations, { name: service, dir: fileURLToPath(new URL('../../migrations', moduleUrl)) }];
}
