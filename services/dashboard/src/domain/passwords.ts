/**
 * Passwords (D14): hashed with scrypt, the hash saying how it was made, and
 * the rules a new password must meet.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** D14: a password of at least 12 characters. */
const PASSWORD_MIN_LENGTH = 12;
/** Longer than any password a person types; bounds the hashing work one request can ask for. */
export const PASSWORD_MAX_LENGTH = 256;

const SCRYPT_R = 8;
const SCRYPT_P = 1;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 256 * options.N! * SCRYPT_R }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$hash`: the hash says how it was made, so the cost can rise without breaking old hashes. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, { N: cost, r: SCRYPT_R, p: SCRYPT_P });
  return ['scrypt', cost, SCRYPT_R, SCRYPT_P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` is the one `stored` was made from; false for any stored value it cannot read. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash made when no person matches, so a wrong email costs the same time as a wrong password. */
export async function decoyHash(cost: number): Promise<string> {
  return hashPassword(randomBytes(12).toString('base64url'), cost);
}

/** The field errors of a password that may not be set; none when it may. */
export function passwordProblems(password: string, field = 'password'): { field: string; code: string; message: string }[] {
  if (password.length < PASSWORD_MIN_LENGTH) return [{ field, code: 'too_short', message: `The password must have at least ${PASSWORD_MIN_LENGTH} characters.` }];
  if (password.length > PASSWORD_MAX_LENGTH) return [{ field, code: 'too_long', message: `The password must have at most ${PASSWORD_MAX_LENGTH} characters.` }];
  return [];
}
