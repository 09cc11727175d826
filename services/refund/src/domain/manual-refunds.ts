/**
 * The operations queue (D10, D13): refunds the acquirer could not confirm,
 * held as refunded until an operator says how they ended, and refunds left
 * PENDING (their replica died mid-refund). A MANUAL refund was announced
 * (refund.created) when it was held: resolved as succeeded, nothing changes
 * but the record; as failed, the amount becomes refundable again and
 * refund.failed tells the session. A PENDING one was never announced:
 * succeeded announces it now; failed only gives its amount back.
 */
import type { ApiContext, CommandReply, CommandRequest } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import { AppError } from '@gateway/problem';
import type { RefundRow } from '../db/refund.repository.js';
import { refundCreatedEvent } from './create-refund.js';
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

/** What refund.created says of a refund an operator confirmed after its replica died. */
const CONFIRMED_BY_OPERATIONS = 'The card processor did not answer in time; operations confirmed the refund.';

/**
 * The context to read a refund's session in, as its merchant: session.get
 * looks at the merchant and the mode alone (the order prefix and the name
 * only shape new sessions).
 */
function readingContext(refund: RefundRow, requestId: string): ApiContext {
  return { merchant_id: refund.merchant_id, livemode: refund.livemode, order_prefix: 'R', merchant_name: '', request_id: requestId };
}

export async function resolveManualRefund(deps: RefundDeps, command: CommandRequest<'refund.resolve'>, correlationId: string): Promise<CommandReply<'refund.resolve'>> {
  const refund = await deps.refunds.find(command.refund_id);
  if (!refund) throw new AppError('not-found', `There is no refund ${command.refund_id}.`);
  if (refund.status !== 'MANUAL' && refund.status !== 'PENDING') {
    throw new AppError('conflict', `Refund ${command.refund_id} is already ${refund.status}; only a refund waiting for an operator can be resolved.`);
  }
  let done;
  if (command.as === 'succeeded') {
    // Read before the transaction: a PENDING refund is announced with the session as it stands.
    const announced =
      refund.status === 'PENDING'
        ? refundCreatedEvent(refund.merchant_id, await deps.getSession(readingContext(refund, correlationId), refund.session_id), refund, CONFIRMED_BY_OPERATIONS, correlationId)
        : undefined;
    done = await deps.refunds.confirm(command.refund_id, (was) => (was === 'PENDING' && announced ? [announced] : []));
  } else {
    done = await deps.refunds.fail(command.refund_id, '', (failed, was) =>
      was === 'MANUAL'
        ? [eventEnvelope('refund.failed', { merchant_id: failed.merchant_id, session_id: failed.session_id, refund_id: failed.id, amount: failed.amount }, correlationId)]
        : [],
    );
  }
  if (!done) throw new AppError('conflict', `Refund ${command.refund_id} was resolved meanwhile.`);
  deps.afterCommit();
  deps.log.info({ refundId: command.refund_id, as: command.as }, 'manual refund resolved');
  return { refund_id: command.refund_id, status: command.as === 'succeeded' ? 'SUCCEEDED' : 'FAILED' };
}
