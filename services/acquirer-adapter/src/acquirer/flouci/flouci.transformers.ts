/**
 * Flouci's API (WALLET.md) in the adapter's terms: the body of
 * generate_payment, and its answers, verify_payment's and those of confirm,
 * cancel and refund turned into RegisterResult, OrderState and
 * OperationResult. Flouci writes `success` (at the top, or in `result` for
 * generate_payment) before anything else: false is its refusal, told apart
 * from an answer that cannot be read, whose outcome is unknown.
 */
import { accountCurrency, compareTnd, fromMinorUnits, toMinorUnits } from '@gateway/money';
import type { OperationResult, OrderRequest, OrderState, RefundRequest, RegisterResult } from '../acquirer.js';

/** An answer as it arrives: JSON whose fields are read defensively. */
export type FlouciReply = Record<string, unknown>;

/** generate_payment's body (WALLET.md). */
export interface GeneratePaymentBody {
  /** Millimes. */
  readonly amount: number;
  readonly developer_tracking_id: string;
  readonly success_link: string;
  readonly fail_link: string;
  readonly webhook: string;
  readonly session_timeout_secs: number;
  /** Our page takes cards itself: Flouci's page offers the wallet alone. */
  readonly accept_card: false;
  /** D22: the payment is held until confirm_payment or cancel_payment. */
  readonly pre_auth: boolean;
}

/** No code could be read, or no call was made: OperationResult's errorCode then. */
const NO_CODE = -1;

const EXPIRED_MESSAGE = 'The buyer did not complete the payment in time; nothing was charged.';
const DECLINED_MESSAGE = 'Flouci declined the payment; nothing was charged.';
const HOLD_RELEASED_MESSAGE = 'The amount held on the Flouci wallet was released; nothing was charged.';

/** What a failed payment's details.reason says, in the buyer's and merchant's words. */
const FAILURE_MESSAGES: Readonly<Record<string, string>> = {
  insufficient_balance: 'The Flouci wallet has insufficient balance; nothing was charged.',
  canceled_by_buyer: "The buyer canceled the payment on Flouci's page; nothing was charged.",
};

/**
 * Words Flouci uses when it does not know a payment (the sandbox: "Payment not
 * found"). Only a payment named as not found: a vaguer refusal ("Unknown
 * error") is an unknown outcome. Reconciliation gives up on a wallet payment
 * that is not found only long after its buyer's time is over, whatever is said.
 */
const UNKNOWN_PAYMENT = /\bpayment (was )?not found\b|\bno such payment\b|\bpayment does not exist\b|paiement introuvable/i;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function objectOf(value: unknown): FlouciReply | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as FlouciReply) : undefined;
}

/** The answer's `result` object, when it has one. */
function resultOf(reply: FlouciReply): FlouciReply | undefined {
  return objectOf(reply.result);
}

/** A page address the buyer's browser may be sent to: an absolute http(s) URL, nothing else. */
function webUrl(value: unknown): string | undefined {
  const url = text(value);
  if (url === undefined || url.length > 2048 || !URL.canParse(url)) return undefined;
  const { protocol, hostname } = new URL(url);
  return (protocol === 'https:' || protocol === 'http:') && hostname !== '' ? url : undefined;
}

/** A TND amount as Flouci takes it: whole millimes, converted exactly (big.js), never through a float. */
export function toFlouciMillimes(amount: string): number {
  const millimes = toMinorUnits(amount, accountCurrency);
  const value = Number(millimes);
  // An integer string below 2^53 is exactly that number: JSON then writes the same digits.
  if (!/^[0-9]+$/.test(millimes) || !Number.isSafeInteger(value)) throw new RangeError(`not a payable TND amount: ${amount}`);
  return value;
}

