/**
 * The sealed card between the checkout page's server and the acquirer
 * adapter: the card's fields and the attempt they may pay for, as JSON in a
 * compact JWE (RFC 7516) with direct ECDH-ES key agreement on P-256 and
 * A256GCM content encryption (RFC 7518 4.6 and 5.3), sealed for the
 * adapter's public key. Only the adapter holds the private key, so the
 * broker, logs and every other service see ciphertext; the attempt inside
 * means a captured sealed card cannot pay for another attempt.
 *
 * Standard, so jose reads what this writes and the other way round (a test
 * checks both); done with node:crypto's synchronous ECDH, SHA-256 and
 * AES-GCM because jose's WebCrypto path cost about ten times the CPU per
 * payment on the hot path (BENCHMARKS.md).
 *
 * One ephemeral key seals a checkout process's cards for ten minutes (or a
 * million cards), each with its own random IV, and the adapter keeps the
 * content key of the ephemeral keys it has seen: a key agreement per process
 * pair and period instead of two per card (decision 0023). Only the content
 * key is kept, in memory; the process that holds it sees the cards in clear
 * anyway, and a key's cards can no longer be opened from the checkout once
 * the next key replaces it.
 *
 * The ephemeral key is an ECDH object, never a KeyObject from
 * generateKeyPairSync: exporting a KeyObject that generateKeyPairSync has
 * just made can deadlock Node 20 (a garbage collection during the export
 * finalizes the generation job, which locks the key being exported). X25519,
 * which createECDH does not offer, was tried that way and hung a process.
 */
import { createCipheriv, createDecipheriv, createECDH, createHash, randomBytes, type ECDH } from 'node:crypto';

/** A card as the buyer typed it and the acquirer needs it; lives only in memory, never logged or stored. */
export interface Card {
  readonly pan: string;
  readonly cvc: string;
  readonly expMonth: string;
  readonly expYear: string;
  readonly holder: string;
}

/** A sealed card that does not open for the attempt: malformed, for another key or attempt, or altered. */
export class SealedCardError extends Error {
  constructor(reason: string) {
    super(`card data unreadable: ${reason}`);
    this.name = 'SealedCardError';
  }
}

interface EcJwk {
  kty?: unknown;
  crv?: unknown;
  x?: unknown;
  y?: unknown;
  d?: unknown;
}

const CURVE = 'prime256v1';
const ENC = 'A256GCM';

/** Why a JWK or a JWE does not read; the sealer and opener say which key or card it was about. */
class Unreadable extends Error {}

function coordinate(value: unknown, what: string): Buffer {
  if (typeof value !== 'string') throw new Unreadable(`${what} missing`);
  const bytes = Buffer.from(value, 'base64url');
  if (bytes.length !== 32) throw new Unreadable(`${what} is not a P-256 coordinate`);
  return bytes;
}

function publicPoint(jwk: EcJwk): Buffer {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') throw new Unreadable('key is not an EC P-256 JWK');
  return Buffer.concat([Buffer.from([4]), coordinate(jwk.x, 'x'), coordinate(jwk.y, 'y')]);
}

