/** Process entry of the session service. */
import { serviceMain } from '@gateway/runtime';
import { loadSessionConfig, startSessionService } from './service.js';

await serviceMain('session', () => loadSessionConfig(), startSessionService);
