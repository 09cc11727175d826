/**
 * Whether a merchant is suspended, as the session service keeps it: from the
 * api-gateway's merchant.suspended and merchant.reactivated. A suspended
 * merchant's sessions take no payment (checkout-session.ts), whichever door
 * the payment comes through; the API already refuses its keys. One change
 * (apply-once, packages/messaging) keyed on the merchant and the event's
 * time: the newest announcement wins, a redelivered or late one changes nothing.
 */
import type { Change } from '@gateway/messaging';
import type { MerchantStandingRepository } from '../db/merchant-standing.repository.js';

export interface MerchantStanding {
  merchantId: string;
  suspended: boolean;
}

/** The change; it answers the standing it recorded. */
export type MerchantStandingChange = Change<'merchant.suspended' | 'merchant.reactivated', MerchantStanding, MerchantStanding>;

/** Records the standing an announcement of `at` gives, unless a newer one is recorded; the standing when it changed. */
export async function recordStanding(standings: MerchantStandingRepository, standing: MerchantStanding, at: Date): Promise<MerchantStanding | undefined> {
  return (await standings.set(standing.merchantId, standing.suspended, at)) ? standing : undefined;
}
