/**
 * The second step of signing in (D14, D15): a current TOTP code not used
 * before, or an unused recovery code, within two throttles.
 */
import type { Door, PersonRow } from '../db/person.repository.js';
import type { AccountsDeps } from './accounts.js';
import { RECOVERY_CODE } from './recovery-codes.js';
import { openTotp } from './sealed-totp.js';
import { accountThrottleKey, clearFailures, countFailure, refuseWhileThrottled, tooManyFailures } from './sign-in-throttle.js';
import { tokenHash } from './tokens.js';
import { matchTotp } from './totp.js';

/**
 * Checks the second factor of `person`, given from `address`, within two
 * throttles: the address's, as for passwords, and the account's, which counts
 * wrong codes from every address together, so that spreading guesses over
 * many addresses buys none. Once the account's reach its bound, no code is
 * checked until the lockout ends. A try is counted before its code is
 * checked, so that guesses sent at once cannot all slip in under the bound.
 * Throws 429 while either throttle holds, whatever the code: the answer then
 * says nothing of it.
 */
export async function passSecondFactor(deps: AccountsDeps, door: Door, person: PersonRow, code: string, address: string): Promise<boolean> {
  await refuseWhileThrottled(deps, door, person.email, address, 'second-factor');
  const key = accountThrottleKey(deps, door, person.email);
  const replies = await deps.redis.multi().incr(key).expire(key, deps.loginFailureWindowSeconds, 'NX').exec();
  const tries = Number(replies?.[0]?.[1] ?? 0);
  if (tries > deps.secondFactorAccountLimit) {
    // Refused, not tried: it leaves the count, and the lockout's end, as they were.
    await deps.redis.decr(key);
    throw await tooManyFailures(deps, key);
  }
  let right: boolean;
  try {
    right = await checkSecondFactor(deps, person, code);
  } catch (err) {
    await deps.redis.decr(key);
    throw err;
  }
  if (right) {
    // The count stays: a right code does not buy the next guesser a fresh bound.
    await deps.redis.decr(key);
    await clearFailures(deps, door, person.email, address, 'second-factor');
    return true;
  }
  if (tries === deps.secondFactorAccountLimit) {
    await deps.redis.expire(key, deps.secondFactorLockoutSeconds);
    throw await tooManyFailures(deps, key);
  }
  await countFailure(deps, door, person.email, address, 'second-factor');
  return false;
}

/** Checks the second factor of a person who gave the right password: a current code not used before, or an unused recovery code. */
async function checkSecondFactor(deps: AccountsDeps, person: PersonRow, code: string): Promise<boolean> {
  const given = code.trim().toLowerCase();
  if (RECOVERY_CODE.test(given)) return deps.people.useRecoveryCode(person.id, tokenHash(given));
  if (!person.totp_secret_ciphertext || !person.totp_enabled_at) return false;
  const secret = await openTotp(deps.secrets, person.id, person.totp_secret_ciphertext);
  const step = matchTotp(secret, given);
  // A code seen once (over a shoulder, in a proxy's log) does not sign in a second time.
  return step !== undefined && deps.people.useTotpStep(deps.pool, person.id, step);
}
