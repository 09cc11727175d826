/**
 * What the ledger writes for each event that moves money (D21). Each is read
 * from the event alone: session.succeeded carries the captured amount and its
 * fee (D22: the fee on what was captured), refund.created the refunded amount,
 * refund.updated an operator's resolution. Nothing is asked of another service.
 * An amount with more than 3 decimals is refused (exactTnd throws, and the
 * consumer dead-letters the event): rounding would write money nobody moved.
 */
import type { BalanceTransactionPaymentMethod, BalanceTransactionType, EventData, SessionEventPayload } from '@gateway/contracts';
import { exactTnd, subtractTnd } from '@gateway/money';

/** One money movement, before the ledger gives it an id and its days. */
export interface Movement {
  type: BalanceTransactionType;
  merchantId: string;
  livemode: boolean;
  sessionId: string;
  /** How the session was paid (D26): a refund and its reversal name their payment's method. */
  paymentMethod: BalanceTransactionPaymentMethod;
  /** What moved it: the session for a payment, the refund for a refund and its reversal; unique per type. */
  source: string;
  /** TND, 3 decimals, signed: a refund is negative. */
  amount: string;
  fee: string;
  net: string;
  createdAt: Date;
}

const ZERO = '0.000';

/**
 * The method of a session's payment, as its events name it: `flouci` for the
 * wallet (D26), otherwise `card`, which events written before wallets were
 * taken (no method, or always card) meant. Money is never refused for the
 * name of its method: an event the ledger could not file would leave the
 * balance short.
 */
function paymentMethodOf(session: SessionEventPayload): BalanceTransactionPaymentMethod {
  return session.payment?.method === 'flouci' ? 'flouci' : 'card';
}

/** The payment of a succeeded session: the captured amount (the whole amount unless captured in part), its fee and net. */
export function paymentMovement(data: EventData<'session.succeeded'>, at: Date): Movement {
  const session = data.session;
  const amount = exactTnd(session.amount_captured || session.amount);
  const fee = exactTnd(session.payment?.fee_amount || ZERO);
  return {
    type: 'payment',
    merchantId: data.merchant_id,
    livemode: session.livemode,
    sessionId: session.id,
    paymentMethod: paymentMethodOf(session),
    source: session.id,
    amount,
    fee,
    net: subtractTnd(amount, fee),
    createdAt: session.paid_at ? new Date(session.paid_at) : at,
  };
}

/**
 * The movements a refund event announces. refund.created: the refund, negative.
 * refund.updated as failed: the refund given back (refund_reversal), together
 * with the refund itself when its refund.created has not been applied (it may
 * come later, or never for a refund that was still under way when an operator
 * failed it): the two then cancel out, and a late refund.created adds nothing.
 * Resolved as succeeded, nothing moves that refund.created did not already.
 */
export function refundMovements(type: 'refund.created' | 'refund.updated', data: EventData<'refund.created' | 'refund.updated'>, at: Date): Movement[] {
  const refund = data.session.refund;
  if (!refund) return [];
  const base = {
    merchantId: data.merchant_id,
    livemode: data.session.livemode,
    sessionId: data.session.id,
    paymentMethod: paymentMethodOf(data.session),
    source: refund.refund_id,
    fee: ZERO,
  };
  const amount = exactTnd(refund.amount);
  const negative = subtractTnd(ZERO, amount);
  // Dated when it was made, whichever of its events is applied first; the reversal when it was resolved.
  const given = { ...base, type: 'refund' as const, amount: negative, net: negative, createdAt: refund.created_at ? new Date(refund.created_at) : at };
  if (type === 'refund.created') return [given];
  if (refund.status !== 'failed') return [];
  return [given, { ...base, type: 'refund_reversal', amount, net: amount, createdAt: at }];
}
