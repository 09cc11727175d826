/** Process entry of the epg-sandbox service. */
import { serviceMain } from '@gateway/runtime';
import { loadSandboxConfig, startSandbox } from './service.js';

await serviceMain('epg-sandbox', () => loadSandboxConfig(), startSandbox);
