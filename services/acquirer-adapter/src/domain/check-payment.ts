/**
 * payment.check: the session asks about an attempt it has left PROCESSING
 * long past any payment step (the replica running the payment died, say).
 * An order the adapter has is reported where it stands: final with its
 * outcome, or unresolved, which reconciliation resolves with the acquirer. An
 * attempt with no order never reached the acquirer: it is recorded as
 * declined, in the same insert that claims its attempt id, so a late
 * payment.authorize for it finds it final and can never charge the card.
 */
import type { CommandRequest, PaymentStep } from '@gateway/contracts';
import type { AdapterDeps } from './deps.js';
import { decline, finishedStep, NEVER_SENT } from './finish-order.js';
import { newOrder } from './new-order.js';

/** payment.check: where the attempt's order stands; an attempt with no order is declined for good. */
export async function checkPayment(deps: AdapterDeps, request: CommandRequest<'payment.check'>, correlationId: string): Promise<PaymentStep> {
  const { attempt } = request;
  // A wallet attempt (D26) is declined as one: its brand is the wallet's.
  const method = attempt.payment_method_type ?? 'card';
  const inserted = await deps.orders.insert(newOrder(attempt, method === 'card' ? '' : method, '', method));
  if (inserted) {
    deps.log.info({ attemptId: attempt.attempt_id }, 'checked attempt never reached the acquirer; declined');
    return decline(deps, inserted, 'processing_error', NEVER_SENT, correlationId);
  }
  const order = await deps.orders.find(attempt.attempt_id);
  if (!order) throw new Error('order vanished after a conflicting insert');
  return finishedStep(order);
}
