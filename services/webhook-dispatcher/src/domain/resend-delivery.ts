/**
 * `webhook resend` (INTERFACE 6.4.5, D13): the event of any delivery, failed or
 * not, sent again as a new attempt with the same event id, signed with the
 * current secret. A resend is one attempt: it is not retried by itself.
 * From the dashboard the command names the user's merchant, and a delivery of
 * another merchant is answered as unknown, never resent.
 */
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import type { ResendDeps } from './deps.js';

/** The new attempt, and the merchant whose event it sends (for the audit log). */
export async function resendDelivery(deps: ResendDeps, command: CommandRequest<'webhook.resend'>): Promise<{ resent: CommandReply<'webhook.resend'>; merchantId: string }> {
  const resent = await deps.deliveries.resend(command.delivery_id, command.merchant_id);
  if (!resent) throw new AppError('not-found', `There is no webhook delivery ${command.delivery_id}, or its event has no webhook URL.`);
  deps.enqueue([resent.job]);
  return { resent: { delivery_id: resent.job.deliveryId }, merchantId: resent.merchantId };
}
