/** A refund as the merchant reads it (D16), and its record at the session. */
import type { Refund, RefundResult, RefundStatus } from '@gateway/contracts';
import { counter, describeError } from '@gateway/observability';
import type { RefundRow } from '../db/refund.repository.js';
import type { RefundDeps } from './deps.js';

/** PENDING (acquirer step under way) and MANUAL (waiting for an operator) both read as pending. */
export function statusOf(refund: Pick<RefundRow, 'status'>): RefundStatus {
  switch (refund.status) {
    case 'SUCCEEDED':
      return 'succeeded';
    case 'FAILED':
      return 'failed';
    default:
      return 'pending';
  }
}

export function refundOf(refund: RefundRow): Refund {
  const status = statusOf(refund);
  return {
    refund_id: refund.id,
    session_id: refund.session_id,
    amount: refund.amount,
    currency: 'TND',
    reason: refund.reason,
    metadata: refund.metadata,
    automated_refund: refund.automated,
    status,
    ...(status === 'pending' && refund.epg_error_message !== '' && { epg_error_message: refund.epg_error_message }),
    created_at: refund.created_at.toISOString(),
    resolved_at: refund.resolved_at?.toISOString() ?? null,
  };
}

/** The refund call's answer (INTERFACE 2.5) for a refund held as refunded. */
export function resultOf(refund: RefundRow): RefundResult {
  return {
    refund_id: refund.id,
    refunded_amount: refund.amount,
    automated_refund: refund.automated,
    ...(!refund.automated && { epg_error_message: refund.epg_error_message }),
    metadata: refund.metadata,
  };
}

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
