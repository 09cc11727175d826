/**
 * An API change made from the dashboard (a refund, a capture, a payment link,
 * a webhook endpoint): refused for a suspended merchant as the API refuses its
 * every call before it reaches the owning service, and, as a change made from
 * the dashboard, recorded in the audit log with its outcome (D14).
 */
import type { MerchantDetail } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import type { AccountsDeps, Doer } from './accounts.js';
import { audited } from './audit-log.js';

/** Runs `work`, the API's command for `merchant` in the mode in view, as the API would, audited as `change`. */
export function apiChange<T>(
  deps: Pick<AccountsDeps, 'pool' | 'afterCommit'>,
  doer: Doer,
  merchant: MerchantDetail,
  livemode: boolean,
  change: { action: string; target: string | null; detail: Record<string, unknown> },
  work: () => Promise<T>,
): Promise<T> {
  const entry = { action: change.action, merchantId: merchant.merchant_id, target: change.target, detail: { ...change.detail, livemode } };
  return audited(deps, doer, entry, async () => {
    if (merchant.status === 'suspended') throw new AppError('forbidden', 'This merchant account is suspended.');
    return work();
  });
}
