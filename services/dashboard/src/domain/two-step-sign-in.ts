/**
 * Two-step sign-in turned on and off by the person (D14, D15): a new TOTP
 * secret shown until a code from the app confirms it, then recovery codes,
 * once; turned off with the password given again.
 */
import { withTransaction } from '@gateway/db';
import { AppError, validationError } from '@gateway/problem';
import type { Door, PersonRow } from '../db/person.repository.js';
import type { AccountsDeps, Doer } from './accounts.js';
import { recordAudit } from './audit-log.js';
import { PASSWORD_MAX_LENGTH, verifyPassword } from './passwords.js';
import { newRecoveryCodes } from './recovery-codes.js';
import { openTotp, sealTotp } from './sealed-totp.js';
import { clearFailures, countFailure, refuseWhileThrottled } from './sign-in-throttle.js';
import { tokenHash } from './tokens.js';
import { matchTotp, newTotpSecret } from './totp.js';

/**
 * Starts second-factor set-up: a new secret, kept encrypted and not yet in
 * force until confirmed. Not while one is on: a new secret would turn it off
 * unseen, with no entry in the audit log, where operators must keep it.
 */
export async function beginTotp(deps: AccountsDeps, person: PersonRow): Promise<string> {
  if (person.totp_enabled_at) throw new AppError('conflict', 'Two-step sign-in is already on; turn it off first to set it up again.');
  const secret = newTotpSecret();
  await deps.people.setTotp(deps.pool, person.id, sealTotp(deps.secrets, person.id, secret), false);
  return secret;
}

/** The secret being set up, to show again while the person has not confirmed it. */
export async function pendingTotpSecret(deps: AccountsDeps, person: PersonRow): Promise<string | undefined> {
  if (!person.totp_secret_ciphertext || person.totp_enabled_at) return undefined;
  return openTotp(deps.secrets, person.id, person.totp_secret_ciphertext);
}

/** Confirms set-up with a code from the app; answers the recovery codes, shown once. */
export async function confirmTotp(deps: AccountsDeps, person: PersonRow, code: string, doer: Doer, keepSession: string): Promise<string[]> {
  const secret = await pendingTotpSecret(deps, person);
  const step = secret === undefined ? undefined : matchTotp(secret, code);
  if (step === undefined) throw validationError([{ field: 'code', code: 'invalid', message: 'That code is not the current one; check the app and the clock.' }]);
  const codes = newRecoveryCodes();
  await withTransaction(deps.pool, async (tx) => {
    await deps.people.setTotp(tx, person.id, person.totp_secret_ciphertext, true);
    // The code that confirmed it does not also sign in.
    await deps.people.useTotpStep(tx, person.id, step);
    await deps.people.replaceRecoveryCodes(tx, person.id, codes.map(tokenHash));
    await deps.sessions.endOthers(tx, person.id, keepSession);
    await recordAudit(tx, doer, { action: 'security.totp_enabled', merchantId: person.merchant_id, target: person.id, detail: {} });
  });
  deps.afterCommit();
  return codes;
}

/**
 * Turns the second factor off (operators must keep it where it is required),
 * once the person has given their current password again: a session left
 * open, or taken, is not enough. A wrong password counts against the same
 * throttle as at sign-in, and changes nothing.
 */
export async function disableTotp(deps: AccountsDeps, door: Door, person: PersonRow, password: string, doer: Doer): Promise<void> {
  await refuseWhileThrottled(deps, door, person.email, doer.address);
  const ok = person.password_hash !== null && password.length <= PASSWORD_MAX_LENGTH && (await verifyPassword(password, person.password_hash));
  if (!ok) {
    await countFailure(deps, door, person.email, doer.address);
    throw validationError([{ field: 'password', code: 'invalid', message: 'That password is not right; two-step sign-in stays on.' }]);
  }
  await clearFailures(deps, door, person.email, doer.address, 'password');
  await withTransaction(deps.pool, async (tx) => {
    await deps.people.setTotp(tx, person.id, null, false);
    await deps.people.replaceRecoveryCodes(tx, person.id, []);
    await recordAudit(tx, doer, { action: 'security.totp_disabled', merchantId: person.merchant_id, target: person.id, detail: {} });
  });
  deps.afterCommit();
}
