/**
 * Checks a hosted-page link: a compact JWS (EdDSA) the session service
 * signed, not expired. Anything else is simply not a link.
 */
import { compactVerify, importJWK, type CryptoKey, type JWK } from 'jose';

export interface LinkRef {
  session_id: string;
  link_id: string;
}

const decoder = new TextDecoder();

export class LinkVerifier {
  private constructor(private readonly key: CryptoKey | Uint8Array) {}

  static async fromJwk(jwk: string): Promise<LinkVerifier> {
    return new LinkVerifier(await importJWK(JSON.parse(jwk) as JWK, 'EdDSA'));
  }

  /** The session and link a token names, or undefined when it is forged, malformed or expired. */
  async verify(token: string, now: Date): Promise<LinkRef | undefined> {
    if (token.length > 1024) return undefined;
    try {
      const { payload } = await compactVerify(token, this.key, { algorithms: ['EdDSA'] });
      const claims = JSON.parse(decoder.decode(payload)) as { sid?: unknown; lid?: unknown; exp?: unknown };
      if (typeof claims.sid !== 'string' || typeof claims.lid !== 'string' || typeof claims.exp !== 'number') return undefined;
      if (claims.exp * 1000 <= now.getTime()) return undefined;
      return { session_id: claims.sid, link_id: claims.lid };
    } catch {
      return undefined;
    }
  }
}
