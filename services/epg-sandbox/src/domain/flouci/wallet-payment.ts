/**
 * A Flouci payment as the sandbox plays it (WALLET.md), and its state machine.
 * Statuses are Flouci's four; the stage says which of them and why. A
 * transition the stage does not allow throws the FlouciError that says so.
 *
 *   awaiting_buyer    PENDING ──phone pays──────▶ paid             SUCCESS
 *                             ──phone pays, pre_auth──▶ held       PENDING (the amount held)
 *                             ──20000002──────▶ declined           FAILURE (insufficient balance)
 *                             ──20000003──────▶ awaiting_approval  PENDING, until it expires
 *                             ──Cancel────────▶ canceled_by_buyer  FAILURE
 *                             ──timeout───────▶ expired            EXPIRED
 *   awaiting_approval PENDING ──timeout───────▶ expired            EXPIRED
 *   held              PENDING ──confirm_payment──▶ paid            SUCCESS
 *                             ──cancel_payment───▶ hold_canceled   FAILURE
 *   paid              SUCCESS ──refund_payment───▶ paid, refunded  (once, the whole amount)
 *
 * A hold outlives the session's timeout: only confirm or cancel ends it.
 */
import { randomBytes } from 'node:crypto';
import { alreadyRefunded, notAwaitingBuyer, notHeld, notRefundable } from './flouci-error.js';

export type WalletStatus = 'SUCCESS' | 'PENDING' | 'EXPIRED' | 'FAILURE';

type Stage = 'awaiting_buyer' | 'awaiting_approval' | 'held' | 'paid' | 'declined' | 'canceled_by_buyer' | 'hold_canceled' | 'expired';

const STATUS_OF: Readonly<Record<Stage, WalletStatus>> = {
  awaiting_buyer: 'PENDING',
  awaiting_approval: 'PENDING',
  held: 'PENDING',
  paid: 'SUCCESS',
  declined: 'FAILURE',
  canceled_by_buyer: 'FAILURE',
  hold_canceled: 'FAILURE',
  expired: 'EXPIRED',
};

/** Why a payment failed or expired, as verify_payment's details tell it. */
const REASON_OF: Readonly<Partial<Record<Stage, string>>> = {
  declined: 'insufficient_balance',
  canceled_by_buyer: 'canceled_by_buyer',
  hold_canceled: 'canceled_by_merchant',
  expired: 'session_expired',
};

/** The refund of a paid payment: always its whole amount. */
interface Refund {
  readonly refundId: string;
  readonly refundedAt: Date;
}

export interface WalletPayment {
  readonly paymentId: string;
  /** PUBLIC_KEY of the application that generated it; no other application sees it. */
  readonly app: string;
  /** Millimes. */
  readonly amount: number;
  readonly developerTrackingId: string;
  readonly successLink: string;
  readonly failLink: string;
  readonly webhook: string | undefined;
  /** Paying holds the amount until confirm_payment or cancel_payment. */
  readonly preAuth: boolean;
  readonly generatedAt: number;
  /** generatedAt + session_timeout_secs: a payment still awaiting the buyer (or their approval) then expires. */
  readonly expiresAt: number;
  stage: Stage;
  /** The last two digits of the phone that answered, never more. */
  phoneEnding?: string;
  /** A pre-authorized payment's hold, once the buyer authorized it. */
  hold?: 'held' | 'confirmed' | 'canceled';
  refund?: Refund;
}

/** What generate_payment fixes; the rest starts empty. */
export type NewWalletPayment = Omit<WalletPayment, 'paymentId' | 'stage' | 'phoneEnding' | 'hold' | 'refund'>;

/** A payment awaiting its buyer, with a fresh id as hard to guess as Flouci's (22 URL-safe characters): its page's address is all a buyer needs. */
export function generatedPayment(fields: NewWalletPayment): WalletPayment {
  return { ...fields, paymentId: randomBytes(16).toString('base64url'), stage: 'awaiting_buyer' };
}

/** The payment's status now; a payment left pending past its timeout expires for good here. */
export function statusAt(payment: WalletPayment, now: Date): WalletStatus {
  if ((payment.stage === 'awaiting_buyer' || payment.stage === 'awaiting_approval') && now.getTime() >= payment.expiresAt) payment.stage = 'expired';
  return STATUS_OF[payment.stage];
}

/** Whether the buyer may still answer on the payment's page. */
export function awaitsBuyer(payment: WalletPayment, now: Date): boolean {
  statusAt(payment, now);
  return payment.stage === 'awaiting_buyer';
}

/** The phone the sandbox declines for insufficient balance. */
export const DECLINED_PHONE = '20000002';
/** The phone whose approval never comes: the payment expires. */
export const NEVER_APPROVED_PHONE = '20000003';

/** Whether `phone` is a phone number the page takes: 8 digits. */
export function isPhone(phone: string): boolean {
  return /^[0-9]{8}$/.test(phone);
}

/** The buyer's Confirm payment with a valid phone: paid, held, declined or left awaiting approval, by the phone. */
export function payWithPhone(payment: WalletPayment, phone: string, now: Date): void {
  if (!awaitsBuyer(payment, now)) throw notAwaitingBuyer();
  // The page checks the phone and shows itself again; anything else here is a bug.
  if (!isPhone(phone)) throw new RangeError('a phone is 8 digits');
  payment.phoneEnding = phone.slice(-2);
  if (phone === DECLINED_PHONE) payment.stage = 'declined';
  else if (phone === NEVER_APPROVED_PHONE) payment.stage = 'awaiting_approval';
  else if (payment.preAuth) {
    payment.stage = 'held';
    payment.hold = 'held';
  } else payment.stage = 'paid';
}

/** The buyer's Cancel. */
export function cancelByBuyer(payment: WalletPayment, now: Date): void {
  if (!awaitsBuyer(payment, now)) throw notAwaitingBuyer();
  payment.stage = 'canceled_by_buyer';
}

/** Whether the payment is a pre-authorization whose hold awaits confirm or cancel. */
function isHeld(payment: WalletPayment): boolean {
  return payment.stage === 'held';
}

/** confirm_payment: the hold is taken; the payment succeeds. */
export function confirmHold(payment: WalletPayment): void {
  if (!isHeld(payment)) throw notHeld();
  payment.stage = 'paid';
  payment.hold = 'confirmed';
}

/** cancel_payment: the hold is released; the payment fails. */
export function cancelHold(payment: WalletPayment): void {
  if (!isHeld(payment)) throw notHeld();
  payment.stage = 'hold_canceled';
  payment.hold = 'canceled';
}

/** refund_payment: the whole amount of a paid payment, once. */
export function refundWhole(payment: WalletPayment, now: Date): Refund {
  if (payment.refund) throw alreadyRefunded();
  if (payment.stage !== 'paid') throw notRefundable();
  payment.refund = { refundId: `ref_${randomBytes(12).toString('base64url')}`, refundedAt: now };
  return payment.refund;
}

/** verify_payment's details: how the payment went, without the buyer's phone beyond its last two digits. */
export function detailsOf(payment: WalletPayment): Readonly<Record<string, unknown>> {
  return {
    ...(payment.phoneEnding !== undefined && { phone_number: `******${payment.phoneEnding}` }),
    ...(REASON_OF[payment.stage] !== undefined && { reason: REASON_OF[payment.stage] }),
    pre_auth: payment.preAuth,
    ...(payment.hold !== undefined && { hold: payment.hold }),
    ...(payment.refund && { refund_id: payment.refund.refundId, refunded_at: payment.refund.refundedAt.toISOString() }),
  };
}
