/**
 * ClicToPay (BPC/RBS REST) answers, turned into the adapter's terms
 * (ACQUIRER.md): registrations, paymentorder.do's four answers, order
 * statuses and the order-management calls' outcomes; and what of the buyer
 * goes with the card. Error codes and action codes: clictopay.codes.ts.
 */
import { isIP } from 'node:net';
import type { BuyerContact } from '@gateway/contracts';
import { accountCurrency, fromMinorUnits, toMinorUnits } from '@gateway/money';
import type { OperationResult, OrderBinding, OrderState, PayResult, RegisterResult } from '../acquirer.js';
import { acquirerMessage, declineOf, errorCode, UNREADABLE_CODE, type Reply } from './clictopay.codes.js';

export const TND_NUMERIC = '788';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** A page address the buyer's browser may be sent to post a form: an absolute http(s) URL, nothing else. */
function webUrl(value: unknown): string | undefined {
  const url = text(value);
  if (url === undefined || url.length > 2048 || !URL.canParse(url)) return undefined;
  const { protocol, hostname } = new URL(url);
  return (protocol === 'https:' || protocol === 'http:') && hostname !== '' ? url : undefined;
}

function said(reply: Reply, code: number): string {
  return `errorCode ${code}: ${acquirerMessage(reply) ?? 'no message'}`;
}

/** A TND amount as the acquirer takes it: whole millimes. */
export function toMillimes(amount: string): string {
  return toMinorUnits(amount, accountCurrency);
}

/**
 * register.do's answer (no code at all on success, as deployed). errorCode 2
 * rejects the credentials. errorCode 5 is "invalid parameter value or access
 * denied", so `accessDenied` says which: whether the same credentials were
 * denied a call with no parameter to refuse (the client asks; see deniesAccess).
 */
export function toRegisterResult(reply: Reply, accessDenied = true): RegisterResult {
  const code = errorCode(reply) ?? 0;
  const orderId = text(reply.orderId);
  if (code === 0 && orderId) return { kind: 'registered', orderId };
  if (code === 2 || (code === 5 && accessDenied)) return { kind: 'credentials-rejected', message: acquirerMessage(reply) ?? 'no message' };
  return { kind: 'refused', message: said(reply, code) };
}

/** Whether an answer denies the credentials: errorCode 2 or 5 to a call that has no parameter to refuse. */
export function deniesAccess(reply: Reply): boolean {
  const code = errorCode(reply);
  return code === 2 || code === 5;
}

/**
 * What an answer to a card (paymentorder.do, finish3dsPayment.do) says comes
 * next (ACQUIRER.md's four answers): a refusal; 3-D Secure 2's challenge
 * (acsUrl with packedCReq), first step with a 3DS Method URL, or first step
 * without one; 3-D Secure 1's challenge (acsUrl with paReq); or nothing more
 * (paid, frictionless or declined: the order's status tells). Anything else,
 * a step without what the browser needs to take it, says nothing more either:
 * no card is sent again on an answer that cannot be read.
 */
export function toPayResult(reply: Reply): PayResult {
  const code = errorCode(reply) ?? 0;
  if (code !== 0) return { kind: 'refused', message: said(reply, code) };
  const acsUrl = webUrl(reply.acsUrl);
  const serverTransId = text(reply.threeDSServerTransId);
  const creq = text(reply.packedCReq);
  if (acsUrl && creq) return { kind: 'challenge2', acsUrl, creq, ...(serverTransId && { serverTransId }) };
  const paReq = text(reply.paReq);
  if (acsUrl && paReq) return { kind: 'challenge', acsUrl, paReq };
  if (isThreeDS2(reply.is3DSVer2) && serverTransId) {
    const methodUrl = webUrl(reply.threeDSMethodURL);
    const methodData = text(reply.threeDSMethodDataPacked);
    // A method URL with nothing to post to it cannot run: the card goes again without it.
    return methodUrl && methodData ? { kind: 'method', serverTransId, url: methodUrl, data: methodData } : { kind: 'repeat', serverTransId };
  }
  return { kind: 'submitted' };
}

function isThreeDS2(flag: unknown): boolean {
  return flag === true || flag === 'true';
}

/**
 * reverse.do, refund.do and deposit.do (ACQUIRER.md, refund outcomes and
 * two-phase orders): 0 is confirmed; 5 (this amount or order is refused) and
 * 6 (no such order) are definitive, nothing was done. 7 (system error or
 * wrong order state) cannot be confirmed, and neither can a code that cannot
 * be read or one the protocol does not give for these calls (a fault of the
 * request or of the acquirer, never its verdict on this order). `silent`: the
 * answer carries no code at all, which is no success until the order's
 * status shows it (the client asks).
 */
export function toOperationResult(reply: Reply): OperationResult | { kind: 'silent' } {
  const code = errorCode(reply);
  if (code === undefined) return { kind: 'silent' };
  if (code === 0) return { kind: 'done' };
  // The acquirer's own words are what the merchant and the operators see (D10 epg_error_message).
  const words = acquirerMessage(reply);
  if (code === 5 || code === 6) return { kind: 'refused', errorCode: code, message: words ?? `errorCode ${code}` };
  if (code === UNREADABLE_CODE) return { kind: 'unconfirmed', errorCode: code, message: 'unreadable answer from the acquirer' };
  return { kind: 'unconfirmed', errorCode: code, message: words ?? `errorCode ${code}` };
}

