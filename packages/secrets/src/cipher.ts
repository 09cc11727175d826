/**
 * The two AES-256-GCM layers of secrets at rest (D17) and their stored
 * forms. A secret is sealed with a data key (DEK) and bound, as additional
 * authenticated data, to what it protects; a DEK is kept as a wrapped key,
 * sealed with the key-encryption key (KEK) and bound to its own id. GCM's tag makes any
 * change, and any other binding, fail to open.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
/** 96-bit nonces, random: far fewer than 2^32 seals per key keeps their collision negligible. */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** The only ciphertext format so far; the prefix lets a later one be told apart. */
const VERSION = 'v1';

/** Something that is not a ciphertext, or does not open with the key and binding given. */
export class SecretsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsError';
  }
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');

function seal(key: Buffer, plaintext: Buffer, aad: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return `${b64url(iv)}.${b64url(sealed)}`;
}

/** Opens `iv.sealed`; undefined when it was not sealed with `key` for `aad`, or was altered. */
function open(key: Buffer, iv64: string, sealed64: string, aad: string): Buffer | undefined {
  const iv = Buffer.from(iv64, 'base64url');
  const sealed = Buffer.from(sealed64, 'base64url');
  if (iv.length !== IV_BYTES || sealed.length < TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
}

/**
 * A short public name of a KEK, stored beside each DEK it wraps: the first
 * 8 bytes of a SHA-256 of it, under a label of its own so the hash is of no
 * use for anything else.
 */
export function kekId(kek: Buffer): string {
  return createHash('sha256').update('gateway-secrets-kek-id\0').update(kek).digest('hex').slice(0, 16);
}

/** A new random DEK. */
export function newDataKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/** A new DEK id: `dk_` and 16 hex digits, no dot (the ciphertext's separator). */
export function newDataKeyId(): string {
  return `dk_${randomBytes(8).toString('hex')}`;
}

const wrapAad = (dataKeyId: string) => `data_keys:${dataKeyId}`;

/** The DEK `dataKeyId` sealed with `kek`, as stored in data_keys.wrapped_key. */
export function wrapDataKey(kek: Buffer, dataKeyId: string, dataKey: Buffer): string {
  return seal(kek, dataKey, wrapAad(dataKeyId));
}

/** The DEK of a data_keys row; throws when `kek` did not wrap it or the row was altered or moved. */
export function unwrapDataKey(kek: Buffer, dataKeyId: string, wrapped: string): Buffer {
  const [iv, sealed, ...rest] = wrapped.split('.');
  const key = iv !== undefined && sealed !== undefined && rest.length === 0 ? open(kek, iv, sealed, wrapAad(dataKeyId)) : undefined;
  if (!key || key.length !== KEY_BYTES) throw new SecretsError(`data key ${dataKeyId} does not unwrap with key-encryption key ${kekId(kek)}`);
  return key;
}

/** `plaintext` sealed with the DEK `dataKeyId` and bound to `aad`: `v1.<dek id>.<iv>.<ciphertext+tag>`. */
export function encryptWith(dataKeyId: string, dataKey: Buffer, plaintext: string, aad: string): string {
  return `${VERSION}.${dataKeyId}.${seal(dataKey, Buffer.from(plaintext, 'utf8'), aad)}`;
}

/** The parts of a ciphertext; throws when it is not one. */
export function parseCiphertext(ciphertext: string): { dataKeyId: string; iv: string; sealed: string } {
  const [version, dataKeyId, iv, sealed, ...rest] = ciphertext.split('.');
  if (version !== VERSION || !dataKeyId || !iv || !sealed || rest.length > 0) throw new SecretsError('not a v1 ciphertext');
  return { dataKeyId, iv, sealed };
}

/** The plaintext of `ciphertext` opened with its DEK; throws when it was bound to anything but `aad`, or altered. */
export function decryptWith(dataKey: Buffer, ciphertext: string, aad: string): string {
  const { dataKeyId, iv, sealed } = parseCiphertext(ciphertext);
  const plaintext = open(dataKey, iv, sealed, aad);
  // Names the binding, never the ciphertext: the binding says which row and column failed.
  if (!plaintext) throw new SecretsError(`a secret does not decrypt with data key ${dataKeyId} for ${aad}: it belongs elsewhere or was altered`);
  return plaintext.toString('utf8');
}
