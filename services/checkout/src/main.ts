/** Process entry of the checkout service. */
import { serviceMain } from '@gateway/runtime';
import { loadCheckoutConfig, startCheckout } from './service.js';

await serviceMain('checkout', () => loadCheckoutConfig(), startCheckout);
