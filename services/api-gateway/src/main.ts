/** Process entry of the api-gateway service. */
import { serviceMain } from '@gateway/runtime';
import { service } from './service.js';

await serviceMain(service);
