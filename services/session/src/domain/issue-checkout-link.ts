/**
 * Issuing another hosted-page link (D4): open sessions only, at most five
 * unexpired links at once. The session row is locked, so concurrent requests
 * cannot both take the fifth place.
 */
import type { ApiContext, CheckoutLink } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { accountOf, withOpenSession } from './cancel-session.js';
import { linkExpiry, MAX_ACTIVE_LINKS } from './checkout-links.js';
import { checkoutUrl } from './session.js';
import type { SessionDeps } from './deps.js';

export async function issueCheckoutLink(deps: SessionDeps, context: ApiContext, sessionId: string): Promise<CheckoutLink> {
  const now = deps.clock();
  const link = await withOpenSession(deps, accountOf(context), sessionId, now, async (row, tx) => {
    if ((await deps.sessions.countActiveLinks(tx, row.id, now)) >= MAX_ACTIVE_LINKS) {
      throw new AppError('checkout-limit-exceeded', `The session already has ${MAX_ACTIVE_LINKS} active checkout links; use one of them or wait for one to lapse.`);
    }
    const minted = await deps.signer.mint(row.id, linkExpiry(now, deps.linkTtlSeconds, row.expires_at));
    await deps.sessions.addLink(tx, row.id, minted, now);
    return minted;
  });
  return { checkout_url: checkoutUrl(deps.publicBaseUrl, link.token), expires_at: link.expiresAt.toISOString() };
}
