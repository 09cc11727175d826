/**
 * Hosted-page links. A link is a token signed with the session service's
 * Ed25519 key: the checkout service verifies it with the public key alone, so
 * a link works the moment it is minted, and nobody else can mint one.
 */
import { CompactSign, importJWK, type CryptoKey } from 'jose';
import { newId } from '@gateway/contracts';

export interface LinkClaims {
  /** Session id. */
  sid: string;
  /** Link id. */
  lid: string;
  /** Expiry, Unix seconds. */
  exp: number;
}

export interface MintedLink {
  id: string;
  token: string;
  expiresAt: Date;
}

export class LinkSigner {
  private constructor(private readonly key: CryptoKey) {}

  /** Imports the private JWK (JSON text) of an Ed25519 key. */
  static async fromJwk(jwkJson: string): Promise<LinkSigner> {
    const jwk = JSON.parse(jwkJson) as Record<string, unknown>;
    if (jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519' || typeof jwk['d'] !== 'string') {
      throw new Error('LINK_SIGNING_KEY must be a private Ed25519 JWK');
    }
    return new LinkSigner((await importJWK(jwk, 'EdDSA')) as CryptoKey);
  }

  /** A new link for `sessionId`, living until `expiresAt`. */
  async mint(sessionId: string, expiresAt: Date): Promise<MintedLink> {
    const id = newId('cl');
    const claims: LinkClaims = { sid: sessionId, lid: id, exp: Math.floor(expiresAt.getTime() / 1000) };
    const token = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg: 'EdDSA' }).sign(this.key);
    return { id, token, expiresAt };
  }
}

/** A link lives CHECKOUT_LINK_TTL_SECONDS, never past its session's expiry (D4). */
export function linkExpiry(now: Date, linkTtlSeconds: number, sessionExpiresAt: Date): Date {
  const natural = new Date(now.getTime() + linkTtlSeconds * 1000);
  // Whole seconds, so the token's exp and the stored expiry agree exactly.
  const capped = natural < sessionExpiresAt ? natural : sessionExpiresAt;
  return new Date(Math.floor(capped.getTime() / 1000) * 1000);
}

/** At most this many unexpired links per session, the one minted at create included (D4). */
export const MAX_ACTIVE_LINKS = 5;
