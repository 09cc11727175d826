/**
 * Checks a checkout link: the token of the session's signed checkout URL, a
 * compact JWS (RFC 7515, alg EdDSA) the session service signed, not expired.
 * Anything else is simply not a checkout link. Verified
 * with node:crypto, synchronously, as the session service signs: jose's
 * WebCrypto path cost more CPU on every page view (BENCHMARKS.md); a test
 * checks the two agree.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** The session a checkout link opens, and which of the session's checkout links it is (the session service's names). */
export interface CheckoutLinkRef {
  session_id: string;
  link_id: string;
}

const EXPECTED_HEADER = Buffer.from(JSON.stringify({ alg: 'EdDSA' })).toString('base64url');

interface Claims {
  ref: CheckoutLinkRef;
  exp: number;
  /** The payment link the session was made through, null for none; undefined when the token does not say (minted before tokens said it). */
  paymentLink: string | null | undefined;
}

/** Tokens whose signature was checked, so a buyer's page, payment and result cost one verification. */
const REMEMBERED = 10_000;

export class CheckoutLinkVerifier {
  private readonly verified = new Map<string, Claims>();

  private constructor(private readonly key: KeyObject) {}

  static fromJwk(jwk: string): CheckoutLinkVerifier {
    const parsed = JSON.parse(jwk) as Record<string, unknown>;
    if (parsed['kty'] !== 'OKP' || parsed['crv'] !== 'Ed25519') throw new Error('LINK_VERIFY_KEY must be a public Ed25519 JWK');
    return new CheckoutLinkVerifier(createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: String(parsed['x']) }, format: 'jwk' }));
  }

  /**
   * The session and checkout link a token names, or undefined when it is forged,
   * malformed or expired more than `graceSeconds` ago.
   */
  verify(token: string, now: Date, graceSeconds = 0): CheckoutLinkRef | undefined {
    return this.claims(token, now, graceSeconds)?.ref;
  }

  /**
   * The checkout link as `verify` gives it, with the payment link (D19) its
   * session was made through as the token states it: null for none,
   * undefined when the token does not say.
   */
  verifyWithPaymentLink(token: string, now: Date): { ref: CheckoutLinkRef; paymentLink: string | null | undefined } | undefined {
    return this.claims(token, now, 0);
  }

  private claims(token: string, now: Date, graceSeconds: number): Claims | undefined {
    const claims = this.verified.get(token) ?? this.check(token);
    if (!claims || (claims.exp + graceSeconds) * 1000 <= now.getTime()) return undefined;
    return claims;
  }

  private check(token: string): Claims | undefined {
    if (token.length > 1024) return undefined;
    const [header, payload, signature, extra] = token.split('.');
    if (header !== EXPECTED_HEADER || !payload || !signature || extra !== undefined) return undefined;
    try {
      if (!verify(null, Buffer.from(`${header}.${payload}`), this.key, Buffer.from(signature, 'base64url'))) return undefined;
      const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sid?: unknown; lid?: unknown; exp?: unknown; pl?: unknown };
      if (typeof parsed.sid !== 'string' || typeof parsed.lid !== 'string' || typeof parsed.exp !== 'number') return undefined;
      const paymentLink = typeof parsed.pl === 'string' ? parsed.pl || null : undefined;
      const claims = { ref: { session_id: parsed.sid, link_id: parsed.lid }, exp: parsed.exp, paymentLink };
      // Only genuine checkout links are remembered, oldest forgotten first.
      if (this.verified.size >= REMEMBERED) this.verified.delete(this.verified.keys().next().value ?? '');
      this.verified.set(token, claims);
      return claims;
    } catch {
      return undefined;
    }
  }
}
