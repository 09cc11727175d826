/** Process entry of the checkout service. */
import { serviceMain } from '@gateway/runtime';
import { service } from './service.js';

await serviceMain(service);
