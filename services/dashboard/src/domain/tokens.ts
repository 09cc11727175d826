/** Random tokens (a session cookie, an account link, a CSRF field), what the database keeps of them, and how two are compared. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random token for a cookie, an account link or a CSRF field. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** What the database keeps of a token: its SHA-256. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Constant-time comparison of two strings. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
