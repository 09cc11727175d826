/**
 * The buyer at a payment's page (WALLET.md "The sandbox"): the page is open
 * while the payment awaits them; Confirm payment with an 8-digit phone pays,
 * holds, is declined or waits for an approval that never comes, by the phone
 * (wallet-payment.ts); Cancel fails it. Once answered, the merchant's webhook
 * hears the status (posted without waiting) and the buyer goes to
 * success_link, or fail_link after a failure, with payment_id in the query.
 */
import { accountCurrency, fromMinorUnits } from '@gateway/money';
import { withQueryParam } from '../urls.js';
import { awaitsBuyer, cancelByBuyer, isPhone, payWithPhone, statusAt, type WalletPayment, type WalletStatus } from './wallet-payment.js';
import type { Wallet } from './wallet.js';

/** What the page shows of a payment awaiting its buyer. */
export interface PayPage {
  readonly paymentId: string;
  /** "125.500" */
  readonly amountTnd: string;
}

/** Why a payment has no page: unknown (or forgotten), or no longer awaiting its buyer. */
export type NoPage = 'unknown' | 'finished';

/** What the buyer posted: their phone and the button they pressed. */
export interface BuyerAnswer {
  readonly phone: string | undefined;
  readonly action: string | undefined;
}

export type AnswerOutcome =
  | { readonly kind: NoPage }
  /** The page again, saying what to correct; the payment is unchanged. */
  | { readonly kind: 'invalid'; readonly page: PayPage; readonly error: string }
  | { readonly kind: 'answered'; readonly status: WalletStatus; readonly redirect: string };

const PHONE_ERROR = 'Enter your phone number: 8 digits.';
const ACTION_ERROR = 'Choose Confirm payment or Cancel.';

/** The page of a payment awaiting its buyer, or why there is none. */
export function openPayPage(wallet: Wallet, paymentId: string): PayPage | NoPage {
  const payment = wallet.payments.byIdAnyApp(paymentId);
  if (!payment) return 'unknown';
  if (!awaitsBuyer(payment, wallet.now())) return 'finished';
  return pageOf(payment);
}

/** The buyer's answer, taken once. */
export function answerPayPage(wallet: Wallet, paymentId: string, answer: BuyerAnswer): AnswerOutcome {
  // 1. Only a payment still awaiting its buyer takes an answer.
  const payment = wallet.payments.byIdAnyApp(paymentId);
  if (!payment) return { kind: 'unknown' };
  const now = wallet.now();
  if (!awaitsBuyer(payment, now)) return { kind: 'finished' };

  // 2. The button pressed, and for Confirm payment a phone of 8 digits.
  const phone = answer.phone?.trim() ?? '';
  if (answer.action === 'cancel') cancelByBuyer(payment, now);
  else if (answer.action !== 'confirm') return { kind: 'invalid', page: pageOf(payment), error: ACTION_ERROR };
  else if (!isPhone(phone)) return { kind: 'invalid', page: pageOf(payment), error: PHONE_ERROR };
  else payWithPhone(payment, phone, now);

  // 3. The merchant hears of it; the buyer goes back to the merchant.
  const status = statusAt(payment, now);
  if (payment.webhook !== undefined) wallet.notify(payment.webhook, { payment_id: payment.paymentId, status });
  return { kind: 'answered', status, redirect: withQueryParam(status === 'FAILURE' ? payment.failLink : payment.successLink, 'payment_id', payment.paymentId) };
}

function pageOf(payment: WalletPayment): PayPage {
  return { paymentId: payment.paymentId, amountTnd: fromMinorUnits(String(payment.amount), accountCurrency) };
}
