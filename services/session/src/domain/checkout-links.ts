/**
 * Checkout links: the hosted page's signed URLs. A checkout link's token is a
 * compact JWS (RFC 7515, alg EdDSA) signed with the session service's Ed25519
 * key: the checkout service verifies it with the public key alone (jose), so
 * a checkout link works the moment it is minted, and nobody else can mint one.
 *
 * Signing uses node:crypto directly rather than jose: jose signs through
 * WebCrypto, whose asynchronous job cost about 76 µs per checkout link on the
 * create path against 28 µs for the same Ed25519 signature done synchronously
 * (BENCHMARKS.md). The token format is the standard one; a test verifies it with jose.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { newId } from '@gateway/contracts';

interface CheckoutLinkClaims {
  /** Session id. */
  sid: string;
  /** Checkout link id. */
  lid: string;
  /** Expiry, Unix seconds. */
  exp: number;
  /**
   * The payment link (D19) the session was made through, or "" for none: the
   * hosted page then knows whether a card needs the link's slot without a
   * read of its own. Tokens minted before it was added do not carry it.
   */
  pl: string;
}

export interface MintedCheckoutLink {
  id: string;
  token: string;
  expiresAt: Date;
}

const PROTECTED_HEADER = Buffer.from(JSON.stringify({ alg: 'EdDSA' })).toString('base64url');

export class CheckoutLinkSigner {
  private constructor(private readonly key: KeyObject) {}

  /** Imports the private JWK (JSON text) of an Ed25519 key. */
  static async fromJwk(jwkJson: string): Promise<CheckoutLinkSigner> {
    const jwk = JSON.parse(jwkJson) as Record<string, unknown>;
    if (jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519' || typeof jwk['d'] !== 'string') {
      throw new Error('LINK_SIGNING_KEY must be a private Ed25519 JWK');
    }
    return new CheckoutLinkSigner(createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' }));
  }

  /** A new checkout link for `sessionId` (made through `paymentLink`, or null), living until `expiresAt`. */
  async mint(sessionId: string, paymentLink: string | null, expiresAt: Date): Promise<MintedCheckoutLink> {
    const id = newId('cl');
    const claims: CheckoutLinkClaims = { sid: sessionId, lid: id, exp: Math.floor(expiresAt.getTime() / 1000), pl: paymentLink ?? '' };
    const signingInput = `${PROTECTED_HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const signature = sign(null, Buffer.from(signingInput), this.key).toString('base64url');
    return { id, token: `${signingInput}.${signature}`, expiresAt };
  }
}

/** A checkout link lives CHECKOUT_LINK_TTL_SECONDS, never past its session's expiry (D4). */
export function checkoutLinkExpiry(now: Date, ttlSeconds: number, sessionExpiresAt: Date): Date {
  const natural = new Date(now.getTime() + ttlSeconds * 1000);
  // Whole seconds, so the token's exp and the stored expiry agree exactly.
  const capped = natural < sessionExpiresAt ? natural : sessionExpiresAt;
  return new Date(Math.floor(capped.getTime() / 1000) * 1000);
}

/** At most this many unexpired checkout links per session, the one minted at create included (D4). */
export const MAX_ACTIVE_CHECKOUT_LINKS = 5;
