/** Team (D14, D20): for owners, the merchant's people; invite (by mail), resend an invitation, change a role, remove. */
import type { Router } from 'express';
import { DashboardRole } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { changeRole } from '../../domain/change-role.js';
import { invitePerson } from '../../domain/invite-person.js';
import { removePerson } from '../../domain/remove-person.js';
import { resendInvitation } from '../../domain/resend-invitation.js';
import { notice } from '../../views/layout.js';
import { teamPage } from '../../views/merchant/team.page.js';
import { BASE } from '../../views/paths.js';
import type { DoorDeps, Viewer } from '../door.js';
import { fieldOf } from '../form-fields.js';
import { merchantChange, merchantView, type SectionView } from './merchant-page.js';

const TEAM = `${BASE}/team`;
const ROLES = DashboardRole.anyOf.map((literal) => literal.const);

/** The role a form chose; refused unless it is one. */
function roleOf(body: unknown, viewer: Viewer): DashboardRole {
  const role = fieldOf(body, 'role');
  if (!(ROLES as readonly string[]).includes(role)) throw new AppError('validation-error', viewer.t('role_must_be', { roles: ROLES.join(', ') }));
  return role as DashboardRole;
}

/** The Team routes: the list and each change to the team. */
export function teamRoutes(deps: DoorDeps, router: Router): void {
  const show: SectionView = async (view, _req, message, status) => {
    const team = await deps.accounts.people.team(view.merchant.merchant_id);
    return view.render(TEAM, teamPage(view.viewer, team, view.viewer.person.id, message), status);
  };
  router.get('/team', merchantView(deps, 'team', show));
  router.post(
    '/team',
    ...merchantChange(deps, 'team', show, async (req, view) => {
      const { viewer } = view;
      const role = roleOf(req.body, viewer);
      // D20: the setup link goes by mail to the person alone; the inviter never sees it.
      const invited = await invitePerson(
        deps.accounts,
        { merchantId: view.merchant.merchant_id, merchantName: view.merchant.name, role, email: fieldOf(req.body, 'email'), language: viewer.language },
        viewer.doer,
      );
      return invited.mailed
        ? notice('ok', viewer.t('invitation_mailed', { email: invited.email }))
        : notice('warn', viewer.t('invitation_not_mailed', { email: invited.email }));
    }),
  );
  router.post(
    '/team/:id/resend',
    ...merchantChange(deps, 'team', show, async (req, view) => {
      const { viewer } = view;
      const sent = await resendInvitation(deps.accounts, { merchantId: view.merchant.merchant_id, merchantName: view.merchant.name, personId: String(req.params['id']), language: viewer.language }, viewer.doer);
      return sent.mailed
        ? notice('ok', viewer.t('invitation_resent', { email: sent.email }))
        : notice('warn', viewer.t('invitation_not_resent', { email: sent.email }));
    }),
  );
  router.post(
    '/team/:id/role',
    ...merchantChange(deps, 'team', show, async (req, view) => {
      const { viewer } = view;
      await changeRole(deps.accounts, view.merchant.merchant_id, String(req.params['id']), roleOf(req.body, viewer), viewer.doer);
      return notice('ok', viewer.t('role_changed'));
    }),
  );
  router.post(
    '/team/:id/remove',
    ...merchantChange(deps, 'team', show, async (req, view) => {
      const { viewer } = view;
      await removePerson(deps.accounts, view.merchant.merchant_id, String(req.params['id']), viewer.doer);
      return notice('ok', viewer.t('person_removed'));
    }),
  );
}
