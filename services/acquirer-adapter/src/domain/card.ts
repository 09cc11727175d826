/**
 * The card as it reaches the adapter: a compact JWE the checkout page's
 * server sealed for this service alone (ECDH-ES, A256GCM), bound to one
 * attempt so a captured envelope cannot pay for another.
 */
import { EnvelopeOpener } from '@gateway/contracts';
import type { CardData } from '../acquirer/acquirer.js';

export class UnreadableCard extends Error {
  constructor(reason: string) {
    super(`card data unreadable: ${reason}`);
    this.name = 'UnreadableCard';
  }
}

export class CardOpener {
  private constructor(private readonly opener: EnvelopeOpener) {}

  static fromJwk(jwk: string): CardOpener {
    return new CardOpener(new EnvelopeOpener(jwk));
  }

  /** Opens `jwe`; throws UnreadableCard when it is not a card sealed for `attemptId`. */
  open(jwe: string, attemptId: string): CardData {
    let fields: Record<string, unknown>;
    try {
      fields = JSON.parse(this.opener.open(jwe)) as Record<string, unknown>;
    } catch {
      throw new UnreadableCard('does not decrypt');
    }
    if (fields.attempt_id !== attemptId) throw new UnreadableCard('sealed for another attempt');
    const card = {
      pan: fields.pan,
      cvc: fields.cvc,
      expMonth: fields.exp_month,
      expYear: fields.exp_year,
      holder: fields.holder,
    };
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
      throw new UnreadableCard('fields missing or malformed');
    }
    return card as CardData;
  }
}

/** The card brand from its number's leading digits. */
export function cardBrand(pan: string): string {
  if (pan.startsWith('4')) return 'visa';
  const two = Number(pan.slice(0, 2));
  const four = Number(pan.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  if (two === 34 || two === 37) return 'amex';
  return 'unknown';
}

export function lastFour(pan: string): string {
  return pan.slice(-4);
}
