/**
 * The sign-in throttles (D14), in Redis, shared by every replica: failed
 * passwords and failed second-factor codes are counted apart, per email and
 * address, so that the right password, which clears its own count, cannot
 * clear the count of wrong codes and give six more digits to try after every
 * sign-in.
 */
import { AppError } from '@gateway/problem';
import type { Door } from '../db/person.repository.js';
import type { AccountsDeps } from './accounts.js';

/** Which step failed. */
type SignInStep = 'password' | 'second-factor';

function throttleKey(deps: AccountsDeps, door: Door, email: string, address: string, step: SignInStep = 'password'): string {
  return `${deps.rateLimitKeyPrefix}:${step === 'password' ? 'signin' : 'signin2'}:${door}:${address}:${email}`;
}

/** The key counting an account's wrong second-factor codes from every address together. */
export function accountThrottleKey(deps: AccountsDeps, door: Door, email: string): string {
  return `${deps.rateLimitKeyPrefix}:signin2:${door}:${email}`;
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

/** The 429 of a throttle under `key`, saying how long it still holds. */
export async function tooManyFailures(deps: AccountsDeps, key: string): Promise<AppError> {
  const ttl = await deps.redis.ttl(key);
  const retryAfter = ttl > 0 ? ttl : deps.loginFailureWindowSeconds;
  return new AppError('rate-limit-exceeded', `Too many failed sign-ins. Try again in ${Math.ceil(retryAfter / 60)} minutes.`, { retry_after: retryAfter });
}
