/** Process entry of the api-gateway service. */
import { serviceMain } from '@gateway/runtime';
import { loadGatewayConfig, startGateway } from './service.js';

await serviceMain('api-gateway', () => loadGatewayConfig(), startGateway);
