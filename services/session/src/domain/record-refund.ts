/**
 * amount_refunded (D2, D16): the refunds the refund service holds as refunded,
 * confirmed or waiting for an operator, less those an operator failed. The
 * refund service records each refund here before it answers the merchant, so
 * a read after the answer shows it; refund.created and refund.updated record
 * it again for a refund whose command did not get through. Either way a refund
 * moves the total once.
 */
import type { CommandRequest, EventData } from '@gateway/contracts';
import type { PoolClient } from '@gateway/db';
import type { SessionRepository } from '../db/session.repository.js';

export async function recordRefund(sessions: SessionRepository, refund: CommandRequest<'session.record_refund'>, tx?: PoolClient): Promise<string> {
  return sessions.recordRefund({ sessionId: refund.session_id, refundId: refund.refund_id, amount: refund.amount, outcome: refund.outcome }, tx);
}

/** A refund event's refund, counted when it succeeded or waits for an operator, uncounted when it failed. */
export async function recordRefundEvent(sessions: SessionRepository, data: EventData<'refund.created' | 'refund.updated'>, tx: PoolClient): Promise<void> {
  const refund = data.session.refund;
  if (!refund) return;
  await recordRefund(sessions, { session_id: data.session.id, refund_id: refund.refund_id, amount: refund.amount, outcome: refund.status === 'failed' ? 'failed' : 'held' }, tx);
}
