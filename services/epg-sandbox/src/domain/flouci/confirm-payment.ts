/** confirm_payment: takes the hold of a pre-authorized payment, once; the payment then reads SUCCESS. */
import { partialNotSupported } from './flouci-error.js';
import { optionalMillimes } from './request-fields.js';
import { confirmHold } from './wallet-payment.js';
import { findPayment, paymentIdOf, type CallResult, type JsonBody, type Wallet } from './wallet.js';

export function confirmPayment(wallet: Wallet, app: string, body: JsonBody): CallResult {
  const payment = findPayment(wallet, app, paymentIdOf(body));
  // Flouci may take part of a hold; the sandbox takes it whole (WALLET.md), so a smaller amount is refused rather than ignored.
  const amount = optionalMillimes(body, 'amount');
  if (amount !== undefined && amount !== payment.amount) throw partialNotSupported('confirmed');
  confirmHold(payment);
  return { status: 'SUCCESS' };
}
