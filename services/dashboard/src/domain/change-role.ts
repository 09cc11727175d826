/** An owner changes a teammate's role (D14); the merchant always keeps one owner. */
import type { DashboardRole } from '@gateway/contracts';
import { withTransaction } from '@gateway/db';
import { AppError } from '@gateway/problem';
import type { AccountsDeps, Doer } from './accounts.js';
import { recordAudit } from './audit-log.js';

/** Gives `role` to the merchant's person `personId`; refused when it would leave the merchant without an owner. */
export async function changeRole(deps: AccountsDeps, merchantId: string, personId: string, role: DashboardRole, doer: Doer): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    await deps.people.lockTeam(tx, merchantId);
    const person = await deps.people.byId(personId, tx);
    if (!person || person.merchant_id !== merchantId) throw new AppError('not-found', 'No such team member.');
    if (person.role === 'owner' && role !== 'owner' && (await deps.people.ownerCount(tx, merchantId)) <= 1) {
      throw new AppError('conflict', 'The account must keep at least one owner.');
    }
    await deps.people.setRole(tx, personId, role);
    // A changed role takes effect at the next request: the session reads the role each time.
    await recordAudit(tx, doer, { action: 'user.change_role', merchantId, target: personId, detail: { role } });
  });
  deps.afterCommit();
}
