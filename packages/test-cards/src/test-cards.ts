/**
 * The test cards of DECISIONS D8, D24 and D30, defined once: the sandbox
 * acquirer behaves by them, the adapter refuses them in live mode, and the
 * test-mode checkout page lists them.
 */

/** What the sandbox acquirer does with a card. */
export type TestCardBehaviour =
  | 'approve'
  /** 3-D Secure 1 (a legacy issuer): acsUrl and paReq, finished with the paRes the ACS posts back. */
  | 'challenge_3ds1'
  /** 3-D Secure 2: the 3DS Method step, then a challenge at the ACS. */
  | 'challenge_3ds2'
  /** 3-D Secure 2: the 3DS Method step, then approved without a challenge. */
  | 'frictionless_3ds2'
  /** 3-D Secure 2 without a 3DS Method URL: the issuer refuses authentication on the repeat (actionCode 151017). */
  | 'authentication_refused'
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'processing_error'
  | 'approve_refund_unconfirmed'
  /** Approved; reverse.do is refused (no reversal permission on the terminal), refund.do works. */
  | 'approve_reverse_refused'
  | 'approve_silently'
  // Approved; on a two-phase order the hold's deposit.do is what fails.
  | 'approve_capture_refused'
  | 'approve_capture_unconfirmed'
  | 'approve_capture_silently'
  // D24: approved on the page (and saved when asked); what fails is a later charge without the buyer.
  | 'approve_off_session_insufficient_funds'
  /** Approved on the page; the issuer wants the buyer for every charge without them (actionCode 2001). */
  | 'approve_off_session_authentication_required';

export interface TestCard {
  readonly number: string;
  readonly behaviour: TestCardBehaviour;
  /** What the test-mode banner says the card does. */
  readonly label: string;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', behaviour: 'approve', label: 'Approved (Visa)' },
  { number: '5555555555554444', behaviour: 'approve', label: 'Approved (Mastercard)' },
  { number: '4000000000003220', behaviour: 'challenge_3ds2', label: '3-D Secure 2: 3DS Method, then a challenge' },
  { number: '4000000000003238', behaviour: 'frictionless_3ds2', label: '3-D Secure 2: 3DS Method, then approved without a challenge' },
  { number: '4000000000003063', behaviour: 'challenge_3ds1', label: '3-D Secure 1 challenge (legacy issuer)' },
  { number: '4000000000003246', behaviour: 'authentication_refused', label: 'Declined: the issuer refuses authentication' },
  { number: '4000000000000002', behaviour: 'card_declined', label: 'Declined: card declined' },
  { number: '4000000000009995', behaviour: 'insufficient_funds', label: 'Declined: insufficient funds' },
  { number: '4000000000000069', behaviour: 'expired_card', label: 'Declined: expired card' },
  { number: '4000000000000127', behaviour: 'incorrect_cvc', label: 'Declined: incorrect security code' },
  { number: '4000000000000119', behaviour: 'processing_error', label: 'Fails: processing error' },
  { number: '4000000000005126', behaviour: 'approve_refund_unconfirmed', label: 'Approved; refunds cannot be confirmed' },
  { number: '4000000000006983', behaviour: 'approve_reverse_refused', label: 'Approved; reversal refused, refunds go through refund.do' },
  { number: '4000000000000036', behaviour: 'approve_silently', label: 'Acquirer does not answer in time' },
  { number: '4000000000007007', behaviour: 'approve_capture_refused', label: 'Approved; capture refused' },
  { number: '4000000000007015', behaviour: 'approve_capture_unconfirmed', label: 'Approved; capture cannot be confirmed' },
  { number: '4000000000007023', behaviour: 'approve_capture_silently', label: 'Approved; capture not answered in time' },
  { number: '4000000000003055', behaviour: 'approve_off_session_insufficient_funds', label: 'Approved and saved; later charges without the buyer declined: insufficient funds' },
  { number: '4000002760003184', behaviour: 'approve_off_session_authentication_required', label: 'Approved and saved; charges without the buyer fail: authentication required' },
];

const byNumber = new Map(TEST_CARDS.map((card) => [card.number, card]));

/** The D8, D24 or D30 test card with this number (digits only), if it is one. */
export function findTestCard(pan: string): TestCard | undefined {
  return byNumber.get(pan);
}

/** True when the digits pass the Luhn check. */
export function luhnValid(digits: string): boolean {
  if (!/^[0-9]{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
