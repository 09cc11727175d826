/** The dispatcher's metric families: attempts, retries, give-ups, lost leases and delivery latency. */
import { counter, histogram } from '@gateway/observability';

export const webhookAttempts = counter('gateway_webhook_attempts_total', 'Webhook delivery attempts, by outcome (succeeded, failed).', ['outcome']);
export const webhookRetriesScheduled = counter('gateway_webhook_retries_scheduled_total', 'Failed webhook attempts given an automatic retry.');
export const webhookLeasesLost = counter(
  'gateway_webhook_leases_lost_total',
  'Queued webhook attempts not sent by this replica: their lease lapsed while they waited, and another replica took them or they were done.',
);
export const webhookGivenUp = counter('gateway_webhook_attempts_given_up_total', 'Failed automatic webhook attempts with no retry left: the delivery is final.');
export const webhookDeliveryDuration = histogram(
  'gateway_webhook_delivery_duration_seconds',
  "Time of one webhook POST, until the merchant's answer or the failure, by outcome.",
  ['outcome'],
  [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
);
