/** Process entry of the dashboard service (the merchant dashboard and the operations console). */
import { serviceMain } from '@gateway/runtime';
import { service } from './service.js';

await serviceMain(service);
