/** Applies the checkout schema's migrations (the Kubernetes migration job runs this). */
import { migrateFromEnv } from '@gateway/db';
import { migrations, SCHEMA } from './service.js';

await migrateFromEnv('checkout', SCHEMA, migrations);
