/** Signing in at a door (D14, D15, D29): an email and a password, within the sign-in throttles; and what a full sign-in leaves behind. */
import { AppError } from '@gateway/problem';
import type { Door, PersonRow } from '../db/person.repository.js';
import { normaliseEmail, type AccountsDeps } from './accounts.js';
import { decoyHash, PASSWORD_MAX_LENGTH, verifyPassword } from './passwords.js';
import { clearFailures, countAccountTry, countFailure, refuseWhileThrottled, rememberAddress } from './sign-in-throttle.js';

/** The person signed in, and whether they still owe their second factor. */
type SignInResult = { person: PersonRow; secondFactor: boolean };

/**
 * Checks an email and password at `door`. Five failures (D14) for one email
 * from one address within the window answer 429 until the window ends,
 * right or wrong password alike, as do the account's tries past its own
 * bound (D29) from addresses it was not signed in from lately; a wrong
 * email costs the same time as a wrong password and the same answer.
 */
export async function signIn(deps: AccountsDeps, door: Door, emailGiven: string, password: string, address: string): Promise<SignInResult> {
  const email = normaliseEmail(emailGiven);
  await refuseWhileThrottled(deps, door, email, address);
  const accountTry = await countAccountTry(deps, door, email, address);
  const person = email.length <= 254 && password.length <= PASSWORD_MAX_LENGTH ? await deps.people.byEmail(door, email) : undefined;
  const ok = person?.password_hash ? await verifyPassword(password, person.password_hash) : (await decoyHash(deps.passwordHashCost), false);
  if (!ok || !person) {
    await countFailure(deps, door, email, address);
    await accountTry.failed();
    throw new AppError('unauthorized', 'The email or the password is wrong.');
  }
  await accountTry.passed();
  await clearFailures(deps, door, email, address, 'password');
  return { person, secondFactor: person.totp_enabled_at !== null };
}

/**
 * What a full sign-in (the password, and the second factor when the person
 * has one) leaves behind: every setup or reset link of the person is spent
 * (D29: one proved they hold the password, so a link left in a mailbox or a
 * printout must not set another), and the address is remembered as theirs,
 * free of the account's bound for a while.
 */
export async function signedIn(deps: AccountsDeps, door: Door, person: PersonRow, address: string): Promise<void> {
  await deps.accountLinks.spendAll(deps.pool, person.id);
  await rememberAddress(deps, door, person.email, address);
}
