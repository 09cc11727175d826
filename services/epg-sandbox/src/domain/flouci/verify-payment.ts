/** verify_payment/{payment_id}: the payment's status now (a pending one past its timeout reads EXPIRED), its amount and how it went. */
import { detailsOf, statusAt } from './wallet-payment.js';
import { findPayment, type CallResult, type Wallet } from './wallet.js';

export function verifyPayment(wallet: Wallet, app: string, paymentId: string): CallResult {
  const payment = findPayment(wallet, app, paymentId);
  const status = statusAt(payment, wallet.now());
  return { type: 'wallet', amount: payment.amount, status, details: detailsOf(payment), developer_tracking_id: payment.developerTrackingId };
}
