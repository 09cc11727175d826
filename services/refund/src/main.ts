/** Process entry of the refund service. */
import { serviceMain } from '@gateway/runtime';
import { service } from './service.js';

await serviceMain(service);
