/**
 * Identifiers (DECISIONS D7): a prefix, an underscore and random base62
 * characters; order numbers in upper-case Crockford base32.
 */
import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

// Entropy is drawn from the kernel in blocks rather than per identifier: one
// system call serves dozens of ids on the hot path.
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

function randomByte(): number {
  if (offset === POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const byte = pool[offset] ?? 0;
  // A byte is used once, then forgotten.
  pool[offset] = 0;
  offset += 1;
  return byte;
}

/** `length` characters drawn uniformly from `alphabet` (rejection sampling keeps it unbiased). */
export function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

type IdPrefix = 'ps' | 'pa' | 're' | 'evt' | 'whd' | 'we' | 'mer' | 'key' | 'cl' | 'cmd' | 'usr' | 'opr' | 'cap' | 'txn' | 'pl' | 'ml' | 'cus' | 'pm';

/**
 * The identifier an effect of `seed` (a command's id, say) takes: the same
 * seed always gives the same id, so the effect of a command delivered twice
 * is recognised by its id. 24 base62 characters from a SHA-256 of the seed.
 */
export function idFrom(prefix: IdPrefix, seed: string): string {
  const digest = createHash('sha256').update(seed, 'utf8').digest();
  let out = '';
  for (const byte of digest.subarray(0, 24)) out += BASE62[byte % BASE62.length];
  return `${prefix}_${out}`;
}

/** A new public identifier such as `ps_4f9...` (24 random base62 characters, about 143 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomString(BASE62, 24)}`;
}

/** Six random upper-case Crockford base32 characters, the random part of an order number. */
export function orderNumberSuffix(): string {
  return randomString(CROCKFORD, 6);
}

/** A secret credential: prefix plus 32 base62 characters (about 190 bits). */
export function newSecret(prefix: 'sk_test_' | 'sk_live_' | 'whsec_'): string {
  return `${prefix}${randomString(BASE62, 32)}`;
}
