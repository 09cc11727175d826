/** An attempt's acquirer order, as it is recorded before anything is sent to the acquirer. */
import type { CommandRequest, PaymentMethodType, StartedAttempt } from '@gateway/contracts';
import type { NewOrder } from '../db/order.repository.js';

/**
 * The acquirer's order number: unique per terminal forever. Live terminals
 * are the merchant's own, so the session's order number and the attempt
 * number suffice; the sandbox terminal is shared by every merchant's test
 * mode, so there the merchant id's tail comes first.
 */
export function acquirerOrderNumber(attempt: CommandRequest<'payment.authorize'>['attempt']): string {
  const base = `${attempt.order_number}-${attempt.attempt_number}`;
  return attempt.livemode ? base : `${attempt.merchant_id.slice(-8)}-${base}`;
}

/** The order of an attempt, as recorded before anything is sent to the acquirer. */
export function newOrder(attempt: StartedAttempt, brand: string, last4: string, method: PaymentMethodType = 'card'): NewOrder {
  return {
    attempt_id: attempt.attempt_id,
    session_id: attempt.session_id,
    merchant_id: attempt.merchant_id,
    livemode: attempt.livemode,
    order_number: acquirerOrderNumber(attempt),
    amount: attempt.amount,
    card_brand: brand,
    card_last_four: last4,
    capture_method: attempt.capture_method ?? 'automatic',
    save_customer: attempt.save_card?.customer_id ?? null,
    save_usage: attempt.save_card?.usage ?? null,
    payment_method_type: method,
  };
}
