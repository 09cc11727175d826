/**
 * The card envelope between the checkout page's server and the acquirer
 * adapter: a compact JWE (RFC 7516) with direct ECDH-ES key agreement on
 * P-256 and A256GCM content encryption (RFC 7518 4.6 and 5.3), sealed for
 * the adapter's public key. Standard, so jose reads what this writes and the
 * other way round (a test checks both); done with node:crypto's synchronous
 * ECDH, SHA-256 and AES-GCM because jose's WebCrypto path cost about ten
 * times the CPU per payment on the hot path (BENCHMARKS.md).
 *
 * The ephemeral key is an ECDH object, never a KeyObject from
 * generateKeyPairSync: exporting a KeyObject that generateKeyPairSync has
 * just made can deadlock Node 20 (a garbage collection during the export
 * finalizes the generation job, which locks the key being exported). X25519,
 * which createECDH does not offer, was tried that way and hung a process.
 */
import { createCipheriv, createDecipheriv, createECDH, createHash, randomBytes, type ECDH } from 'node:crypto';

interface EcJwk {
  kty?: unknown;
  crv?: unknown;
  x?: unknown;
  y?: unknown;
  d?: unknown;
}

const CURVE = 'prime256v1';
const ENC = 'A256GCM';

export class EnvelopeError extends Error {
  constructor(reason: string) {
    super(`card envelope: ${reason}`);
    this.name = 'EnvelopeError';
  }
}

function coordinate(value: unknown, what: string): Buffer {
  if (typeof value !== 'string') throw new EnvelopeError(`${what} missing`);
  const bytes = Buffer.from(value, 'base64url');
  if (bytes.length !== 32) throw new EnvelopeError(`${what} is not a P-256 coordinate`);
  return bytes;
}

function publicPoint(jwk: EcJwk): Buffer {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') throw new EnvelopeError('key is not an EC P-256 JWK');
  return Buffer.concat([Buffer.from([4]), coordinate(jwk.x, 'x'), coordinate(jwk.y, 'y')]);
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
  private readonly recipient: Buffer;

  constructor(publicJwk: string) {
    this.recipient = publicPoint(JSON.parse(publicJwk) as EcJwk);
  }

  seal(plaintext: string): string {
    const ephemeral = createECDH(CURVE);
    const epkPoint = ephemeral.generateKeys();
    const key = contentKey(ephemeral.computeSecret(this.recipient));
    const epk = { kty: 'EC', crv: 'P-256', x: epkPoint.subarray(1, 33).toString('base64url'), y: epkPoint.subarray(33, 65).toString('base64url') };
    const header = Buffer.from(JSON.stringify({ alg: 'ECDH-ES', enc: ENC, epk })).toString('base64url');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(header, 'ascii'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${header}..${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }
}

/** Opens envelopes sealed for the private JWK's public half. */
export class EnvelopeOpener {
  private readonly ecdh: ECDH;

  constructor(privateJwk: string) {
    const jwk = JSON.parse(privateJwk) as EcJwk;
    publicPoint(jwk);
    this.ecdh = createECDH(CURVE);
    this.ecdh.setPrivateKey(coordinate(jwk.d, 'd'));
  }

  /** The plaintext; throws EnvelopeError when the envelope is malformed, for another key, or altered. */
  open(envelope: string): string {
    const parts = envelope.split('.');
    if (parts.length !== 5 || parts[1] !== '') throw new EnvelopeError('not a compact JWE with direct key agreement');
    const [header = '', , iv = '', ciphertext = '', tag = ''] = parts;
    let parsed: { alg?: unknown; enc?: unknown; epk?: EcJwk; crit?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as typeof parsed;
    } catch {
      throw new EnvelopeError('header unreadable');
    }
    if (parsed.alg !== 'ECDH-ES' || parsed.enc !== ENC || parsed.crit !== undefined || !parsed.epk) throw new EnvelopeError('unexpected algorithms');
    let key: Buffer;
    try {
      key = contentKey(this.ecdh.computeSecret(publicPoint(parsed.epk)));
    } catch (err) {
      throw err instanceof EnvelopeError ? err : new EnvelopeError('ephemeral key is not on the curve');
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
