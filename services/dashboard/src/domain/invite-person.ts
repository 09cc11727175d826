/**
 * An owner invites someone to the merchant's team (D14, D20): the person is
 * created (createPerson: the same rules as `user create`) and their setup
 * link mailed by the notifier in the inviter's language; only the mail holds
 * the setup link, the inviter never sees it.
 */
import { newId, type DashboardRole } from '@gateway/contracts';
import type { Language } from '@gateway/i18n';
import type { AccountsDeps, Doer } from './accounts.js';
import { createPerson } from './create-person.js';

/** An invited person, and whether their invitation was mailed. */
export interface Invited {
  id: string;
  email: string;
  mailed: boolean;
}

/**
 * Invites `email` with `role`. When the notifier cannot take the mail, the
 * person stays invited and `mailed` is false: "Resend invitation" mails a new setup link.
 */
export async function invitePerson(
  deps: AccountsDeps,
  input: { merchantId: string; merchantName: string; role: DashboardRole; email: string; language: Language },
  doer: Doer,
): Promise<Invited> {
  const created = await createPerson(deps, { door: 'dashboard', merchantId: input.merchantId, role: input.role, email: input.email, language: input.language }, doer);
  const mailed = await deps.mailer.send('mail.invitation', {
    reference: newId('ml'),
    email: created.email,
    language: input.language,
    link: created.setupUrl,
    expires_at: created.expiresAt.toISOString(),
    merchant_id: input.merchantId,
    merchant_name: input.merchantName,
    role: input.role,
  });
  return { id: created.id, email: created.email, mailed };
}
