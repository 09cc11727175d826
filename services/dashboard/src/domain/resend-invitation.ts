/** "Resend invitation" (D20): an invited person who has no password yet is mailed a new setup link; their older links stop working. */
import { newId } from '@gateway/contracts';
import { withTransaction } from '@gateway/db';
import type { Language } from '@gateway/i18n';
import { AppError } from '@gateway/problem';
import type { AccountsDeps, Doer } from './accounts.js';
import { recordAudit } from './audit-log.js';
import type { Invited } from './invite-person.js';
import { newToken, tokenHash } from './tokens.js';

/** Mails the merchant's invited person `personId` a new setup link in `language`; whether it was mailed. */
export async function resendInvitation(
  deps: AccountsDeps,
  input: { merchantId: string; merchantName: string; personId: string; language: Language },
  doer: Doer,
): Promise<Invited> {
  const token = newToken();
  const person = await withTransaction(deps.pool, async (tx) => {
    const found = await deps.people.byId(input.personId, tx);
    if (!found || found.door !== 'dashboard' || found.merchant_id !== input.merchantId) throw new AppError('not-found', 'No such team member.');
    if (found.password_hash) throw new AppError('conflict', 'This person has set their password already; they can use "Forgot password?" on the sign-in page.');
    await deps.accountLinks.spendSetupLinks(tx, found.id);
    await deps.accountLinks.insertSetupLink(tx, tokenHash(token), found.id, deps.setupLinkTtlSeconds);
    await recordAudit(tx, doer, { action: 'user.resend_invitation', merchantId: input.merchantId, target: found.id, detail: { email: found.email } });
    return found;
  });
  deps.afterCommit();
  const mailed = await deps.mailer.send('mail.invitation', {
    reference: newId('ml'),
    email: person.email,
    language: input.language,
    link: `${deps.publicBaseUrl}/dashboard/setup?token=${token}`,
    expires_at: new Date(Date.now() + deps.setupLinkTtlSeconds * 1000).toISOString(),
    merchant_id: input.merchantId,
    merchant_name: input.merchantName,
    role: person.role ?? 'viewer',
  });
  return { id: person.id, email: person.email, mailed };
}
