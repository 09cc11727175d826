/**
 * Sessions by how they ended, counted as their terminal event leaves the
 * outbox: only then is the change known committed, whichever path made it
 * (the adapter's answer, a payment event, a cancel, the expiry sweep).
 * A declined attempt that leaves the session payable again is
 * `declined_retryable`; one that ends it is `failed`.
 */
import type { Envelope } from '@gateway/contracts';
import { counter } from '@gateway/observability';

const sessionOutcomes = counter('gateway_sessions_completed_total', 'Session outcomes committed, by outcome (succeeded, failed, declined_retryable, expired, canceled).', ['outcome']);

const bound = {
  succeeded: sessionOutcomes.labels({ outcome: 'succeeded' }),
  failed: sessionOutcomes.labels({ outcome: 'failed' }),
  declinedRetryable: sessionOutcomes.labels({ outcome: 'declined_retryable' }),
  expired: sessionOutcomes.labels({ outcome: 'expired' }),
  canceled: sessionOutcomes.labels({ outcome: 'canceled' }),
};

/** Counts the outcome `envelope` announces, if it is one. */
export function countSessionOutcome(envelope: Envelope): void {
  switch (envelope.type) {
    case 'session.succeeded':
      bound.succeeded.inc();
      break;
    case 'session.failed':
      ((envelope.data as { session?: { can_retry?: boolean } }).session?.can_retry ? bound.declinedRetryable : bound.failed).inc();
      break;
    case 'session.expired':
      bound.expired.inc();
      break;
    case 'session.canceled':
      bound.canceled.inc();
      break;
  }
}
