/** The operations console's pages (D15), under /ops: the root opens the merchants. */
import type { Router } from 'express';
import { MERCHANTS } from '../../views/ops/merchants.page.js';
import { send, type DoorDeps } from '../door.js';
import { securityRoutes } from '../security.routes.js';
import { opsAuditLogRoutes } from './audit-log.routes.js';
import { manualRefundRoutes } from './manual-refunds.routes.js';
import { merchantRoutes } from './merchants.routes.js';
import { opsPage } from './ops-page.js';

/** The console's routes on `router` (its sign-in routes aside). */
export function opsRoutes(deps: DoorDeps, router: Router): void {
  router.get('/', (_req, res) => send(res, { redirect: MERCHANTS }));
  merchantRoutes(deps, router);
  manualRefundRoutes(deps, router);
  opsAuditLogRoutes(deps, router);
  // The second factor, the same page as the dashboard's, in the console's frame.
  securityRoutes(deps, 'ops', router, async (viewer, section, page, status) => opsPage(deps, viewer).render(section, page, status));
}
