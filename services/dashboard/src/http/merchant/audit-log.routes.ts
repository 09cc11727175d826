/** The merchant's audit log (D14), for owners: their team's changes and the API's changes made from the dashboard, newest first, paged. */
import type { Router } from 'express';
import { merchantAuditLogPage } from '../../views/merchant/audit-log.page.js';
import { BASE } from '../../views/paths.js';
import type { DoorDeps } from '../door.js';
import { merchantView } from './merchant-page.js';

/** The merchant's audit log route. */
export function auditLogRoutes(deps: DoorDeps, router: Router): void {
  router.get(
    '/audit-log',
    merchantView(deps, 'audit', async (view, req) => {
      const before = typeof req.query['before'] === 'string' ? req.query['before'] : undefined;
      const log = await view.call.command('audit.list', { merchant_id: view.merchant.merchant_id, limit: 50, ...(before && { before }) });
      return view.render(`${BASE}/audit-log`, merchantAuditLogPage(view.viewer, log));
    }),
  );
}
