/**
 * Refunds read back (D16): one by id, or a session's, each only by the
 * account (merchant and mode) that made it; another account's is 404, as
 * sessions are.
 */
import type { ApiContext, Refund, RefundList } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import type { RefundDeps } from './deps.js';
import { refundOf } from './refund-view.js';

export async function getRefund(deps: RefundDeps, context: ApiContext, refundId: string): Promise<Refund> {
  const refund = await deps.refunds.findOwn(context.merchant_id, context.livemode, refundId);
  if (!refund) throw new AppError('not-found', `There is no refund ${refundId}.`);
  return refundOf(refund);
}

export async function listSessionRefunds(deps: RefundDeps, context: ApiContext, sessionId: string): Promise<RefundList> {
  const refunds = await deps.refunds.listOwn(context.merchant_id, context.livemode, sessionId);
  // No refunds yet: the session must still be the caller's (session.get answers 404 otherwise).
  if (refunds.length === 0) await deps.getSession(context, sessionId);
  return { data: refunds.map(refundOf) };
}
