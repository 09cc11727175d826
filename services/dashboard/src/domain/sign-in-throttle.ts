/**
 * The sign-in throttles (D14, D29), in Redis, shared by every replica.
 * Failed passwords and failed second-factor codes are counted apart, per
 * email and address, so that the right password, which clears its own
 * count, cannot clear the count of wrong codes and give six more digits to
 * try after every sign-in. Passwords are counted per account as well, from
 * every address together within a short window, so that addresses, cheap to
 * an attacker, buy no more guesses; that bound never holds an address the
 * person fully signed in from lately, so a stranger cannot keep an owner out
 * of their own account, and a newcomer waits a minute at most. An IPv6
 * address counts as its /64.
 */
import { AppError } from '@gateway/problem';
import { throttledAddress } from '@gateway/runtime';
import type { Door } from '../db/person.repository.js';
import type { AccountsDeps } from './accounts.js';

/** Which step failed. */
type SignInStep = 'password' | 'second-factor';

/** How long an address a person fully signed in from stays theirs, free of the account's bound. */
const KNOWN_ADDRESS_SECONDS = 30 * 24 * 3600;

function throttleKey(deps: AccountsDeps, door: Door, email: string, address: string, step: SignInStep = 'password'): string {
  return `${deps.rateLimitKeyPrefix}:${step === 'password' ? 'signin' : 'signin2'}:${door}:${throttledAddress(address)}:${email}`;
}

/** The key counting an account's wrong second-factor codes from every address together. */
export function accountThrottleKey(deps: AccountsDeps, door: Door, email: string): string {
  return `${deps.rateLimitKeyPrefix}:signin2:${door}:${email}`;
}

/** The key counting an account's password tries from addresses it has not signed in from, together. */
function accountPasswordKey(deps: AccountsDeps, door: Door, email: string): string {
  return `${deps.rateLimitKeyPrefix}:signin-account:${door}:${email}`;
}

/** The key saying the account was fully signed in to from `address` lately. */
function knownAddressKey(deps: AccountsDeps, door: Door, email: string, address: string): string {
  return `${deps.rateLimitKeyPrefix}:signin-known:${door}:${email}:${throttledAddress(address)}`;
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

/** A password try counted against its account, until its outcome is known. */
export interface AccountTry {
  /** The password was right: the try does not count. */
  passed(): Promise<void>;
  /** The password was wrong: the try stays counted; the one that reaches the bound answers 429. */
  failed(): Promise<void>;
}

/**
 * Counts a password try against the account, from whichever address, before
 * the password is checked, so that tries sent at once cannot all slip under
 * the bound; 429, unchecked and uncounted, past it. An address the person
 * signed in from lately is neither counted nor held.
 */
export async function countAccountTry(deps: AccountsDeps, door: Door, email: string, address: string): Promise<AccountTry> {
  if ((await deps.redis.exists(knownAddressKey(deps, door, email, address))) === 1) return { passed: async () => undefined, failed: async () => undefined };
  const key = accountPasswordKey(deps, door, email);
  const replies = await deps.redis.multi().incr(key).expire(key, deps.loginAccountFailureWindowSeconds, 'NX').exec();
  const tries = Number(replies?.[0]?.[1] ?? 0);
  if (tries > deps.loginAccountFailureLimit) {
    // Refused, not tried: the count, and when it ends, stay as they were.
    await deps.redis.decr(key);
    throw await tooManyFailures(deps, key, deps.loginAccountFailureWindowSeconds);
  }
  return {
    passed: async () => void (await deps.redis.decr(key)),
    failed: async () => {
      if (tries === deps.loginAccountFailureLimit) throw await tooManyFailures(deps, key, deps.loginAccountFailureWindowSeconds);
    },
  };
}

/** Remembers that the person fully signed in from `address`: the account's bound does not hold it for a while. */
export async function rememberAddress(deps: AccountsDeps, door: Door, email: string, address: string): Promise<void> {
  await deps.redis.set(knownAddressKey(deps, door, email, address), '1', 'EX', KNOWN_ADDRESS_SECONDS);
}

/** The 429 of a throttle under `key`, saying how long it still holds (`window` when Redis cannot tell). */
export async function tooManyFailures(deps: AccountsDeps, key: string, window = deps.loginFailureWindowSeconds): Promise<AppError> {
  const ttl = await deps.redis.ttl(key);
  const retryAfter = ttl > 0 ? ttl : window;
  return new AppError('rate-limit-exceeded', `Too many failed sign-ins. Try again in ${Math.ceil(retryAfter / 60)} minutes.`, { retry_after: retryAfter });
}
