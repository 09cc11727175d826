/** Process entry of the acquirer adapter. */
import { serviceMain } from '@gateway/runtime';
import { service } from './service.js';

await serviceMain(service);
