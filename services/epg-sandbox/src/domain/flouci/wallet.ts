/** What every Flouci call and the buyer's page work with, and how a call reads its JSON body. */
import { invalidField, paymentNotFound } from './flouci-error.js';
import type { WalletPayment, WalletStatus } from './wallet-payment.js';
import type { WalletPaymentStore } from './wallet-payment.store.js';

/** Where the buyer's page of a payment is served: `link` is this path and the payment's id, at the sandbox's public address. */
export const PAY_PAGE_PATH = '/flouci/pay/';

/** What the sandbox posts to a payment's webhook once the buyer has answered (WALLET.md). */
interface WebhookNotice {
  readonly payment_id: string;
  readonly status: WalletStatus;
}

export interface Wallet {
  readonly payments: WalletPaymentStore;
  /** Base URL a buyer's browser reaches the sandbox at, without a trailing slash. */
  readonly publicUrl: string;
  readonly now: () => Date;
  /** Posts a notice to a webhook and returns at once: the buyer never waits for the merchant. */
  readonly notify: (webhook: string, notice: WebhookNotice) => void;
}

/** A call's JSON body: an object, its fields read one by one. */
export type JsonBody = Readonly<Record<string, unknown>>;

/** What a successful call answers as its `result`; a refusal throws FlouciError. */
export type CallResult = Readonly<Record<string, unknown>>;

/** The link of a payment's page. */
export function linkOf(wallet: Wallet, paymentId: string): string {
  return `${wallet.publicUrl}${PAY_PAGE_PATH}${paymentId}`;
}

/** The body's payment_id, or a refusal. */
export function paymentIdOf(body: JsonBody): string {
  const paymentId = body['payment_id'];
  if (typeof paymentId !== 'string' || paymentId === '') throw invalidField('payment_id', 'is required');
  return paymentId;
}

/** The application's payment with this id, or "Payment not found": another application's payment is as unknown. */
export function findPayment(wallet: Wallet, app: string, paymentId: string): WalletPayment {
  const payment = wallet.payments.byId(app, paymentId);
  if (!payment) throw paymentNotFound();
  return payment;
}
