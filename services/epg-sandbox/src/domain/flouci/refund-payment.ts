/** refund_payment: gives back the whole amount of a successful payment, once (WALLET.md); the payment still reads SUCCESS, its details name the refund. */
import { partialNotSupported } from './flouci-error.js';
import { optionalMillimes } from './request-fields.js';
import { refundWhole } from './wallet-payment.js';
import { findPayment, paymentIdOf, type CallResult, type JsonBody, type Wallet } from './wallet.js';

export function refundPayment(wallet: Wallet, app: string, body: JsonBody): CallResult {
  const payment = findPayment(wallet, app, paymentIdOf(body));
  const amount = optionalMillimes(body, 'amount');
  if (amount !== undefined && amount !== payment.amount) throw partialNotSupported('refunded');
  const refund = refundWhole(payment, wallet.now());
  return { refund_id: refund.refundId, payment_id: payment.paymentId, amount: String(payment.amount), status: 'success', refunded_at: refund.refundedAt.toISOString() };
}
