/** Process entry of the webhook-dispatcher service. */
import { serviceMain } from '@gateway/runtime';
import { loadDispatcherConfig, startDispatcher } from './service.js';

await serviceMain('webhook-dispatcher', () => loadDispatcherConfig(), startDispatcher);
