/** Applies the dashboard schema's migrations (the Kubernetes migration job runs this). */
import { migrateFromEnv } from '@gateway/db';
import { migrations, SCHEMA } from './service.js';

await migrateFromEnv('dashboard', SCHEMA, migrations);
