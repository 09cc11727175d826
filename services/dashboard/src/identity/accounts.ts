/**
 * The people who sign in (D14, D15): created by an operator (gateway-admin
 * `user create`, `operator create`) or by a merchant's owner (Team), given a
 * one-use link that sets their password, signed in with a throttle on failures,
 * and, when they choose (operators must), a second factor.
 */
import { newId, type AuditEntry, type CommandRequest, type DashboardRole } from '@gateway/contracts';
import { withTransaction, type Pool, type Queryable } from '@gateway/db';
import { enqueue } from '@gateway/messaging';
import { AppError, validationError } from '@gateway/problem';
import type { Redis } from '@gateway/runtime';
import type { SecretBox } from '@gateway/secrets';
import type { Door, PasswordLink, PeopleRepository, PersonRow } from './people.repository.js';
import {
  decoyHash,
  hashPassword,
  matchTotp,
  newRecoveryCodes,
  newToken,
  newTotpSecret,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  tokenHash,
  verifyPassword,
} from './secrets.js';

/**
 * Asks the notifier for a person's mail (D20): true once it has written it,
 * false when it could not be reached or refused it (the cause is logged).
 */
export interface PeopleMailer {
  send<C extends 'mail.invitation' | 'mail.password_reset'>(type: C, request: CommandRequest<C>): Promise<boolean>;
}

export interface AccountsDeps {
  pool: Pool;
  people: PeopleRepository;
  secrets: SecretBox;
  redis: Redis;
  publicBaseUrl: string;
  setupLinkTtlSeconds: number;
  /** D20: a reset link's lifetime, and the requests per address and per email within the window. */
  passwordResetTtlSeconds: number;
  passwordResetLimit: number;
  passwordResetWindowSeconds: number;
  /** No new reset link is mailed while the newest live one is younger than this. */
  passwordResetIntervalSeconds: number;
  mailer: PeopleMailer;
  passwordHashCost: number;
  loginFailureLimit: number;
  loginFailureWindowSeconds: number;
  /** Wrong second-factor codes one account may take within the window, from every address together. */
  secondFactorAccountLimit: number;
  /** How long an account whose codes reached that bound takes none, right or wrong. */
  secondFactorLockoutSeconds: number;
  rateLimitKeyPrefix: string;
  afterCommit: () => void;
}

/** Who did something, for the audit log: the person, and where from. */
export interface Doer {
  type: 'user' | 'operator';
  id: string;
  email: string;
  address: string;
  /** The key a gateway-admin operator signed with. */
  keyId?: string;
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The field errors of a password that may not be set; none when it may. */
export function passwordProblems(password: string, field = 'password'): { field: string; code: string; message: string }[] {
  if (password.length < PASSWORD_MIN_LENGTH) return [{ field, code: 'too_short', message: `The password must have at least ${PASSWORD_MIN_LENGTH} characters.` }];
  if (password.length > PASSWORD_MAX_LENGTH) return [{ field, code: 'too_long', message: `The password must have at most ${PASSWORD_MAX_LENGTH} characters.` }];
  return [];
}

/** The AAD a person's TOTP secret is sealed with: a ciphertext moved to another person does not open. */
function totpAad(personId: string): string {
  return `dashboard.people.totp:${personId}`;
}

/**
 * A new person; with `password` they can sign in at once (tests, the demo),
 * otherwise through the setup link in the answer, once, within its lifetime.
 */
export async function createPerson(
  deps: AccountsDeps,
  input: { door: Door; merchantId?: string; role?: DashboardRole; email: string; password?: string; language?: string },
  doer?: Doer,
): Promise<{ id: string; email: string; setupUrl: string; expiresAt: Date }> {
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
    await deps.people.insertSetupLink(tx, tokenHash(token), id, deps.setupLinkTtlSeconds);
    if (doer) await recordAudit(tx, doer, { action: 'user.create', merchantId: input.merchantId ?? null, target: id, detail: { email, role: input.role ?? null } });
  });
  if (doer) deps.afterCommit();
  return { id, email, setupUrl: `${deps.publicBaseUrl}/${input.door}/setup?token=${token}`, expiresAt: new Date(Date.now() + deps.setupLinkTtlSeconds * 1000) };
}

/** What a used, lapsed or unknown link answers, by kind. */
export const LINK_GONE: Readonly<Record<PasswordLink, string>> = {
  setup: 'This link is not valid: it was used already, or it has lapsed. Ask for a new one.',
  reset: 'This password reset link is not valid: it was used already, or it has lapsed. Ask for a new one.',
};

/** Whether a one-use link would still set a password at `door` (its form is shown only then). */
export async function passwordLinkIsLive(deps: AccountsDeps, link: PasswordLink, door: Door, token: string): Promise<boolean> {
  return token.length > 0 && token.length <= 100 && deps.people.linkIsLive(link, tokenHash(token), door);
}

