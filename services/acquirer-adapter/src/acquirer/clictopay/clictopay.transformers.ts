/**
 * ClicToPay (BPC/RBS REST) answers, turned into the adapter's terms: error
 * codes, order statuses and the issuer's action codes (ACQUIRER.md).
 */
import { accountCurrency, fromMinorUnits, toMinorUnits } from '@gateway/money';
import type { OperationResult, OrderState, PayResult, RegisterResult } from '../acquirer.js';

/** A reply as it arrives: JSON whose fields we read defensively. */
export type Reply = Record<string, unknown>;

export const TND_NUMERIC = '788';

/** errorCode, which the protocol sends as a string or a number; absent means success. */
export function errorCode(reply: Reply): number {
  const code = reply.errorCode;
  if (code === undefined || code === null || code === '') return 0;
  const parsed = Number(code);
  return Number.isInteger(parsed) ? parsed : -1;
}

function message(reply: Reply): string {
  return typeof reply.errorMessage === 'string' ? reply.errorMessage.slice(0, 200) : 'no message';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** A TND amount as the acquirer takes it: whole millimes. */
export function toMillimes(amount: string): string {
  return toMinorUnits(amount, accountCurrency);
}

/**
 * register.do's answer. errorCode 2 rejects the credentials. errorCode 5 is
 * "invalid parameter value or access denied", so `accessDenied` says which:
 * whether the same credentials were denied a call with no parameter to refuse
 * (the client asks; see deniesAccess).
 */
export function toRegisterResult(reply: Reply, accessDenied = true): RegisterResult {
  const code = errorCode(reply);
  const orderId = text(reply.orderId);
  if (code === 0 && orderId) return { kind: 'registered', orderId };
  if (code === 2 || (code === 5 && accessDenied)) return { kind: 'credentials-rejected', message: message(reply) };
  return { kind: 'refused', message: `errorCode ${code}: ${message(reply)}` };
}

/** Whether an answer denies the credentials: errorCode 2 or 5 to a call that has no parameter to refuse. */
export function deniesAccess(reply: Reply): boolean {
  const code = errorCode(reply);
  return code === 2 || code === 5;
}

/** What the acquirer's answer to a card payment says: refused, a 3-D Secure challenge, or submitted (the order's status then tells its outcome). */
export function toPayResult(reply: Reply): PayResult {
  const code = errorCode(reply);
  if (code !== 0) return { kind: 'refused', message: `errorCode ${code}: ${message(reply)}` };
  const acsUrl = text(reply.acsUrl);
  const paReq = text(reply.paReq);
  if (acsUrl && paReq) return { kind: 'challenge', acsUrl, paReq };
  return { kind: 'submitted' };
}

/**
 * reverse.do, refund.do and deposit.do (ACQUIRER.md, refund outcomes and
 * two-phase orders): 0 is confirmed; 5 (this amount or order is refused) and
 * 6 (no such order) are definitive, nothing was done. 7 (system error or
 * wrong order state) cannot be confirmed, and neither can an errorCode that
 * cannot be read or one the protocol does not give for these calls (a fault
 * of the request or of the acquirer, never its verdict on this order).
 */
export function toOperationResult(reply: Reply): OperationResult {
  const code = errorCode(reply);
  if (code === 0) return { kind: 'done' };
  // The acquirer's own words are what the merchant and the operators see (D10 epg_error_message).
  const said = text(reply.errorMessage)?.slice(0, 200);
  if (code === 5 || code === 6) return { kind: 'refused', errorCode: code, message: said ?? `errorCode ${code}` };
  if (code === -1) return { kind: 'unconfirmed', errorCode: code, message: 'unreadable answer from the acquirer' };
  return { kind: 'unconfirmed', errorCode: code, message: said ?? `errorCode ${code}` };
}

/** What each issuer action code means for the buyer (D8's outcomes). */
const ACTION_CODES: Readonly<Record<number, { code: string; message: string }>> = {
  100: { code: 'card_declined', message: 'The card was declined.' },
  116: { code: 'insufficient_funds', message: 'The card has insufficient funds.' },
  101: { code: 'expired_card', message: 'The card has expired.' },
  2004: { code: 'incorrect_cvc', message: 'The security code is incorrect.' },
  909: { code: 'processing_error', message: 'The payment could not be processed.' },
  2006: { code: 'authentication_failed', message: '3-D Secure authentication failed.' },
};

/** The failure message of an order the acquirer reversed before it was finished here. */
const REVERSED = 'The card processor reversed this payment; nothing was charged.';

/** The failure code and message of an acquirer action code (ACQUIRER.md); any other code is a plain decline. */
export function declineOf(actionCode: number): { code: string; message: string } {
  return ACTION_CODES[actionCode] ?? { code: 'card_declined', message: 'The card was declined.' };
}

/** getOrderStatusExtended: orderStatus 2 is the only paid state; 1 is a hold (two-phase orders, D22). */
export function toOrderState(reply: Reply): OrderState | undefined {
  const code = errorCode(reply);
  if (code === 6) return { kind: 'not-found' };
  if (code !== 0) return undefined;
  const status = Number(reply.orderStatus);
  if (status === 2 || status === 1) {
    const info = (reply.paymentAmountInfo ?? {}) as Reply;
    const card = (reply.cardAuthInfo ?? {}) as Reply;
    const minor = String((status === 2 ? info.depositedAmount : info.approvedAmount) ?? reply.amount ?? '');
    if (!/^[0-9]+$/.test(minor)) return undefined;
    return { kind: status === 2 ? 'paid' : 'held', amount: fromMinorUnits(minor, accountCurrency), maskedPan: text(card.maskedPan) ?? '' };
  }
  if (status === 6) {
    const decline = declineOf(Number(reply.actionCode));
    return { kind: 'declined', failureCode: decline.code, failureMessage: decline.message };
  }
  if (status === 0 || status === 5) return { kind: 'open' };
  // Reversed by the acquirer (after a timeout of ours, say): the authorisation is void, nothing was taken.
  if (status === 3) return { kind: 'declined', failureCode: 'processing_error', failureMessage: REVERSED, reversed: true };
  // 4 (refunded) never follows a payment we have not refunded; read as unknown, an operator's case.
  return undefined;
}
