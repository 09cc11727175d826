/** The events the checkout service takes, each one change (apply-once): a payment counted on the payment link it was made through, its slot become the payment. */
import type { AnyChange } from '@gateway/messaging';
import type { PaymentLinkRepository } from '../db/payment-link.repository.js';
import { paymentLinkPayments } from '../domain/payment-link-payments.js';

export function checkoutEvents(paymentLinks: PaymentLinkRepository): AnyChange[] {
  return [paymentLinkPayments(paymentLinks)];
}
