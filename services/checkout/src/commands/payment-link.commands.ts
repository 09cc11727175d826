/** The checkout service's command queue: payment links (D19), each command one use case. */
import type { CommandHandlers } from '@gateway/messaging';
import { createPaymentLink, deactivatePaymentLink, getPaymentLink, listPaymentLinks, type PaymentLinkDeps } from '../domain/payment-links.js';

export function paymentLinkCommands(deps: PaymentLinkDeps): CommandHandlers {
  return {
    'payment_link.create': async ({ context, body }) => ({ status: 201, body: await createPaymentLink(deps, context, body) }),
    'payment_link.get': async ({ context, payment_link_id }) => ({ body: await getPaymentLink(deps, context, payment_link_id) }),
    'payment_link.list': async ({ context, query }) => ({ body: await listPaymentLinks(deps, context, query) }),
    'payment_link.deactivate': async ({ context, payment_link_id }) => ({ body: await deactivatePaymentLink(deps, context, payment_link_id) }),
  };
}
