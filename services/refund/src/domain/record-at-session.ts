/** A refund's record at its session (D16): what amount_refunded counts. */
import { counter, describeError } from '@gateway/observability';
import type { RefundRow } from '../db/refund.repository.js';
import type { RefundDeps } from './deps.js';

/** Refunds the session could not be told of before the answer; its refund events tell it shortly after. */
const unrecorded = counter('gateway_refunds_unrecorded_total', 'Refunds answered before the session service recorded them (it learns them from the refund events instead).');

/**
 * Has the session count the refund (`held`) or stop counting it (`failed`)
 * before the merchant hears of it (D16). Tried twice; when the session
 * service cannot be reached the refund still stands and its event records
 * it, so the merchant gets the refund's true answer rather than an error that
 * invites a second refund.
 */
export async function recordAtSession(
  deps: RefundDeps,
  refund: Pick<RefundRow, 'id' | 'session_id' | 'amount'>,
  outcome: 'held' | 'failed',
  correlationId: string,
): Promise<void> {
  const request = { session_id: refund.session_id, refund_id: refund.id, amount: refund.amount, outcome };
  for (let attempt = 1; ; attempt += 1) {
    try {
      await deps.recordAtSession(request, correlationId);
      return;
    } catch (err) {
      if (attempt < 2) continue;
      unrecorded.inc();
      deps.log.warn({ err: describeError(err), refundId: refund.id }, 'session not told of the refund before the answer; its event will tell it');
      return;
    }
  }
}
