/**
 * The acquirer's error catalogue (ACQUIRER.md, errorCode) and the one error type
 * a call throws to answer with a non-zero code. How the code is written on the
 * wire (errorCode or ErrorCode, a string or a number) is each call's answer
 * shape (http/answer-shapes.ts).
 */

/** An error code, as a string. */
export type ErrorCode = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8';

/** A business refusal: still HTTP 200, with this code and message. */
export class EpgError extends Error {
  constructor(
    readonly errorCode: Exclude<ErrorCode, '0'>,
    message: string,
  ) {
    super(message);
    this.name = 'EpgError';
  }
}

/** What a successful call answers besides its code and message, in the order the real acquirer writes them. */
export type CallFields = Readonly<Record<string, unknown>>;

export const missing = (name: string) => new EpgError('4', `${name} is required`);
export const duplicateOrderNumber = () => new EpgError('1', 'Order with this number was already processed');
export const unknownCurrency = () => new EpgError('3', 'Unknown currency');
export const invalid = (name: string) => new EpgError('5', `${name} is invalid`);
export const orderNotFound = () => new EpgError('6', 'Order not found');
export const wrongState = () => new EpgError('7', 'Wrong order state');
/** A bindingId this terminal never saw (or another terminal's): "2", as unBindCard.do answers. */
export const bindingNotFound = () => new EpgError('2', 'Binding not found');
/** A binding unBindCard.do deactivated: never charged or unbound again. */
export const bindingInactive = () => new EpgError('2', 'Binding is not active');
/** An outcome that cannot be confirmed: every refund or reverse of D8's card 5126, a deposit of card 7015. */
export const systemError = () => new EpgError('7', 'System error');
/** What a deposit of D8's card 7007 answers: the issuer will not capture the hold. */
export const captureRefused = () => new EpgError('5', 'Capture refused by the issuer');
/** What reverse.do of D30's card 6983 answers: the terminal has no reversal permission. */
export const reversalDenied = () => new EpgError('5', 'Access denied: no reversal permission');
