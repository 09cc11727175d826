/**
 * amount_refunded (D2, D16): the refunds the refund service holds as refunded,
 * confirmed or waiting for an operator, less those an operator failed. The
 * refund service records each refund here (session.record_refund) before it
 * answers the merchant, so a read after the answer shows it; refund.created
 * and refund.updated carry the same change for a refund whose command did not
 * get through. It is one change (apply-once, packages/messaging) keyed on the
 * refund: whichever path comes first moves the total, once.
 */
import type { CommandRequest, EventData } from '@gateway/contracts';
import { applyOnce, type Change, type ChangeContext } from '@gateway/messaging';
import type { SessionRepository } from '../db/session.repository.js';

/** A refund as the session counts it. */
export interface RefundRecord {
  sessionId: string;
  refundId: string;
  amount: string;
  /** Held: confirmed or waiting for an operator; failed: an operator failed it. */
  outcome: 'held' | 'failed';
}

/** The change; it answers the session's new amount_refunded when it moved it. */
export function refundRecord(sessions: SessionRepository): Change<'refund.created' | 'refund.updated', RefundRecord, string> {
  return {
    name: 'refund-record',
    events: ['refund.created', 'refund.updated'],
    fromEvent: (data: EventData<'refund.created' | 'refund.updated'>) => {
      const refund = data.session.refund;
      return refund && { sessionId: data.session.id, refundId: refund.refund_id, amount: refund.amount, outcome: refund.status === 'failed' ? 'failed' : 'held' };
    },
    apply: (record) => sessions.recordRefund(record),
  };
}

/** session.record_refund: the refund service's record of a refund, answered with the session's amount_refunded. */
export async function recordRefund(
  change: ReturnType<typeof refundRecord>,
  sessions: SessionRepository,
  request: CommandRequest<'session.record_refund'>,
  context: ChangeContext,
): Promise<string> {
  const record: RefundRecord = { sessionId: request.session_id, refundId: request.refund_id, amount: request.amount, outcome: request.outcome };
  const moved = await applyOnce(change, 'command', record, context);
  if (moved !== undefined) return moved;
  const total = await sessions.amountRefunded(record.sessionId);
  if (total === undefined) throw new Error(`no session ${record.sessionId}`);
  return total;
}
