/** An owner removes a teammate (D14), who is signed out at once; the merchant always keeps one owner. */
import { withTransaction } from '@gateway/db';
import { AppError } from '@gateway/problem';
import type { AccountsDeps, Doer } from './accounts.js';
import { recordAudit } from './audit-log.js';

/** Removes the merchant's person `personId` and ends their sessions. */
export async function removePerson(deps: AccountsDeps, merchantId: string, personId: string, doer: Doer): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    await deps.people.lockTeam(tx, merchantId);
    const person = await deps.people.byId(personId, tx);
    if (!person || person.merchant_id !== merchantId) throw new AppError('not-found', 'No such team member.');
    if (person.role === 'owner' && (await deps.people.ownerCount(tx, merchantId)) <= 1) throw new AppError('conflict', 'The account must keep at least one owner.');
    await deps.people.remove(tx, personId);
    await deps.sessions.endOthers(tx, personId);
    await recordAudit(tx, doer, { action: 'user.remove', merchantId, target: personId, detail: { email: person.email } });
  });
  deps.afterCommit();
}
