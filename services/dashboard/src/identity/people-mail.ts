/**
 * The people's mails (D20): an owner's invitation mails the new person their
 * setup link (D14), "Resend invitation" a new one; "Forgot password?" mails a
 * one-use reset link valid PASSWORD_RESET_TTL_SECONDS (an hour), and answers
 * the same whether or not the address has an account: the lookup and the mail
 * happen after the answer. Requests are throttled per address (429); those
 * within it per email, quietly (the same answer, no mail), and a person gets
 * no new link while their newest is younger than a short interval. A reset sets the password under the same rules
 * as a setup link, ends every session of the person, and leaves the second
 * factor on. The notifier writes and sends the mails; only the mail holds a link.
 */
import { newId, type DashboardRole } from '@gateway/contracts';
import { withTransaction } from '@gateway/db';
import { AppError } from '@gateway/problem';
import { createPerson, normaliseEmail, recordAudit, type AccountsDeps, type Doer } from './accounts.js';
import type { Door } from './people.repository.js';
import { newToken, tokenHash } from './secrets.js';

type MailLanguage = 'en' | 'fr' | 'ar';

/** An invited person, and whether their invitation was mailed. */
export interface Invited {
  id: string;
  email: string;
  mailed: boolean;
}

/**
 * An owner invites someone to the merchant's team: the person is created
 * (createPerson: the same rules as `user create`) and their setup link mailed
 * in the inviter's language. When the notifier cannot take the mail, the
 * person stays invited and `mailed` is false: "Resend invitation" mails a new link.
 */
export async function invite(
  deps: AccountsDeps,
  input: { merchantId: string; merchantName: string; role: DashboardRole; email: string; language: MailLanguage },
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

/**
 * Mails an invited person (no password yet) of the merchant a new setup link;
 * their older links stop working. Whether it was mailed.
 */
export async function resendInvitation(
  deps: AccountsDeps,
  input: { merchantId: string; merchantName: string; personId: string; language: MailLanguage },
  doer: Doer,
): Promise<Invited> {
  const token = newToken();
  const person = await withTransaction(deps.pool, async (tx) => {
    const found = await deps.people.byId(input.personId, tx);
    if (!found || found.door !== 'dashboard' || found.merchant_id !== input.merchantId) throw new AppError('not-found', 'No such team member.');
    if (found.password_hash) throw new AppError('conflict', 'This person has set their password already; they can use "Forgot password?" on the sign-in page.');
    await deps.people.spendSetupLinks(tx, found.id);
    await deps.people.insertSetupLink(tx, tokenHash(token), found.id, deps.setupLinkTtlSeconds);
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

/** Counts one request under `key` within the window: the count, and the seconds the window has left. */
async function countUnder(deps: AccountsDeps, key: string): Promise<{ count: number; ttl: number }> {
  const replies = await deps.redis.multi().incr(key).expire(key, deps.passwordResetWindowSeconds, 'NX').ttl(key).exec();
  return { count: Number(replies?.[0]?.[1] ?? 0), ttl: Number(replies?.[2]?.[1] ?? 0) };
}

/**
 * Counts a "Forgot password?" request against its address: 429 past the
 * limit (which says nothing of any account). A request within it counts
 * against its email (known or not); past the limit for that email, the
 * answer is the same and nothing is mailed, so nobody can lock another
 * person out of "Forgot password?" nor flood them. Whether to mail.
 */
export async function countResetRequest(deps: AccountsDeps, door: Door, emailGiven: string, address: string): Promise<boolean> {
  const prefix = `${deps.rateLimitKeyPrefix}:reset:${door}`;
  const byAddress = await countUnder(deps, `${prefix}:address:${address}`);
  if (byAddress.count > deps.passwordResetLimit) {
    const retryAfter = byAddress.ttl > 0 ? byAddress.ttl : deps.passwordResetWindowSeconds;
    throw new AppError('rate-limit-exceeded', `Too many password reset requests. Try again in ${Math.ceil(retryAfter / 60)} minutes.`, { retry_after: retryAfter });
  }
  const email = normaliseEmail(emailGiven).slice(0, 254);
  return (await countUnder(deps, `${prefix}:email:${email}`)).count <= deps.passwordResetLimit;
}

/**
 * The work behind a "Forgot password?" answer, done after it: when `email`
 * has an account at `door`, a new reset link (its older ones spent) mailed in
 * `language`, unless their newest live link is younger than
 * passwordResetIntervalSeconds. Whether a mail was asked for; the page never says.
 */
export async function mailPasswordReset(deps: AccountsDeps, door: Door, emailGiven: string, language: MailLanguage): Promise<boolean> {
  const email = normaliseEmail(emailGiven);
  if (email.length > 254) return false;
  const person = await deps.people.byEmail(door, email);
  if (!person) return false;
  const token = newToken();
  const id = newId('ml');
  const expiresAt = await withTransaction(deps.pool, (tx) =>
    deps.people.insertPasswordReset(tx, { id, tokenHash: tokenHash(token), personId: person.id, ttlSeconds: deps.passwordResetTtlSeconds, intervalSeconds: deps.passwordResetIntervalSeconds }),
  );
  if (!expiresAt) return false;
  return deps.mailer.send('mail.password_reset', {
    reference: id,
    email: person.email,
    language,
    link: `${deps.publicBaseUrl}/${door}/reset?token=${token}`,
    expires_at: expiresAt.toISOString(),
    door,
    ...(person.merchant_id !== null && { merchant_id: person.merchant_id }),
  });
}
