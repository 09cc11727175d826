/**
 * The card envelope between the checkout page's server and the acquirer
 * adapter: a compact JWE (RFC 7516) with direct ECDH-ES key agreement on
 * X25519 (RFC 8037) and A256GCM content encryption (RFC 7518 4.6 and 5.3),
 * sealed for the adapter's public key. Standard, so jose reads what this
 * writes and the other way round (a test checks both); done with
 * node:crypto's synchronous X25519, SHA-256 and AES-GCM because jose's
 * WebCrypto path cost about ten times the CPU per payment on the hot path,
 * and X25519 costs half of what P-256 did (BENCHMARKS.md).
 */
import { createCipheriv, createDecipheriv, createHash, createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';

interface OkpJwk {
  kty?: unknown;
  crv?: unknown;
  x?: unknown;
  d?: unknown;
}

const ENC = 'A256GCM';

export class EnvelopeError extends Error {
  constructor(reason: string) {
    super(`card envelope: ${reason}`);
    this.name = 'EnvelopeError';
  }
}

/** The X25519 public key of an OKP JWK (the public half of a private one too). */
function publicKeyOf(jwk: OkpJwk): KeyObject {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'X25519') throw new EnvelopeError('key is not an X25519 JWK');
  if (typeof jwk.x !== 'string' || Buffer.from(jwk.x, 'base64url').length !== 32) throw new EnvelopeError('x is not an X25519 public key');
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: jwk.x }, format: 'jwk' });
  } catch {
    throw new EnvelopeError('x is not an X25519 public key');
  }
}

function lengthPrefixed(data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, data]);
}

/** Concat KDF (NIST SP 800-56A, RFC 7518 4.6.2) for a 256-bit A256GCM key, no PartyU/PartyV info. */
function contentKey(sharedSecret: Buffer): Buffer {
  const keyBits = Buffer.alloc(4);
  keyBits.writeUInt32BE(256);
  const otherInfo = Buffer.concat([lengthPrefixed(Buffer.from(ENC)), lengthPrefixed(Buffer.alloc(0)), lengthPrefixed(Buffer.alloc(0)), keyBits]);
  return createHash('sha256').update(Buffer.from([0, 0, 0, 1])).update(sharedSecret).update(otherInfo).digest();
}

/** Seals with the recipient's public JWK. */
export class EnvelopeSealer {
  private readonly recipient: KeyObject;

  constructor(publicJwk: string) {
    this.recipient = publicKeyOf(JSON.parse(publicJwk) as OkpJwk);
  }

  seal(plaintext: string): string {
    const ephemeral = generateKeyPairSync('x25519');
    const key = contentKey(diffieHellman({ privateKey: ephemeral.privateKey, publicKey: this.recipient }));
    const { x } = ephemeral.publicKey.export({ format: 'jwk' });
    const header = Buffer.from(JSON.stringify({ alg: 'ECDH-ES', enc: ENC, epk: { kty: 'OKP', crv: 'X25519', x } })).toString('base64url');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(header, 'ascii'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${header}..${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }
}

/** Opens envelopes sealed for the private JWK's public half. */
export class EnvelopeOpener {
  private readonly key: KeyObject;

  constructor(privateJwk: string) {
    const jwk = JSON.parse(privateJwk) as OkpJwk;
    publicKeyOf(jwk);
    if (typeof jwk.d !== 'string') throw new EnvelopeError('d missing');
    this.key = createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', x: jwk.x as string, d: jwk.d }, format: 'jwk' });
  }

  /** The plaintext; throws EnvelopeError when the envelope is malformed, for another key, or altered. */
  open(envelope: string): string {
    const parts = envelope.split('.');
    if (parts.length !== 5 || parts[1] !== '') throw new EnvelopeError('not a compact JWE with direct key agreement');
    const [header = '', , iv = '', ciphertext = '', tag = ''] = parts;
    let parsed: { alg?: unknown; enc?: unknown; epk?: OkpJwk; crit?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as typeof parsed;
    } catch {
      throw new EnvelopeError('header unreadable');
    }
    if (parsed.alg !== 'ECDH-ES' || parsed.enc !== ENC || parsed.crit !== undefined || !parsed.epk) throw new EnvelopeError('unexpected algorithms');
    let key: Buffer;
    try {
      key = contentKey(diffieHellman({ privateKey: this.key, publicKey: publicKeyOf(parsed.epk) }));
    } catch (err) {
      throw err instanceof EnvelopeError ? err : new EnvelopeError('ephemeral key is not usable');
    }
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== 12 || tagBytes.length !== 16) throw new EnvelopeError('iv or tag malformed');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, ivBytes);
      decipher.setAAD(Buffer.from(header, 'ascii'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new EnvelopeError('does not decrypt');
    }
  }
}
