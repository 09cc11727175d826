/**
 * The card fields of paymentorder.do, checked and reduced to what may be kept:
 * the masked number, the expiry, the name, the D8 behaviour and a keyed
 * fingerprint that tells the same card again (D24's saved cards). The full
 * number and the security code go no further than this file.
 */
import { createHmac } from 'node:crypto';
import { findTestCard, luhnValid, type TestCardBehaviour } from '@gateway/test-cards';
import { invalid, missing } from './epg-error.js';

export interface CardForm {
  readonly pan: string | undefined;
  readonly cvc: string | undefined;
  readonly year: string | undefined;
  readonly month: string | undefined;
  readonly cardholderName: string | undefined;
}

/** What the sandbox keeps of a card. */
export interface CardDetails {
  /** First six digits, `**`, last four: `424242**4242`. */
  readonly maskedPan: string;
  /** `YYYYMM`. */
  readonly expiration: string;
  readonly cardholderName: string;
  readonly behaviour: TestCardBehaviour;
  /** HMAC-SHA256 of the full number under the sandbox's card key: the same card, whatever its mask shares with another. Never answered or logged. */
  readonly fingerprint: string;
}

const MAX_NAME_LENGTH = 128;

/** Checks the card fields (missing → "4", malformed → "5") and decides what the card does at `now`; `cardKey` keys its fingerprint. */
export function readCard(form: CardForm, now: Date, cardKey: Buffer): CardDetails {
  const { pan, cvc, year, month } = form;
  if (pan === undefined) throw missing('$PAN');
  if (cvc === undefined) throw missing('$CVC');
  if (year === undefined) throw missing('YYYY');
  if (month === undefined) throw missing('MM');
  if (!luhnValid(pan)) throw invalid('$PAN');
  if (!/^[0-9]{3,4}$/.test(cvc)) throw invalid('$CVC');
  if (!/^[0-9]{4}$/.test(year)) throw invalid('YYYY');
  if (!/^(0[1-9]|1[0-2])$/.test(month)) throw invalid('MM');
  const cardholderName = form.cardholderName ?? '';
  if (cardholderName.length > MAX_NAME_LENGTH) throw invalid('TEXT');
  const expiration = `${year}${month}`;
  return {
    maskedPan: maskPan(pan),
    expiration,
    cardholderName,
    behaviour: isExpired(expiration, now) ? 'expired_card' : (findTestCard(pan)?.behaviour ?? 'approve'),
    fingerprint: createHmac('sha256', cardKey).update(pan, 'utf8').digest('base64url'),
  };
}

/** The BPC masked form of a card number: first six digits, `**`, last four. */
export function maskPan(pan: string): string {
  return `${pan.slice(0, 6)}**${pan.slice(-4)}`;
}

/** True when the card's last valid month (`YYYYMM`) is before the UTC month of `now`. */
export function isExpired(expiration: string, now: Date): boolean {
  const current = String(now.getUTCFullYear()).padStart(4, '0') + String(now.getUTCMonth() + 1).padStart(2, '0');
  return expiration < current;
}
