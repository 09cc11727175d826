/**
 * Whether a merchant is suspended, as the session service keeps it: from the
 * api-gateway's merchant.suspended and merchant.reactivated. A suspended
 * merchant's sessions take no payment (checkout-session.ts), whichever door
 * the payment comes through; the API already refuses its keys. One change
 * (apply-once, packages/messaging) keyed on the merchant and the event's
 * time: the newest announcement wins, a redelivered or late one changes nothing.
 */
import type { Change } from '@gateway/messaging';
import type { SessionRepository } from '../db/session.repository.js';

export interface MerchantStanding {
  merchantId: string;
  suspended: boolean;
}

/** The change; it answers the standing it recorded. */
export function merchantStanding(sessions: SessionRepository): Change<'merchant.suspended' | 'merchant.reactivated', MerchantStanding, MerchantStanding> {
  return {
    name: 'merchant-standing',
    events: ['merchant.suspended', 'merchant.reactivated'],
    fromEvent: (data, context) => ({ merchantId: data.merchant_id, suspended: context.event?.type === 'merchant.suspended' }),
    apply: async (standing, context) => ((await sessions.setMerchantStanding(standing.merchantId, standing.suspended, context.at)) ? standing : undefined),
  };
}