/** Millimes as Flouci writes them (a JSON integer or a string of digits) in TND; undefined when they are not that. */
export function fromFlouciMillimes(value: unknown): string | undefined {
  const digits = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
  return typeof digits === 'string' && /^[0-9]{1,15}$/.test(digits) ? fromMinorUnits(digits, accountCurrency) : undefined;
}

/**
 * generate_payment's body for an order (D26): its amount in millimes, the
 * attempt as developer_tracking_id, where the buyer comes back to and where
 * Flouci posts its notice. An order without its wallet hand-off is a card's,
 * sent here by mistake: nothing is sent.
 */
export function generatePaymentBody(order: OrderRequest): GeneratePaymentBody {
  const { wallet } = order;
  if (!wallet) throw new Error('a Flouci payment is started with its wallet hand-off (OrderRequest.wallet)');
  return {
    amount: toFlouciMillimes(order.amount),
    developer_tracking_id: wallet.trackingId,
    success_link: wallet.successUrl,
    fail_link: wallet.failUrl,
    webhook: wallet.webhookUrl,
    session_timeout_secs: wallet.timeoutSeconds,
    accept_card: false,
    pre_auth: order.twoPhase,
  };
}

/** Whether Flouci refused the call: `success: false`, at the top or in its result. */
export function isRefusal(reply: FlouciReply): boolean {
  return reply.success === false || resultOf(reply)?.success === false;
}

/** Flouci's own words for an answer, cut to 200 characters; undefined when it says none. */
export function flouciMessage(reply: FlouciReply): string | undefined {
  const message = text(reply.message) ?? text(resultOf(reply)?.message);
  return message?.slice(0, 200);
}

/** Flouci's code of a refusal (`code`), for the log; NO_CODE when it gives none that is a whole number. */
function codeOf(reply: FlouciReply): number {
  const { code } = reply;
  return typeof code === 'number' && Number.isSafeInteger(code) && code !== 0 ? code : NO_CODE;
}

/**
 * generate_payment's answer: the payment's id and the page the buyer is sent
 * to; a refusal with Flouci's words. Undefined when it cannot be read: a
 * payment may then exist whose id never came back, an unknown outcome.
 */
export function toRegisterResult(reply: FlouciReply): RegisterResult | undefined {
  if (isRefusal(reply)) return { kind: 'refused', message: flouciMessage(reply) ?? 'Flouci refused the payment without saying why.' };
  const result = resultOf(reply);
  const orderId = text(result?.payment_id);
  const redirectUrl = webUrl(result?.link);
  if (result?.success !== true || orderId === undefined || redirectUrl === undefined) return undefined;
  return { kind: 'registered', orderId, redirectUrl };
}

/** A held payment's details say so: `hold` is `held` until confirmed, `canceled` once released. */
function holdOf(result: FlouciReply): unknown {
  return objectOf(result.details)?.hold;
}

/**
 * verify_payment's answer, the only proof of an outcome (WALLET.md): SUCCESS
 * is paid; PENDING is a hold when its details say `held`, else no outcome
 * yet; EXPIRED is wallet_expired; FAILURE is wallet_declined, and a hold we
 * canceled is also reversed. A refusal that says the payment is unknown is
 * not-found. Undefined for anything else: the outcome is unknown.
 */
export function toOrderState(reply: FlouciReply): OrderState | undefined {
  if (isRefusal(reply)) return UNKNOWN_PAYMENT.test(flouciMessage(reply) ?? '') ? { kind: 'not-found' } : undefined;
  const result = resultOf(reply);
  if (reply.success !== true || !result) return undefined;
  switch (result.status) {
    case 'SUCCESS':
      return takenState('paid', result);
    case 'PENDING':
      return holdOf(result) === 'held' ? takenState('held', result) : { kind: 'open' };
    case 'EXPIRED':
      return { kind: 'declined', failureCode: 'wallet_expired', failureMessage: EXPIRED_MESSAGE };
    case 'FAILURE':
      return failedState(result);
    default:
      return undefined;
  }
}

