/** The operations console's pages (D15), under /ops: the root opens the merchants. */
import type { Router } from 'express';
import { send, type DoorDeps } from '../door.js';
import { securityRoutes } from '../security.js';
import { auditLogRoutes } from './audit-log.js';
import { OPS, opsPage } from './frame.js';
import { manualRefundRoutes } from './manual-refunds.js';
import { merchantRoutes } from './merchants.js';

export function opsRoutes(deps: DoorDeps, router: Router): void {
  router.get('/', (_req, res) => send(res, { redirect: `${OPS}/merchants` }));
  merchantRoutes(deps, router);
  manualRefundRoutes(deps, router);
  auditLogRoutes(deps, router);
  // The second factor, the same page as the dashboard's, in the console's frame.
  securityRoutes(deps, 'ops', router, async (viewer, section, title, body, status) => opsPage(deps, viewer).render(section, title, body, status));
}
