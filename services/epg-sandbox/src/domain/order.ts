/**
 * An acquirer order and its state machine (ACQUIRER.md, orderStatus). register.do
 * makes a one-phase order, registerPreAuth.do a two-phase one: an approval of
 * the first deposits at once, of the second holds the funds until deposit.do or
 * reverse.do.
 *
 *   0 registered ──approve──▶ 2 deposited   (one-phase)
 *                ──approve──▶ 1 held        (two-phase)
 *                ──decline──▶ 6 declined
 *                ──challenge──▶ 5 ──Y──▶ approve (1 or 2, as above),  ──N──▶ 6
 *                                   (3-D Secure 1 or 2; 3-D Secure 2 may approve or decline at
 *                                   its repeated paymentorder.do, without a challenge)
 *   1 held       ──deposit──▶ 2             (all of the hold or part, the rest released)
 *                ──reverse──▶ 3 reversed    (the hold released)
 *   2 deposited  ──reverse──▶ 3
 *                ──refund───▶ 4 refunded ──refund──▶ 4 (again while money is left)
 *
 * Transitions that the current status does not allow throw "7" Wrong order state.
 *
 * recurrentPayment.do makes an order of its own and charges it at once: it has
 * no buyer, so no returnUrl and never a 3-D Secure challenge.
 */
import { randomInt } from 'node:crypto';
import { APPROVED, AUTHENTICATING, DECLINES, NO_PAYMENT_ATTEMPT, type Action, type DeclineReason } from './action-codes.js';
import type { CardDetails } from './card.js';
import { wrongState } from './epg-error.js';
import { withQueryParam } from './urls.js';

export const OrderStatus = {
  REGISTERED: 0,
  HELD: 1,
  DEPOSITED: 2,
  REVERSED: 3,
  REFUNDED: 4,
  AUTHENTICATING: 5,
  DECLINED: 6,
} as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/** The buyer as paymentorder.do gave them (D30): their address, and an email or a phone. */
export interface Payer {
  readonly ip?: string;
  readonly email?: string;
  readonly phone?: string;
}

/** A 3-D Secure 2 authentication of the order's card (ACQUIRER.md "3-D Secure 2"). */
export interface ThreeDS2 {
  readonly serverTransId: string;
  readonly acsTransId: string;
  /** Where the ACS returns the buyer after a challenge: paymentorder.do's threeDSVer2FinishUrl. */
  readonly finishUrl: string;
  /**
   * repeat: waiting for paymentorder.do again with threeDSServerTransId;
   * challenge: the cardholder is at the ACS; answered: they answered
   * (`result`), and the order waits for its finish.
   */
  stage: 'repeat' | 'challenge' | 'answered';
  /** Whether the buyer's browser posted the 3DS Method. */
  methodRan: boolean;
  /** The cardholder's answer at the ACS: Y authenticated, N failed. */
  result?: 'Y' | 'N';
}

/** getOrderStatusExtended.do's bindingInfo: the saved card an order saved or was paid with (D24). */
interface BindingInfo {
  readonly clientId: string;
  readonly bindingId: string;
}

/** orderNumber's limit; a terminal uses each number once (order.store.ts). */
export const MAX_ORDER_NUMBER_LENGTH = 32;

/** ISO 4217 numeric code of TND, the only currency the sandbox knows. */
export const TND = '788';

export interface Order {
  readonly orderId: string;
  /** userName of the terminal that registered it; no other terminal sees it. */
  readonly terminal: string;
  readonly orderNumber: string;
  /** Millimes. */
  readonly amount: number;
  /** Where the buyer goes once paid; none on recurrentPayment.do's orders, which have no buyer. */
  readonly returnUrl: string | undefined;
  readonly failUrl: string | undefined;
  /** The language register.do asked the acquirer's pages to speak (fr, en, ar); fr when not given. */
  readonly language: string;
  readonly registeredAt: number;
  /** registerPreAuth.do's order: an approval holds the funds (status 1) rather than depositing them. */
  readonly twoPhase: boolean;
  /** register.do's clientId: the merchant's customer, whose saved cards may pay the order. */
  readonly clientId?: string;
  /** register.do's features=FORCE_CREATE_BINDING: an approval saves the card for clientId. */
  readonly saveCard?: boolean;
  status: OrderStatus;
  action: Action;
  card?: CardDetails;
  payer?: Payer;
  threeDS2?: ThreeDS2;
  /** The saved card this order saved once approved, or was paid with. */
  binding?: BindingInfo;
  approvalCode?: string;
  authRefNum?: string;
  eci?: string;
  depositedAt?: number;
  /** The whole amount once approved; on a held order, the hold. */
  approvedAmount: number;
  depositedAmount: number;
  refundedAmount: number;
  /** D8's card 5126: every reverse and refund answers "7" System error and changes nothing. */
  refundsUnconfirmed: boolean;
}

