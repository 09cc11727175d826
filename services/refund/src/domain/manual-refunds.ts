/**
 * The operations queue (D10, D13): refunds the acquirer could not confirm,
 * held as refunded until an operator says how they ended, and refunds left
 * PENDING (their replica died mid-refund). Every resolution is announced as
 * refund.updated with the refund's final status (D16); resolved as failed,
 * the amount becomes refundable again and the session stops counting it. A
 * PENDING refund was never announced: resolved as succeeded, refund.created
 * announces it first. refund.updated names the operator as who resolved it.
 */
import type { ApiContext, CommandReply, CommandRequest } from '@gateway/contracts';
import { gauge } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import type { RefundRow } from '../db/refund.repository.js';
import type { RefundDeps } from './deps.js';
import { recordAtSession } from './record-at-session.js';
import { refundEvent } from './refund-events.js';
import { statusOf } from './refund-view.js';

type QueueReading = () => Promise<{ refunds: number; oldestSeconds: number }>;

/** The operations queues this process reads at scrape time (one per running refund service; tests may run two). */
const queues = new Set<QueueReading>();
let scrape: { at: number; state: Promise<{ refunds: number; oldestSeconds: number } | undefined> } | undefined;

/**
 * One query per queue per scrape for both gauges, whichever asks first;
 * undefined when the database did not answer (the gauges then keep their last
 * value and /metrics still serves everything else).
 */
function operationsQueue(): Promise<{ refunds: number; oldestSeconds: number } | undefined> {
  const now = Date.now();
  if (!scrape || now - scrape.at > 1_000) {
    scrape = {
      at: now,
      state: Promise.all([...queues].map((read) => read()))
        .then((states) => states.reduce((sum, s) => ({ refunds: sum.refunds + s.refunds, oldestSeconds: Math.max(sum.oldestSeconds, s.oldestSeconds) }), { refunds: 0, oldestSeconds: 0 }))
        .catch(() => undefined),
    };
  }
  return scrape.state;
}

/**
 * Shows the operations queue on /metrics: refunds waiting for an operator
 * (`refund list-manual`) and the age of the oldest, so that a refund held
 * for a person is an alert, not a surprise. Answers the function that stops it.
 */
export function watchOperationsQueue(read: QueueReading): () => void {
  queues.add(read);
  gauge('gateway_refunds_awaiting_operator', 'Refunds waiting for an operator (refund list-manual: unconfirmed by the acquirer, or left PENDING by a replica that died), read at scrape time.', [], async (g) => {
    const queue = await operationsQueue();
    if (queue) g.set(queue.refunds);
  });
  gauge('gateway_refunds_awaiting_operator_oldest_age_seconds', 'Age of the oldest refund waiting for an operator; 0 when none (read at scrape time).', [], async (g) => {
    const queue = await operationsQueue();
    if (queue) g.set(queue.oldestSeconds);
  });
  return () => {
    queues.delete(read);
    scrape = undefined;
  };
}

/** refund.list_manual: the refunds waiting for an operator (held for one, or unanswered too long), oldest first. */
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

/** Resolves a refund waiting for an operator; the answer, and the merchant it belongs to (for the audit log). */
export async function resolveManualRefund(
  deps: RefundDeps,
  command: CommandRequest<'refund.resolve'>,
  correlationId: string,
): Promise<{ resolved: CommandReply<'refund.resolve'>; merchantId: string }> {
  const refund = await deps.refunds.find(command.refund_id);
  if (!refund) throw new AppError('not-found', `There is no refund ${command.refund_id}.`);
  if (refund.status !== 'MANUAL' && refund.status !== 'PENDING') {
    throw new AppError('conflict', `Refund ${command.refund_id} is already ${refund.status}; only a refund waiting for an operator can be resolved.`);
  }
  // Read before the transaction: the events carry the session as it stands.
  const viewed = await deps.getSessionForEvent(readingContext(refund, correlationId), refund.session_id);
  const eventOf = (type: 'refund.created' | 'refund.updated', resolved: RefundRow, message: string) => {
    const event = refundEvent(type, resolved.merchant_id, viewed, { ...resolved, status: statusOf(resolved) }, message || undefined, correlationId);
    // The resolution says who made it: the notifier tells the merchant's owners (D20); webhooks carry the session alone.
    return type === 'refund.updated' ? { ...event, data: { ...event.data, resolved_by: 'operator' as const } } : event;
  };
  let done;
  if (command.as === 'succeeded') {
    done = await deps.refunds.confirm(command.refund_id, (confirmed, was) => [
      // A PENDING refund was never announced: it is now, then its resolution.
      ...(was === 'PENDING' ? [eventOf('refund.created', confirmed, CONFIRMED_BY_OPERATIONS)] : []),
      eventOf('refund.updated', confirmed, was === 'PENDING' ? CONFIRMED_BY_OPERATIONS : confirmed.epg_error_message),
    ]);
  } else {
    done = await deps.refunds.fail(command.refund_id, '', (failed) => [eventOf('refund.updated', failed, failed.epg_error_message)]);
  }
  if (!done) throw new AppError('conflict', `Refund ${command.refund_id} was resolved meanwhile.`);
  deps.afterCommit();
  await recordAtSession(deps, refund, command.as === 'succeeded' ? 'held' : 'failed', correlationId);
  deps.log.info({ refundId: command.refund_id, as: command.as }, 'manual refund resolved');
  return { resolved: { refund_id: command.refund_id, status: command.as === 'succeeded' ? 'SUCCEEDED' : 'FAILED' }, merchantId: refund.merchant_id };
}
