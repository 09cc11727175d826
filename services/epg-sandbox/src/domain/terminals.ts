/** The first check of every call: the terminal's userName and password. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { EpgError, missing } from './epg-error.js';

/**
 * The userName of the terminal these credentials open: missing → "4", wrong →
 * "5" Access denied. Passwords are compared by digest in constant time.
 */
export function authenticate(terminals: ReadonlyMap<string, string>, userName: string | undefined, password: string | undefined): string {
  if (userName === undefined) throw missing('userName');
  if (password === undefined) throw missing('password');
  if (!sameSecret(password, terminals.get(userName))) throw new EpgError('5', 'Access denied');
  return userName;
}

/**
 * Whether a given secret is the expected one, compared by digest in constant
 * time; an unknown name (no expected secret) still costs one comparison, so
 * timing does not tell names apart.
 */
export function sameSecret(given: string, expected: string | undefined): boolean {
  const same = timingSafeEqual(digest(given), digest(expected ?? '\0unknown'));
  return expected !== undefined && same;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
