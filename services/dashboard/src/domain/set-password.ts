/**
 * Setting a password with an account link (D14, D20): an invitation's setup
 * link or a "Forgot password?" reset link, at the door it was made for, once.
 */
import { withTransaction } from '@gateway/db';
import { AppError, validationError } from '@gateway/problem';
import type { AccountLink } from '../db/account-link.repository.js';
import type { Door, PersonRow } from '../db/person.repository.js';
import type { AccountsDeps, Doer } from './accounts.js';
import { recordAudit } from './audit-log.js';
import { hashPassword, PASSWORD_MAX_LENGTH, passwordProblems } from './passwords.js';
import { tokenHash } from './tokens.js';

/** What a used, lapsed or unknown account link answers, by kind. */
export const ACCOUNT_LINK_GONE: Readonly<Record<AccountLink, string>> = {
  setup: 'This link is not valid: it was used already, or it has lapsed. Ask for a new one.',
  reset: 'This password reset link is not valid: it was used already, or it has lapsed. Ask for a new one.',
};

/** Whether an account link of kind `kind` would still set a password at `door` (its form is shown only then). */
export async function accountLinkIsLive(deps: AccountsDeps, kind: AccountLink, door: Door, token: string): Promise<boolean> {
  return token.length > 0 && token.length <= 100 && deps.accountLinks.isLive(kind, tokenHash(token), door);
}

/**
 * Sets a password through an account link at the door it was made for, which
 * is then used up with every other account link of the person; whoever held
 * the old password is signed out everywhere; the second factor stays as it
 * was. Recorded in the audit log as the person's own change, from `address`.
 */
export async function setPasswordWithAccountLink(deps: AccountsDeps, kind: AccountLink, door: Door, token: string, password: string, address: string): Promise<PersonRow> {
  const problems = passwordProblems(password);
  if (problems.length > 0) throw validationError(problems);
  if (token.length === 0 || token.length > 100 || password.length > PASSWORD_MAX_LENGTH) throw new AppError('not-found', ACCOUNT_LINK_GONE[kind]);
  const hash = await hashPassword(password, deps.passwordHashCost);
  const person = await withTransaction(deps.pool, async (tx) => {
    const personId = await deps.accountLinks.use(tx, kind, tokenHash(token), door);
    const found = personId === undefined ? undefined : await deps.people.byId(personId, tx);
    if (!found) throw new AppError('not-found', ACCOUNT_LINK_GONE[kind]);
    await deps.people.setPassword(tx, found.id, hash);
    await deps.accountLinks.spendAll(tx, found.id);
    await deps.sessions.endOthers(tx, found.id);
    const doer: Doer = { type: door === 'ops' ? 'operator' : 'user', id: found.id, email: found.email, address };
    await recordAudit(tx, doer, { action: kind === 'setup' ? 'user.set_password' : 'user.reset_password', merchantId: found.merchant_id, target: found.id, detail: {} });
    return found;
  });
  deps.afterCommit();
  return person;
}
