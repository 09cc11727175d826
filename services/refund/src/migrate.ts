/** Applies the refund schema's migrations (the Kubernetes migration job runs this). */
import { migrateFromEnv } from '@gateway/db';
import { migrations, SCHEMA } from './service.js';

await migrateFromEnv('refund', SCHEMA, migrations);