/**
 * Sets a password through a one-use link at the door it was made for (an
 * invitation's setup link, D14, or a reset link, D20), which is then used up
 * with every other link of the person; whoever held the old password is
 * signed out everywhere; the second factor stays as it was. Recorded in the
 * audit log as the person's own change, from `address`.
 */
export async function setPasswordWithLink(deps: AccountsDeps, link: PasswordLink, door: Door, token: string, password: string, address: string): Promise<PersonRow> {
  const problems = passwordProblems(password);
  if (problems.length > 0) throw validationError(problems);
  if (token.length === 0 || token.length > 100 || password.length > PASSWORD_MAX_LENGTH) throw new AppError('not-found', LINK_GONE[link]);
  const hash = await hashPassword(password, deps.passwordHashCost);
  const person = await withTransaction(deps.pool, async (tx) => {
    const personId = await deps.people.useLink(tx, link, tokenHash(token), door);
    const found = personId === undefined ? undefined : await deps.people.byId(personId, tx);
    if (!found) throw new AppError('not-found', LINK_GONE[link]);
    await deps.people.setPassword(tx, found.id, hash);
    await deps.people.spendLinks(tx, found.id);
    await deps.people.endOtherSessions(tx, found.id);
    const doer: Doer = { type: door === 'ops' ? 'operator' : 'user', id: found.id, email: found.email, address };
    await recordAudit(tx, doer, { action: link === 'setup' ? 'user.set_password' : 'user.reset_password', merchantId: found.merchant_id, target: found.id, detail: {} });
    return found;
  });
  deps.afterCommit();
  return person;
}

export type SignInResult = { person: PersonRow; secondFactor: boolean };

/**
 * Checks an email and password at `door`. Five failures (D14) for one email
 * from one address within the window answer 429 until the window ends,
 * right or wrong password alike; a wrong email costs the same time as a
 * wrong password and the same answer.
 */
export async function signIn(deps: AccountsDeps, door: Door, emailGiven: string, password: string, address: string): Promise<SignInResult> {
  const email = normaliseEmail(emailGiven);
  await refuseWhileThrottled(deps, door, email, address);
  const person = email.length <= 254 && password.length <= PASSWORD_MAX_LENGTH ? await deps.people.byEmail(door, email) : undefined;
  const ok = person?.password_hash ? await verifyPassword(password, person.password_hash) : (await decoyHash(deps.passwordHashCost), false);
  if (!ok || !person) {
    await countFailure(deps, door, email, address);
    throw new AppError('unauthorized', 'The email or the password is wrong.');
  }
  await clearFailures(deps, door, email, address, 'password');
  return { person, secondFactor: person.totp_enabled_at !== null };
}

/**
 * Which step failed: passwords and second-factor codes are counted apart, so
 * that the right password, which clears its own count, cannot clear the count
 * of wrong codes and give six more digits to try after every sign-in.
 */
export type SignInStep = 'password' | 'second-factor';

function throttleKey(deps: AccountsDeps, door: Door, email: string, address: string, step: SignInStep = 'password'): string {
  return `${deps.rateLimitKeyPrefix}:${step === 'password' ? 'signin' : 'signin2'}:${door}:${address}:${email}`;
}

/** 429 while this email has failed too often at `step` from this address within the window (D14). */
export async function refuseWhileThrottled(deps: AccountsDeps, door: Door, email: string, address: string, step: SignInStep = 'password'): Promise<void> {
  const key = throttleKey(deps, door, email, address, step);
  if (Number((await deps.redis.get(key)) ?? 0) >= deps.loginFailureLimit) throw await tooManyFailures(deps, key);
}

/** Forgets the failures of `step` once it has succeeded. */
export async function clearFailures(deps: AccountsDeps, door: Door, email: string, address: string, step: SignInStep): Promise<void> {
  await deps.redis.del(throttleKey(deps, door, email, address, step));
}

/** Counts a failed password or second factor; the failure that reaches the limit already answers 429. */
export async function countFailure(deps: AccountsDeps, door: Door, email: string, address: string, step: SignInStep = 'password'): Promise<void> {
  const key = throttleKey(deps, door, email, address, step);
  const replies = await deps.redis.multi().incr(key).expire(key, deps.loginFailureWindowSeconds, 'NX').exec();
  if (Number(replies?.[0]?.[1] ?? 0) >= deps.loginFailureLimit) throw await tooManyFailures(deps, key);
}

function accountThrottleKey(deps: AccountsDeps, door: Door, email: string): string {
  return `${deps.rateLimitKeyPrefix}:signin2:${door}:${email}`;
}

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

