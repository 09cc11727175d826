/**
 * Issuing another checkout link (D4): open sessions only, at most five
 * unexpired checkout links at once. The session row is locked, so concurrent
 * requests cannot both take the fifth place.
 */
import type { ApiContext, CheckoutLink } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { accountOf } from './accounts.js';
import { checkoutLinkExpiry, MAX_ACTIVE_CHECKOUT_LINKS } from './checkout-links.js';
import { checkoutUrl } from './session.js';
import type { SessionDeps } from './deps.js';
import { withOpenSession } from './open-session.js';

export async function issueCheckoutLink(deps: SessionDeps, context: ApiContext, sessionId: string): Promise<CheckoutLink> {
  const now = deps.clock();
  const link = await withOpenSession(deps, accountOf(context), sessionId, now, async (row, tx) => {
    if ((await deps.checkoutLinks.countActive(tx, row.id, now)) >= MAX_ACTIVE_CHECKOUT_LINKS) {
      throw new AppError('checkout-limit-exceeded', `The session already has ${MAX_ACTIVE_CHECKOUT_LINKS} active checkout links; use one of them or wait for one to lapse.`);
    }
    const minted = await deps.signer.mint(row.id, row.payment_link, checkoutLinkExpiry(now, deps.checkoutLinkTtlSeconds, row.expires_at));
    await deps.checkoutLinks.add(tx, row.id, minted, now);
    return minted;
  });
  return { checkout_url: checkoutUrl(deps.publicBaseUrl, link.token), expires_at: link.expiresAt.toISOString() };
}
