/**
 * The issuer's answers (actionCode and actionCodeDescription) the sandbox gives:
 * approval, "nothing yet", and one distinct code per D8 failure.
 */

export interface Action {
  readonly code: number;
  readonly description: string;
}

export const APPROVED: Action = { code: 0, description: 'Approved' };
export const NO_PAYMENT_ATTEMPT: Action = { code: -100, description: 'No payment attempts' };
/** Same code as no attempt: the payment is not finished until the issuer authenticates. */
export const AUTHENTICATING: Action = { code: -100, description: '3-D Secure authentication in progress' };

/** Why a payment attempt failed, each with its own actionCode. */
export const DECLINES = {
  card_declined: { code: 100, description: 'Declined: do not honour' },
  insufficient_funds: { code: 116, description: 'Declined: insufficient funds' },
  expired_card: { code: 101, description: 'Declined: expired card' },
  incorrect_cvc: { code: 2004, description: 'Declined: incorrect security code' },
  processing_error: { code: 909, description: 'System malfunction' },
  authentication_failed: { code: 2006, description: '3-D Secure authentication failed' },
  /** ACQUIRER.md: the issuer refused authentication (D30's card 3246). */
  authentication_refused: { code: 151017, description: 'Declined: the issuer refused 3-D Secure authentication' },
  /** ACQUIRER.md "Saved cards": the issuer wants the buyer for a charge without them (D24's card 3184). */
  authentication_required: { code: 2001, description: 'Declined: the issuer requires the cardholder to authenticate' },
} as const satisfies Record<string, Action>;

export type DeclineReason = keyof typeof DECLINES;

/** Electronic Commerce Indicator of a fully authenticated payment (3-D Secure 1 or 2). */
export const ECI_AUTHENTICATED = '05';
