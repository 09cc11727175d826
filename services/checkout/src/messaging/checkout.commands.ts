/** The checkout service's command queue: payment links (D19) and branding (D20), each command one use case. */
import type { CommandHandlers } from '@gateway/messaging';
import { getBranding, removeLogo, setBranding, type BrandingDeps } from '../domain/branding.js';
import { createPaymentLink, deactivatePaymentLink, getPaymentLink, listPaymentLinks, type PaymentLinkDeps } from '../domain/payment-links.js';

export function checkoutCommands(deps: { paymentLinks: PaymentLinkDeps; branding: BrandingDeps }): CommandHandlers {
  const { paymentLinks, branding } = deps;
  return {
    'payment_link.create': async ({ context, body }) => ({ status: 201, body: await createPaymentLink(paymentLinks, context, body) }),
    'payment_link.get': async ({ context, payment_link_id }) => ({ body: await getPaymentLink(paymentLinks, context, payment_link_id) }),
    'payment_link.list': async ({ context, query }) => ({ body: await listPaymentLinks(paymentLinks, context, query) }),
    'payment_link.deactivate': async ({ context, payment_link_id }) => ({ body: await deactivatePaymentLink(paymentLinks, context, payment_link_id) }),
    'branding.get': async (command) => ({ body: await getBranding(branding, command) }),
    'branding.set': async (command) => ({ body: await setBranding(branding, command) }),
    'branding.remove_logo': async (command) => ({ body: await removeLogo(branding, command) }),
  };
}
