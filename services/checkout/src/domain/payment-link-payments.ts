/**
 * A payment link's payments_count (D19): each session made through a link that
 * succeeds counts once on it, from session.succeeded (apply-once, keyed on
 * the session). Counted here rather than asked of the session service on
 * each read: the page must know at once whether a single-use link is used
 * up, and a count kept with the link is one row read.
 */
import type { EventData } from '@gateway/contracts';
import type { Change } from '@gateway/messaging';
import type { PaymentLinkRepository } from '../db/payment-link.repository.js';

interface PaymentLinkPayment {
  sessionId: string;
  linkId: string;
  merchantId: string;
  at: Date;
}

/** The change; it answers the payment link's new count. */
export function paymentLinkPayments(paymentLinks: PaymentLinkRepository): Change<'session.succeeded', PaymentLinkPayment, number> {
  return {
    name: 'payment-link-payments',
    events: ['session.succeeded'],
    fromEvent: (data: EventData<'session.succeeded'>, context) => {
      const linkId = data.session.payment_link;
      if (linkId === undefined) return undefined;
      return { sessionId: data.session.id, linkId, merchantId: data.merchant_id, at: context.at };
    },
    apply: (payment) => paymentLinks.recordPayment(payment),
  };
}
