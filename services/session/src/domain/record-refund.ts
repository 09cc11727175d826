/**
 * amount_refunded (D2, D16): the refunds the refund service holds as refunded,
 * confirmed or waiting for an operator, less those an operator failed. The
 * refund service records each refund here (session.record_refund) before it
 * answers the merchant, so a read after the answer shows it; refund.created
 * and refund.updated carry the same change for a refund whose command did not
 * get through. It is one change (apply-once, packages/messaging) keyed on the
 * refund: whichever path comes first moves the total, once.
 */
import type { CommandRequest } from '@gateway/contracts';
import { applyOnce, type Change, type ChangeContext } from '@gateway/messaging';
import type { RefundRecordRepository } from '../db/refund-record.repository.js';

/** A refund as the session counts it. */
export interface RefundRecord {
  sessionId: string;
  refundId: string;
  amount: string;
  /** Held: confirmed or waiting for an operator; failed: an operator failed it. */
  outcome: 'held' | 'failed';
}

/** The change; it answers the session's new amount_refunded when it moved it. */
export type RefundRecordChange = Change<'refund.created' | 'refund.updated', RefundRecord, string>;

/** Counts the refund (or stops counting it) unless that was done already; the session's new amount_refunded when this call moved it. */
export function countRefund(refundRecords: RefundRecordRepository, record: RefundRecord): Promise<string | undefined> {
  return refundRecords.record(record);
}

/** session.record_refund: the refund service's record of a refund, answered with the session's amount_refunded. */
export async function recordRefund(
  change: RefundRecordChange,
  refundRecords: RefundRecordRepository,
  request: CommandRequest<'session.record_refund'>,
  context: ChangeContext,
): Promise<string> {
  const record: RefundRecord = { sessionId: request.session_id, refundId: request.refund_id, amount: request.amount, outcome: request.outcome };
  const moved = await applyOnce(change, 'command', record, context);
  if (moved !== undefined) return moved;
  const total = await refundRecords.amountRefunded(record.sessionId);
  if (total === undefined) throw new Error(`no session ${record.sessionId}`);
  return total;
}
