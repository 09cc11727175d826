/** Process entry of the acquirer adapter. */
import { serviceMain } from '@gateway/runtime';
import { loadAdapterConfig, startAdapter } from './service.js';

await serviceMain('acquirer-adapter', () => loadAdapterConfig(), startAdapter);
