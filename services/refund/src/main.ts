/** Process entry of the refund service. */
import { serviceMain } from '@gateway/runtime';
import { loadRefundConfig, startRefundService } from './service.js';

await serviceMain('refund', () => loadRefundConfig(), startRefundService);
