/**
 * Seals the card for the acquirer adapter, bound to one attempt. Only the
 * adapter holds the private key, so the broker, logs and every other
 * service see ciphertext.
 */
import { EnvelopeSealer } from '@gateway/contracts';
import type { CardInput } from './card-form.js';

export class CardSealer {
  private constructor(private readonly sealer: EnvelopeSealer) {}

  static fromJwk(jwk: string): CardSealer {
    return new CardSealer(new EnvelopeSealer(jwk));
  }

  seal(card: CardInput, attemptId: string): string {
    return this.sealer.seal(
      JSON.stringify({ attempt_id: attemptId, pan: card.pan, cvc: card.cvc, exp_month: card.expMonth, exp_year: card.expYear, holder: card.holder }),
    );
  }
}