/** What registering an order fixes; the rest starts empty. */
export type NewOrder = Pick<Order, 'orderId' | 'terminal' | 'orderNumber' | 'amount' | 'returnUrl' | 'failUrl' | 'language' | 'registeredAt' | 'twoPhase' | 'clientId' | 'saveCard'>;

/** A registered order: status 0, nothing paid. */
export function registeredOrder(fields: NewOrder): Order {
  return {
    ...fields,
    status: OrderStatus.REGISTERED,
    action: NO_PAYMENT_ATTEMPT,
    approvedAmount: 0,
    depositedAmount: 0,
    refundedAmount: 0,
    refundsUnconfirmed: false,
  };
}

/** Takes a card for the order's one payment attempt. */
export function attachCard(order: Order, card: CardDetails): void {
  if (order.status !== OrderStatus.REGISTERED) throw wrongState();
  order.card = card;
}

/** The issuer wants the cardholder to authenticate first (3-D Secure 1 or 2). */
export function startChallenge(order: Order): void {
  if (order.status !== OrderStatus.REGISTERED) throw wrongState();
  order.status = OrderStatus.AUTHENTICATING;
  order.action = AUTHENTICATING;
}

/** The issuer approves the whole amount: a two-phase order holds it, a one-phase order is deposited at once. */
export function approve(order: Order, now: Date, eci?: string): void {
  if (order.status !== OrderStatus.REGISTERED && order.status !== OrderStatus.AUTHENTICATING) throw wrongState();
  order.action = APPROVED;
  order.approvalCode = randomDigits(6);
  order.authRefNum = randomDigits(12);
  if (eci !== undefined) order.eci = eci;
  order.approvedAmount = order.amount;
  if (order.twoPhase) order.status = OrderStatus.HELD;
  else settle(order, order.amount, now);
}

/**
 * Completes a hold: `amount` millimes are deposited (0: the whole hold) and the
 * rest released; the caller has checked `amount` against the hold (approvedAmount).
 */
export function deposit(order: Order, amount: number, now: Date): void {
  if (order.status !== OrderStatus.HELD) throw wrongState();
  if (amount > order.approvedAmount) throw new RangeError('deposit above the hold');
  settle(order, amount === 0 ? order.approvedAmount : amount, now);
}

/** The attempt failed; the order is finished. */
export function decline(order: Order, reason: DeclineReason): void {
  if (order.status !== OrderStatus.REGISTERED && order.status !== OrderStatus.AUTHENTICATING) throw wrongState();
  order.status = OrderStatus.DECLINED;
  order.action = DECLINES[reason];
}

/** Voids a deposited payment that was never refunded, or releases a hold; before settlement, once. */
export function reverse(order: Order): void {
  if (order.status !== OrderStatus.DEPOSITED && order.status !== OrderStatus.HELD) throw wrongState();
  order.status = OrderStatus.REVERSED;
  order.approvedAmount = 0;
  order.depositedAmount = 0;
}

/** Gives back part or all of what is left; the caller has checked `amount` against refundable(). */
export function refund(order: Order, amount: number): void {
  if (order.status !== OrderStatus.DEPOSITED && order.status !== OrderStatus.REFUNDED) throw wrongState();
  if (amount > refundable(order)) throw new RangeError('refund above what is left');
  order.refundedAmount += amount;
  order.status = OrderStatus.REFUNDED;
}

/** Millimes still refundable. */
export function refundable(order: Order): number {
  return order.depositedAmount - order.refundedAmount;
}

/**
 * Where the buyer goes once the attempt is finished: failUrl after a decline
 * when the merchant gave one (as the real acquirer does), returnUrl otherwise,
 * with `orderId` added to its query.
 */
export function finishRedirect(order: Order): string {
  const base = order.status === OrderStatus.DECLINED && order.failUrl !== undefined ? order.failUrl : order.returnUrl;
  // Only recurrentPayment.do's orders have none, and no buyer is ever sent back from them.
  if (base === undefined) throw new Error('an order without a returnUrl has no buyer to send back');
  return withQueryParam(base, 'orderId', order.orderId);
}

/** paymentorder.do's answer for an attempt that finished, approved or not: go to the finish redirect. */
export function finishedAnswer(order: Order): Readonly<Record<string, unknown>> {
  return { info: 'Your order is proceeded, redirecting...', redirect: finishRedirect(order) };
}

function settle(order: Order, amount: number, now: Date): void {
  order.status = OrderStatus.DEPOSITED;
  order.depositedAt = now.getTime();
  order.depositedAmount = amount;
}

function randomDigits(count: number): string {
  let out = '';
  for (let i = 0; i < count; i += 1) out += String(randomInt(10));
  return out;
}
