/** Why a payment link takes payments or not (D19), read from what the API answers. */
import type { PaymentLink } from '@gateway/contracts';

export type LinkState = 'active' | 'inactive' | 'expired' | 'used up';

/** The link's state at `now`: the API's `active` covers all three reasons it may not be. */
export function stateOf(link: PaymentLink, now: number): LinkState {
  if (link.active) return 'active';
  if (link.max_payments !== null && link.payments_count >= link.max_payments) return 'used up';
  if (link.expires_at !== null && Date.parse(link.expires_at) <= now) return 'expired';
  return 'inactive';
}
