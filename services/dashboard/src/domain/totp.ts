/**
 * Time-based one-time passwords (RFC 6238, RFC 4226): the second factor's
 * secret, the six-digit code of each 30-second step, and the otpauth:// URI
 * an authenticator app reads.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { sameText } from './tokens.js';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const TOTP_STEP_SECONDS = 30;
const TOTP_DIGITS = 6;

/** A new TOTP secret, base32 (what authenticator apps take). */
export function newTotpSecret(): string {
  const bytes = randomBytes(20);
  let bits = '';
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i + 5 <= bits.length; i += 5) out += BASE32[parseInt(bits.slice(i, i + 5), 2)];
  return out;
}

function base32Bytes(secret: string): Buffer {
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error('not base32');
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The code of `secret` for the 30-second step `step`. */
export function totpCode(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Bytes(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** TOTP_DIGITS;
  return String(value).padStart(TOTP_DIGITS, '0');
}

/** The current step; a code is taken from the step before and after too (clock drift). */
export function totpStep(at: number = Date.now()): number {
  return Math.floor(at / 1000 / TOTP_STEP_SECONDS);
}

/** The step `code` is valid for around `at`, or undefined. */
export function matchTotp(secret: string, code: string, at: number = Date.now()): number | undefined {
  const given = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(given)) return undefined;
  const now = totpStep(at);
  return [now, now - 1, now + 1].find((step) => sameText(totpCode(secret, step), given));
}

/** The otpauth:// URI an authenticator app reads (typed in, or from a QR code). */
export function totpUri(secret: string, account: string, issuer: string): string {
  return `otpauth://totp/${encodeURIComponent(`${issuer}:${account}`)}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&digits=${TOTP_DIGITS}&period=${TOTP_STEP_SECONDS}`;
}