/** The failure message of an order the acquirer reversed before it was finished here. */
const REVERSED = 'The card processor reversed this payment; nothing was charged.';

/**
 * getOrderStatusExtended: orderStatus 2 is the only paid state; 1 is a hold
 * (two-phase orders, D22). What was deposited is read from paymentAmountInfo
 * only (response version 3): without it, the amount is left unknown rather
 * than taken from the order's `amount`, which a partial capture would belie.
 */
export function toOrderState(reply: Reply): OrderState | undefined {
  const code = errorCode(reply) ?? 0;
  if (code === 6) return { kind: 'not-found' };
  if (code !== 0) return undefined;
  const status = Number(reply.orderStatus);
  if (status === 2 || status === 1) {
    const info = (typeof reply.paymentAmountInfo === 'object' && reply.paymentAmountInfo !== null ? reply.paymentAmountInfo : {}) as Reply;
    // A hold is of the whole order when the answer does not say otherwise; a deposit is only what it says.
    const minor = status === 2 ? info.depositedAmount : (info.approvedAmount ?? reply.amount);
    const amount = minor === undefined || minor === null ? undefined : minorAmount(minor);
    if (amount === null) return undefined;
    const binding = bindingOf(reply);
    return { kind: status === 2 ? 'paid' : 'held', ...(amount !== undefined && { amount }), maskedPan: maskedPanOf(reply.cardAuthInfo), ...(binding && { binding }) };
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

/** What an order's status says of its money, in millimes, for confirming an operation the answer did not (undefined: not said). */
export interface OrderAmounts {
  orderStatus: number;
  deposited?: bigint;
  refunded?: bigint;
}

/** An order's status and amounts; undefined when the answer is no status. */
export function toOrderAmounts(reply: Reply): OrderAmounts | undefined {
  if ((errorCode(reply) ?? 0) !== 0) return undefined;
  const orderStatus = Number(reply.orderStatus);
  if (!Number.isInteger(orderStatus)) return undefined;
  const info = (typeof reply.paymentAmountInfo === 'object' && reply.paymentAmountInfo !== null ? reply.paymentAmountInfo : {}) as Reply;
  const deposited = millimes(info.depositedAmount);
  const refunded = millimes(info.refundedAmount);
  return { orderStatus, ...(deposited !== undefined && { deposited }), ...(refunded !== undefined && { refunded }) };
}

function millimes(value: unknown): bigint | undefined {
  const digits = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
  return typeof digits === 'string' && /^[0-9]{1,15}$/.test(digits) ? BigInt(digits) : undefined;
}

/** A minor-unit amount as TND; null when it is not one. */
function minorAmount(value: unknown): string | null {
  const digits = millimes(value);
  return digits === undefined ? null : fromMinorUnits(digits.toString(), accountCurrency);
}

/**
 * The masked card number of cardAuthInfo: maskedPan, or pan where a
 * deployment writes only that. A number that arrives whole is masked here,
 * never kept or passed on.
 */
/** D24: the binding a paid order made (bindingInfo), with the card's expiry (cardAuthInfo.expiration, YYYYMM) when given. */
function bindingOf(reply: Reply): OrderBinding | undefined {
  const info = (typeof reply.bindingInfo === 'object' && reply.bindingInfo !== null ? reply.bindingInfo : {}) as Reply;
  const bindingId = text(info.bindingId);
  if (bindingId === undefined || bindingId === '') return undefined;
  const card = (typeof reply.cardAuthInfo === 'object' && reply.cardAuthInfo !== null ? reply.cardAuthInfo : {}) as Reply;
  const expiry = text(card.expiration);
  return { bindingId, ...(expiry !== undefined && /^[0-9]{6}$/.test(expiry) && { expiry }) };
}

export function maskedPanOf(cardAuthInfo: unknown): string {
  const card = (typeof cardAuthInfo === 'object' && cardAuthInfo !== null ? cardAuthInfo : {}) as Reply;
  const written = text(card.maskedPan) ?? text(card.pan) ?? '';
  const digits = written.replace(/[\s-]/g, '');
  return /^[0-9]{12,19}$/.test(digits) ? `${digits.slice(0, 6)}**${digits.slice(-4)}` : written;
}

/** The longest of each buyer field deployments take (BPC: an IPv6 address is 39 characters). */
const BUYER_LIMITS = { ip: 39, email: 254, phone: 32 } as const;

/**
 * The buyer fields paymentorder.do takes (D30): the address when it is one,
 * the email and the phone when they fit. A value the acquirer would refuse
 * is left out rather than have it refuse the card.
 */
export function buyerFields(buyer: BuyerContact | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  if (buyer?.ip && buyer.ip.length <= BUYER_LIMITS.ip && isIP(buyer.ip) !== 0) fields.ip = buyer.ip;
  if (buyer?.email && buyer.email.length <= BUYER_LIMITS.email && /^[^\s@]+@[^\s@]+$/.test(buyer.email)) fields.email = buyer.email;
  if (buyer?.phone && buyer.phone.length <= BUYER_LIMITS.phone) fields.phone = buyer.phone;
  return fields;
}