/** Reads the configured key `jwk` with `read`; a key that does not read stops the start, naming why. */
function configuredKey<T>(jwk: string, read: (parsed: EcJwk) => T): T {
  try {
    return read(JSON.parse(jwk) as EcJwk);
  } catch (err) {
    throw new TypeError(`card sealing key: ${err instanceof Unreadable ? err.message : 'not a JSON JWK'}`, { cause: err });
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

/** How long one ephemeral key seals cards, and for how many at most (far below AES-GCM's bound for random 96-bit IVs under one key). */
const EPHEMERAL_KEY_LIFETIME_MS = 10 * 60_000;
const EPHEMERAL_KEY_MAX_CARDS = 1_000_000;

/** An ephemeral key's JWE header and the content key it agreed with the recipient; its private half is not kept. */
interface EphemeralKey {
  header: string;
  key: Buffer;
  drawnAt: number;
  cards: number;
}

/** Seals cards for the holder of the private half of a public JWK (the acquirer adapter). */
export class CardSealer {
  private ephemeral: EphemeralKey | undefined;

  private constructor(
    private readonly recipient: Buffer,
    private readonly clock: () => number,
  ) {}

  /** A sealer for the recipient's public JWK; throws when it is not an EC P-256 one. `clock` (ms) says when its ephemeral key is due for replacement. */
  static fromJwk(publicJwk: string, clock: () => number = Date.now): CardSealer {
    return new CardSealer(configuredKey(publicJwk, publicPoint), clock);
  }

  /** `card` sealed for the recipient and bound to `attemptId`. */
  seal(card: Card, attemptId: string): string {
    return this.sealText(
      JSON.stringify({ attempt_id: attemptId, pan: card.pan, cvc: card.cvc, exp_month: card.expMonth, exp_year: card.expYear, holder: card.holder }),
    );
  }

  /** A saved card's security code (D24) sealed for the recipient and bound to `attemptId`: the only card data a one-click payment carries. */
  sealCode(cvc: string, attemptId: string): string {
    return this.sealText(JSON.stringify({ attempt_id: attemptId, cvc }));
  }

  /**
   * Another secret only the adapter may read (D26: a merchant's Flouci private
   * key, from the dashboard), bound to `scope` (what it is and whose): it
   * crosses the broker sealed, never in clear, and opens for that scope alone.
   */
  sealSecret(secret: string, scope: string): string {
    return this.sealText(JSON.stringify({ scope, secret }));
  }

  private sealText(plaintext: string): string {
    const { header, key } = this.currentKey();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(header, 'ascii'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${header}..${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  /** The ephemeral key to seal the next card with: the one in use, or a fresh one once it is old or has sealed its share. */
  private currentKey(): EphemeralKey {
    const now = this.clock();
    let current = this.ephemeral;
    if (!current || now - current.drawnAt >= EPHEMERAL_KEY_LIFETIME_MS || current.cards >= EPHEMERAL_KEY_MAX_CARDS) {
      const ephemeral = createECDH(CURVE);
      const epkPoint = ephemeral.generateKeys();
      const epk = { kty: 'EC', crv: 'P-256', x: epkPoint.subarray(1, 33).toString('base64url'), y: epkPoint.subarray(33, 65).toString('base64url') };
      current = {
        header: Buffer.from(JSON.stringify({ alg: 'ECDH-ES', enc: ENC, epk })).toString('base64url'),
        key: contentKey(ephemeral.computeSecret(this.recipient)),
        drawnAt: now,
        cards: 0,
      };
      this.ephemeral = current;
    }
    current.cards += 1;
    return current;
  }
}

/** Content keys the opener keeps, by the JWE header that names their ephemeral key: a few checkout replicas, each on one key at a time. */
const KEPT_CONTENT_KEYS = 64;

/** Opens cards sealed for the public half of a private JWK. */
export class CardOpener {
  /** Content keys agreed with ephemeral keys seen before, by JWE header, oldest first. */
  private readonly contentKeys = new Map<string, Buffer>();

  private constructor(private readonly ecdh: ECDH) {}

  /** An opener with the private JWK; throws when it is not an EC P-256 one. */
  static fromJwk(privateJwk: string): CardOpener {
    return new CardOpener(
      configuredKey(privateJwk, (jwk) => {
        publicPoint(jwk);
        const ecdh = createECDH(CURVE);
        ecdh.setPrivateKey(coordinate(jwk.d, 'd'));
        return ecdh;
      }),
    );
  }

  /** The card sealed in `sealed`; throws SealedCardError when it is not a card sealed for `attemptId`. */
  open(sealed: string, attemptId: string): Card {
    const fields = this.openFields(sealed, attemptId);
    const card = { pan: fields.pan, cvc: fields.cvc, expMonth: fields.exp_month, expYear: fields.exp_year, holder: fields.holder };
    if (
      typeof card.pan !== 'string' ||
      !/^[0-9]{12,19}$/.test(card.pan) ||
      typeof card.cvc !== 'string' ||
      !/^[0-9]{3,4}$/.test(card.cvc) ||
      typeof card.expMonth !== 'string' ||
      !/^(0[1-9]|1[0-2])$/.test(card.expMonth) ||
      typeof card.expYear !== 'string' ||
      !/^[0-9]{4}$/.test(card.expYear) ||
      typeof card.holder !== 'string'
    ) {
      throw new SealedCardError('fields missing or malformed');
    }
    return card as Card;
  }

  /** The security code sealed by sealCode; throws SealedCardError when it is not one sealed for `attemptId`. */
  openCode(sealed: string, attemptId: string): string {
    const { cvc } = this.openFields(sealed, attemptId);
    if (typeof cvc !== 'string' || !/^[0-9]{3,4}$/.test(cvc)) throw new SealedCardError('fields missing or malformed');
    return cvc;
  }

  /** The secret sealed by sealSecret; throws SealedCardError when it is not one sealed for `scope`. */
  openSecret(sealed: string, scope: string): string {
    const fields = this.decrypted(sealed);
    if (fields.scope !== scope || typeof fields.secret !== 'string') throw new SealedCardError('sealed for another use');
    return fields.secret;
  }

  private openFields(sealed: string, attemptId: string): Record<string, unknown> {
    const fields = this.decrypted(sealed);
    if (fields.attempt_id !== attemptId) throw new SealedCardError('sealed for another attempt');
    return fields;
  }

  private decrypted(sealed: string): Record<string, unknown> {
    try {
      return JSON.parse(this.openText(sealed)) as Record<string, unknown>;
    } catch {
      throw new SealedCardError('does not decrypt');
    }
  }

  /** The plaintext of a compact JWE; throws when it is malformed, for another key, or altered. */
  private openText(jwe: string): string {
    const parts = jwe.split('.');
    if (parts.length !== 5 || parts[1] !== '') throw new Unreadable('not a compact JWE with direct key agreement');
    const [header = '', , iv = '', ciphertext = '', tag = ''] = parts;
    // The header is authenticated with the content: a key kept for a header opens only what was sealed under it.
    const kept = this.contentKeys.get(header);
    const key = kept ?? this.agree(header);
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== 12 || tagBytes.length !== 16) throw new Unreadable('iv or tag malformed');
    const decipher = createDecipheriv('aes-256-gcm', key, ivBytes);
    decipher.setAAD(Buffer.from(header, 'ascii'));
    decipher.setAuthTag(tagBytes);
    const plaintext = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    // Kept once a card opened under it: what does not open leaves nothing behind.
    if (!kept) this.keep(header, key);
    return plaintext;
  }

  /** The content key of a JWE header's ephemeral key. */
  private agree(header: string): Buffer {
    const parsed = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown; enc?: unknown; epk?: EcJwk; crit?: unknown };
    if (parsed.alg !== 'ECDH-ES' || parsed.enc !== ENC || parsed.crit !== undefined || !parsed.epk) throw new Unreadable('unexpected algorithms');
    return contentKey(this.ecdh.computeSecret(publicPoint(parsed.epk)));
  }

  private keep(header: string, key: Buffer): void {
    if (this.contentKeys.size >= KEPT_CONTENT_KEYS) this.contentKeys.delete(this.contentKeys.keys().next().value ?? '');
    this.contentKeys.set(header, key);
  }
}
