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
  const expected = terminals.get(userName);
  // An unknown userName still costs one comparison, so timing does not tell names apart.
  const same = timingSafeEqual(digest(password), digest(expected ?? '\0unknown terminal'));
  if (expected === undefined || !same) throw new EpgError('5', 'Access denied');
  return userName;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
