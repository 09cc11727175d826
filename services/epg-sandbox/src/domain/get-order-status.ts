/**
 * getOrderStatusExtended.do: everything the acquirer knows of one order, by
 * orderId or orderNumber; paymentAmountInfo always, bindingInfo once the order
 * saved a card or was paid with one.
 */
import { missing, orderNotFound, type CallFields } from './epg-error.js';
import { OrderStatus, TND, type Order } from './order.js';
import type { CallParams, Sandbox } from './sandbox.js';

type PaymentState = 'CREATED' | 'STARTED' | 'DEPOSITED' | 'DECLINED' | 'REVERSED' | 'REFUNDED' | 'APPROVED';

const PAYMENT_STATES: Record<OrderStatus, PaymentState> = {
  [OrderStatus.REGISTERED]: 'CREATED',
  [OrderStatus.HELD]: 'APPROVED',
  [OrderStatus.DEPOSITED]: 'DEPOSITED',
  [OrderStatus.REVERSED]: 'REVERSED',
  [OrderStatus.REFUNDED]: 'REFUNDED',
  [OrderStatus.AUTHENTICATING]: 'STARTED',
  [OrderStatus.DECLINED]: 'DECLINED',
};

/** Finds the terminal's order by orderId, else by orderNumber, and describes it. */
export function getOrderStatus(sandbox: Sandbox, terminal: string, params: CallParams): CallFields {
  const orderId = params.get('orderId');
  const orderNumber = params.get('orderNumber');
  if (orderId === undefined && orderNumber === undefined) throw missing('orderId');
  // orderId wins when both are given, with no fallback to the number.
  const order = orderId !== undefined ? sandbox.store.byId(terminal, orderId) : sandbox.store.byNumber(terminal, orderNumber ?? '');
  if (!order) throw orderNotFound();
  return statusReply(order);
}

/** The extended status of an order, members in the order the real acquirer writes them. */
function statusReply(order: Order): CallFields {
  return {
    orderNumber: order.orderNumber,
    orderStatus: order.status,
    actionCode: order.action.code,
    actionCodeDescription: order.action.description,
    amount: order.amount,
    currency: TND,
    date: order.registeredAt,
    ...(order.depositedAt !== undefined && { depositedDate: order.depositedAt }),
    ...(order.card && {
      cardAuthInfo: {
        // As deployed (ACQUIRER.md): some answers carry the masked number as pan only, never maskedPan; the sandbox does so for cards starting 5.
        ...(order.card.maskedPan.startsWith('5') ? { pan: order.card.maskedPan } : { maskedPan: order.card.maskedPan }),
        expiration: order.card.expiration,
        cardholderName: order.card.cardholderName,
        ...(order.approvalCode !== undefined && { approvalCode: order.approvalCode }),
        ...(order.eci !== undefined && { secureAuthInfo: { eci: order.eci } }),
      },
    }),
    ...(order.authRefNum !== undefined && { authRefNum: order.authRefNum }),
    ...(order.payer?.ip !== undefined && { ip: order.payer.ip }),
    ...((order.payer?.email !== undefined || order.payer?.phone !== undefined) && { payerData: { email: order.payer.email, phone: order.payer.phone } }),
    ...(order.binding && { bindingInfo: { clientId: order.binding.clientId, bindingId: order.binding.bindingId } }),
    paymentAmountInfo: {
      approvedAmount: order.approvedAmount,
      depositedAmount: order.depositedAmount,
      refundedAmount: order.refundedAmount,
      paymentState: PAYMENT_STATES[order.status],
    },
  };
}
