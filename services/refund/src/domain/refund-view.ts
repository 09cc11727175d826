/** A refund as the merchant reads it (D16). */
import type { Refund, RefundResult, RefundStatus } from '@gateway/contracts';
import type { RefundRow } from '../db/refund.repository.js';

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

/** A refund as the API shows it (INTERFACE 2.5). */
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
