/** Process entry of the dashboard service (the merchant dashboard and the operations console). */
import { serviceMain } from '@gateway/runtime';
import { loadDashboardConfig, startDashboard } from './service.js';

await serviceMain('dashboard', () => loadDashboardConfig(), startDashboard);
