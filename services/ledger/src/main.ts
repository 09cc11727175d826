/** Process entry of the ledger service. */
import { serviceMain } from '@gateway/runtime';
import { service } from './service.js';

await serviceMain(service);