async function tooManyFailures(deps: AccountsDeps, key: string): Promise<AppError> {
  const ttl = await deps.redis.ttl(key);
  const retryAfter = ttl > 0 ? ttl : deps.loginFailureWindowSeconds;
  return new AppError('rate-limit-exceeded', `Too many failed sign-ins. Try again in ${Math.ceil(retryAfter / 60)} minutes.`, { retry_after: retryAfter });
}

/** Checks the second factor of a person who gave the right password: a current code not used before, or an unused recovery code. */
export async function checkSecondFactor(deps: AccountsDeps, person: PersonRow, code: string): Promise<boolean> {
  const given = code.trim().toLowerCase();
  if (/^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/.test(given)) return deps.people.useRecoveryCode(person.id, tokenHash(given));
  if (!person.totp_secret_ciphertext || !person.totp_enabled_at) return false;
  const secret = await deps.secrets.decrypt(person.totp_secret_ciphertext, totpAad(person.id));
  const step = matchTotp(secret, given);
  // A code seen once (over a shoulder, in a proxy's log) does not sign in a second time.
  return step !== undefined && deps.people.useTotpStep(deps.pool, person.id, step);
}

/**
 * Starts second-factor set-up: a new secret, kept encrypted and not yet in
 * force until confirmed. Not while one is on: a new secret would turn it off
 * unseen, with no entry in the audit log, where operators must keep it.
 */
export async function beginTotp(deps: AccountsDeps, person: PersonRow): Promise<string> {
  if (person.totp_enabled_at) throw new AppError('conflict', 'Two-step sign-in is already on; turn it off first to set it up again.');
  const secret = newTotpSecret();
  await deps.people.setTotp(deps.pool, person.id, deps.secrets.encrypt(secret, totpAad(person.id)), false);
  return secret;
}

/** The secret being set up, to show again while the person has not confirmed it. */
export async function pendingTotpSecret(deps: AccountsDeps, person: PersonRow): Promise<string | undefined> {
  if (!person.totp_secret_ciphertext || person.totp_enabled_at) return undefined;
  return deps.secrets.decrypt(person.totp_secret_ciphertext, totpAad(person.id));
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
    await deps.people.endOtherSessions(tx, person.id, keepSession);
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

/** An owner changes a teammate's role; the merchant always keeps one owner. */
export async function changeRole(deps: AccountsDeps, merchantId: string, personId: string, role: DashboardRole, doer: Doer): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    await deps.people.lockTeam(tx, merchantId);
    const person = await deps.people.byId(personId, tx);
    if (!person || person.merchant_id !== merchantId) throw new AppError('not-found', 'No such team member.');
    if (person.role === 'owner' && role !== 'owner' && (await deps.people.ownerCount(tx, merchantId)) <= 1) {
      throw new AppError('conflict', 'The account must keep at least one owner.');
    }
    await deps.people.setRole(tx, personId, role);
    // A changed role takes effect at the next request: the session reads the role each time.
    await recordAudit(tx, doer, { action: 'user.change_role', merchantId, target: personId, detail: { role } });
  });
  deps.afterCommit();
}

/** An owner removes a teammate, who is signed out at once. */
export async function removePerson(deps: AccountsDeps, merchantId: string, personId: string, doer: Doer): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    await deps.people.lockTeam(tx, merchantId);
    const person = await deps.people.byId(personId, tx);
    if (!person || person.merchant_id !== merchantId) throw new AppError('not-found', 'No such team member.');
    if (person.role === 'owner' && (await deps.people.ownerCount(tx, merchantId)) <= 1) throw new AppError('conflict', 'The account must keep at least one owner.');
    await deps.people.remove(tx, personId);
    await recordAudit(tx, doer, { action: 'user.remove', merchantId, target: personId, detail: { email: person.email } });
  });
  deps.afterCommit();
}

/** Records a change the dashboard made itself in the audit log (D14), in the change's own transaction. */
export async function recordAudit(
  db: Queryable,
  doer: Doer,
  change: { action: string; merchantId: string | null; target: string | null; detail: Record<string, unknown>; outcome?: string },
): Promise<void> {
  const at = new Date().toISOString();
  const entry: AuditEntry = {
    audit_id: newId('evt'),
    actor_type: doer.type,
    actor_id: doer.id,
    actor_email: doer.email || null,
    address: doer.address || null,
    actor_key_id: doer.keyId ?? null,
    action: change.action,
    merchant_id: change.merchantId,
    target: change.target,
    outcome: change.outcome ?? 'succeeded',
    detail: change.detail,
    service: 'dashboard',
    correlation_id: newId('cmd'),
    at,
  };
  await enqueue(db, [{ id: entry.audit_id, type: 'audit.recorded', version: 1, occurred_at: at, correlation_id: entry.correlation_id, data: entry }]);
}
