/**
 * The audit log in the operations console (D14, D15): every operator and
 * dashboard change, of all merchants or of one, paged by the entry before
 * which the next page starts.
 */
import type { Router } from 'express';
import { validationError } from '@gateway/problem';
import { opsAuditLogPage } from '../../views/ops/audit-log.page.js';
import { OPS } from '../../views/paths.js';
import type { DoorDeps } from '../door.js';
import { queryField } from '../form-fields.js';
import { signedIn } from '../signed-in.js';
import { operators, opsPage } from './ops-page.js';

const PAGE_SIZE = 50;
const MERCHANT_ID = /^mer_[0-9A-Za-z]{20,}$/;

/** The console's audit log route. */
export function opsAuditLogRoutes(deps: DoorDeps, router: Router): void {
  router.get(
    '/audit-log',
    signedIn(deps, 'ops', operators, async (req, viewer) => {
      const view = opsPage(deps, viewer);
      const merchant = queryField(req, 'merchant');
      const before = queryField(req, 'before');
      if (merchant !== '' && !MERCHANT_ID.test(merchant)) throw validationError([{ field: 'merchant', code: 'invalid', message: viewer.t('filter_by_merchant') }]);
      const log = await view.command('audit.list', {
        limit: PAGE_SIZE,
        ...(merchant !== '' && { merchant_id: merchant }),
        ...(before !== '' && { before }),
      });
      return view.render(`${OPS}/audit-log`, opsAuditLogPage(viewer, { merchant, before }, log));
    }),
  );
}
