/** Applies the ledger schema's migrations (the Kubernetes migration job runs this). */
import { migrateFromEnv } from '@gateway/db';
import { migrations, SCHEMA } from './service.js';

await migrateFromEnv('ledger', SCHEMA, migrations);