/**
 * A paid or held payment with its amount; a wallet has no card to show.
 * Undefined (an unreadable answer) without an amount that can be read:
 * verify_payment always gives it, and it is what the payment is checked
 * against before it counts as paid.
 */
function takenState(kind: 'paid' | 'held', result: FlouciReply): OrderState | undefined {
  const amount = fromFlouciMillimes(result.amount);
  return amount === undefined ? undefined : { kind, amount, maskedPan: '' };
}

function failedState(result: FlouciReply): OrderState {
  if (holdOf(result) === 'canceled') return { kind: 'declined', failureCode: 'wallet_declined', failureMessage: HOLD_RELEASED_MESSAGE, reversed: true };
  const reason = text(objectOf(result.details)?.reason);
  return { kind: 'declined', failureCode: 'wallet_declined', failureMessage: (reason !== undefined && FAILURE_MESSAGES[reason]) || DECLINED_MESSAGE };
}

/**
 * The answer to confirm_payment, cancel_payment or refund_payment: done when
 * its result's status says success (SUCCESS, or `success` for a refund);
 * refused, nothing done, when Flouci says `success: false`; anything else
 * leaves the outcome unknown: unconfirmed, never done.
 */
export function toOperationResult(reply: FlouciReply): OperationResult {
  if (isRefusal(reply)) return { kind: 'refused', errorCode: codeOf(reply), message: flouciMessage(reply) ?? 'Flouci refused the operation without saying why.' };
  const status = resultOf(reply)?.status;
  if (typeof status === 'string' && status.toUpperCase() === 'SUCCESS') return { kind: 'done' };
  return { kind: 'unconfirmed', errorCode: NO_CODE, message: "Flouci's answer did not say the operation was done." };
}

/** A call that never got an answer it could read: nothing says it was done. */
export function unansweredOperation(call: string, reason: string): OperationResult {
  return { kind: 'unconfirmed', errorCode: NO_CODE, message: `Flouci gave no usable answer to ${call} (${reason}); the outcome is not known.` };
}

/** The application's keys were refused (HTTP 401): nothing was done. */
export function keysRejected(call: string): { kind: 'refused'; errorCode: number; message: string } {
  return { kind: 'refused', errorCode: NO_CODE, message: `Flouci refused the application's keys (HTTP 401) for ${call}; nothing was done.` };
}

/**
 * Flouci confirms a hold whole: a capture of another amount than the one held
 * is refused here, before confirm_payment is sent (as is one whose held
 * amount cannot be read). Undefined when the capture may go: the amounts
 * match, or the payment is not held and Flouci's answer will tell.
 */
export function partialCaptureRefusal(amount: string, state: OrderState): OperationResult | undefined {
  if (state.kind !== 'held') return undefined;
  if (state.amount === undefined) {
    return { kind: 'refused', errorCode: NO_CODE, message: 'Flouci did not say what it holds for this payment; nothing was captured.' };
  }
  if (compareTnd(amount, state.amount) === 0) return undefined;
  return {
    kind: 'refused',
    errorCode: NO_CODE,
    message: `Flouci confirms a hold whole only: ${amount} TND cannot be captured of the ${state.amount} TND held; nothing was captured.`,
  };
}

/**
 * Flouci refunds a payment whole and once: a refund of part of it, or after
 * another refund, is refused here, and no call is made. Undefined when the
 * refund may go.
 */
export function partialRefundRefusal(refund: RefundRequest): OperationResult | undefined {
  if (compareTnd(refund.amount, refund.paymentAmount) === 0 && compareTnd(refund.refundedAtMost, '0') === 0) return undefined;
  return {
    kind: 'refused',
    errorCode: NO_CODE,
    message: `Flouci refunds whole payments only, once: ${refund.amount} TND of a ${refund.paymentAmount} TND payment (up to ${refund.refundedAtMost} TND refunded before) cannot be refunded there.`,
  };
}
