/**
 * Seals the card for the acquirer adapter (compact JWE, ECDH-ES with
 * A256GCM), bound to one attempt. Only the adapter holds the private key,
 * so the broker, logs and every other service see ciphertext.
 */
import { CompactEncrypt, importJWK, type CryptoKey, type JWK } from 'jose';
import type { CardInput } from './card-form.js';

const encoder = new TextEncoder();

export class CardSealer {
  private constructor(private readonly key: CryptoKey | Uint8Array) {}

  static async fromJwk(jwk: string): Promise<CardSealer> {
    return new CardSealer(await importJWK(JSON.parse(jwk) as JWK, 'ECDH-ES'));
  }

  async seal(card: CardInput, attemptId: string): Promise<string> {
    const plaintext = encoder.encode(
      JSON.stringify({ attempt_id: attemptId, pan: card.pan, cvc: card.cvc, exp_month: card.expMonth, exp_year: card.expYear, holder: card.holder }),
    );
    return new CompactEncrypt(plaintext).setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM' }).encrypt(this.key);
  }
}
