/**
 * How the sandbox's Flouci API refuses a call: `success: false` with a
 * message (WALLET.md). A refusal of the call itself is HTTP 200, so a client
 * tells it from an HTTP error, which is an unknown outcome; only credentials
 * are refused with HTTP 401 (flouci-apps.ts).
 */

/** A refusal: the payment is left as it was. */
export class FlouciError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlouciError';
  }
}

export const paymentNotFound = () => new FlouciError('Payment not found');
export const invalidField = (name: string, rule: string) => new FlouciError(`${name} ${rule}`);
export const notAwaitingBuyer = () => new FlouciError('Payment no longer awaits the buyer');
export const notHeld = () => new FlouciError('Payment is not a pre-authorized payment awaiting confirmation');
export const notRefundable = () => new FlouciError('Payment is not refundable: only a successful payment is');
export const alreadyRefunded = () => new FlouciError('Payment was already refunded');
export const partialNotSupported = (what: string) => new FlouciError(`Only the whole amount can be ${what}`);
