/** Process entry of the epg-sandbox service. */
import { serviceMain } from '@gateway/runtime';
import { service } from './service.js';

await serviceMain(service);
