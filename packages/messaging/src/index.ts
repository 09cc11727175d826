export * from './broker.js';
export * from './topology.js';
export * from './envelope.js';
export * from './rpc.js';
export * from './command-server.js';
export * from './outbox.js';
export * from './consumer.js';
export * from './apply-once.js';
export * from './queue-consumer.js';
export * from './operator-signature.js';
export * from './operator-guard.js';
export * from './trace-context.js';

import { fileURLToPath } from 'node:url';
import type { MigrationSource } from '@gateway/db';

/** The outbox and spent operator command tables every service schema carries. */
export const messagingMigrations: MigrationSource = {
  name: 'messaging',
  dir: fileURLToPath(new URL('../../migrations', import.meta.url)),
};
