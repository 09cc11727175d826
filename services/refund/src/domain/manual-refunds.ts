/**
 * The operations queue (D10, D13): refunds the acquirer could not confirm,
 * held as refunded until an operator says how they ended. Resolved as
 * succeeded, nothing changes but the record; as failed, the amount becomes
 * refundable again and refund.failed tells the session.
 */
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import { AppError } from '@gateway/problem';
import type { RefundDeps } from './deps.js';

export async function listManualRefunds(deps: RefundDeps): Promise<CommandReply<'refund.list_manual'>> {
  const rows = await deps.refunds.listManual(deps.staleSeconds);
  return {
    data: rows.map((r) => ({
      refund_id: r.id,
      session_id: r.session_id,
      merchant_id: r.merchant_id,
      livemode: r.livemode,
      amount: r.amount,
      reason: r.reason,
      epg_error_message: r.epg_error_message,
      created_at: r.created_at.toISOString(),
    })),
  };
}

export async function resolveManualRefund(deps: RefundDeps, command: CommandRequest<'refund.resolve'>, correlationId: string): Promise<CommandReply<'refund.resolve'>> {
  const refund = await deps.refunds.find(command.refund_id);
  if (!refund) throw new AppError('not-found', `There is no refund ${command.refund_id}.`);
  if (refund.status !== 'MANUAL' && refund.status !== 'PENDING') {
    throw new AppError('conflict', `Refund ${command.refund_id} is already ${refund.status}; only a refund waiting for an operator can be resolved.`);
  }
  const done =
    command.as === 'succeeded'
      ? await deps.refunds.confirm(command.refund_id)
      : await deps.refunds.fail(command.refund_id, '', (failed) => [
          eventEnvelope('refund.failed', { merchant_id: failed.merchant_id, session_id: failed.session_id, refund_id: failed.id, amount: failed.amount }, correlationId),
        ]);
  if (!done) throw new AppError('conflict', `Refund ${command.refund_id} was resolved meanwhile.`);
  if (command.as === 'failed') deps.afterCommit();
  deps.log.info({ refundId: command.refund_id, as: command.as }, 'manual refund resolved');
  return { refund_id: command.refund_id, status: command.as === 'succeeded' ? 'SUCCEEDED' : 'FAILED' };
}
