/**
 * "Forgot password?" (D20): a reset link, mailed, that works once for
 * PASSWORD_RESET_TTL_SECONDS (an hour). The answer is the same whether or
 * not the address has an account: the lookup and the mail happen after it.
 * Requests are throttled per address (429; an IPv6 address per /64); those within it per email,
 * quietly (the same answer, no mail), and a person gets no new reset link while
 * their newest is younger than a short interval. The notifier writes and
 * sends the mail; only the mail holds the reset link.
 */
import { newId } from '@gateway/contracts';
import { withTransaction } from '@gateway/db';
import type { Language } from '@gateway/i18n';
import { AppError } from '@gateway/problem';
import { throttledAddress } from '@gateway/runtime';
import type { Door } from '../db/person.repository.js';
import { normaliseEmail, type AccountsDeps } from './accounts.js';
import { newToken, tokenHash } from './tokens.js';

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
  const byAddress = await countUnder(deps, `${prefix}:address:${throttledAddress(address)}`);
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
 * `language`, unless their newest live reset link is younger than
 * passwordResetIntervalSeconds. Whether a mail was asked for; the page never says.
 */
export async function mailResetLink(deps: AccountsDeps, door: Door, emailGiven: string, language: Language): Promise<boolean> {
  const email = normaliseEmail(emailGiven);
  if (email.length > 254) return false;
  const person = await deps.people.byEmail(door, email);
  if (!person) return false;
  const token = newToken();
  const id = newId('ml');
  const expiresAt = await withTransaction(deps.pool, (tx) =>
    deps.accountLinks.insertResetLink(tx, { id, tokenHash: tokenHash(token), personId: person.id, ttlSeconds: deps.passwordResetTtlSeconds, intervalSeconds: deps.passwordResetIntervalSeconds }),
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
