/** cancel_payment: releases the hold of a pre-authorized payment, once; the payment then reads FAILURE. */
import { cancelHold } from './wallet-payment.js';
import { findPayment, paymentIdOf, type CallResult, type JsonBody, type Wallet } from './wallet.js';

export function cancelPayment(wallet: Wallet, app: string, body: JsonBody): CallResult {
  cancelHold(findPayment(wallet, app, paymentIdOf(body)));
  return { status: 'SUCCESS' };
}
