/**
 * A new person who signs in (D14, D15): created by an operator (gateway-admin
 * `user create`, `operator create`) or by a merchant's owner (Team), given an
 * account link, the setup link, that sets their password; or created with
 * their password, and then given none (D29).
 */
import { newId, type DashboardRole } from '@gateway/contracts';
import { withTransaction } from '@gateway/db';
import type { Language } from '@gateway/i18n';
import { AppError, validationError } from '@gateway/problem';
import type { Door } from '../db/person.repository.js';
import { normaliseEmail, type AccountsDeps, type Doer } from './accounts.js';
import { recordAudit } from './audit-log.js';
import { hashPassword, passwordProblems } from './passwords.js';
import { newToken, tokenHash } from './tokens.js';

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/** Who is created: at which door, for which merchant and role, with which email, language and, maybe, password. */
type NewPerson<P extends string | undefined> = { door: Door; merchantId?: string; role?: DashboardRole; email: string; password?: P; language?: Language };

/** A setup link: where it is, and when it lapses. */
interface SetupLink {
  setupUrl: string;
  expiresAt: Date;
}

/**
 * A new person; with `password` they can sign in at once (tests, the demo)
 * and get no setup link, which whoever saw the answer could use; otherwise
 * they set it through the setup link in the answer, once, within its lifetime.
 */
export async function createPerson(deps: AccountsDeps, input: NewPerson<undefined>, doer?: Doer): Promise<{ id: string; email: string } & SetupLink>;
export async function createPerson(deps: AccountsDeps, input: NewPerson<string | undefined>, doer?: Doer): Promise<{ id: string; email: string } & Partial<SetupLink>>;
export async function createPerson(deps: AccountsDeps, input: NewPerson<string | undefined>, doer?: Doer): Promise<{ id: string; email: string } & Partial<SetupLink>> {
  const email = normaliseEmail(input.email);
  const errors = [
    ...(EMAIL.test(email) && email.length <= 254 ? [] : [{ field: 'email', code: 'invalid', message: 'Give a valid email address.' }]),
    ...(input.password === undefined ? [] : passwordProblems(input.password)),
  ];
  if (errors.length > 0) throw validationError(errors);
  const id = newId(input.door === 'ops' ? 'opr' : 'usr');
  const token = newToken();
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password, deps.passwordHashCost);
  await withTransaction(deps.pool, async (tx) => {
    const created = await deps.people.insert(tx, { id, door: input.door, merchantId: input.merchantId ?? null, role: input.role ?? null, email, passwordHash, language: input.language });
    if (!created) throw new AppError('conflict', 'Someone with this email already has an account here.');
    if (passwordHash === null) await deps.accountLinks.insertSetupLink(tx, tokenHash(token), id, deps.setupLinkTtlSeconds);
    if (doer) await recordAudit(tx, doer, { action: 'user.create', merchantId: input.merchantId ?? null, target: id, detail: { email, role: input.role ?? null } });
  });
  if (doer) deps.afterCommit();
  if (passwordHash !== null) return { id, email };
  return { id, email, setupUrl: `${deps.publicBaseUrl}/${input.door}/setup?token=${token}`, expiresAt: new Date(Date.now() + deps.setupLinkTtlSeconds * 1000) };
}
