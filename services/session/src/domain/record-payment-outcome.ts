/**
 * What the session does when the acquirer adapter reports an attempt's
 * outcome (INTERFACE 3.1): approved → SUCCEEDED with session.succeeded;
 * declined → PENDING while attempts remain, else FAILED, with session.failed
 * (D11: last_failure_code, last_failure_message, attempts_count, can_retry).
 * The outcome arrives twice: in the adapter's answer to the payment, and as
 * its payment.* event (the only way when the answer was lost). Whichever
 * comes first moves the attempt; the other finds it resolved and changes
 * nothing, so session.succeeded or session.failed is emitted once. On the
 * replica that recorded the answer, the event is acked without a transaction.
 */
import type { EventData, PaymentStep } from '@gateway/contracts';
import type { PoolClient } from '@gateway/db';
import { enqueue, eventEnvelope } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import type { AttemptOutcome, SessionRepository } from '../db/session.repository.js';
import { toEventPayload, type SessionRow } from './session.js';

export interface OutcomeDeps {
  sessions: SessionRepository;
  log: Logger;
  /** Attempts whose outcome this replica has committed. */
  recorded: RecordedAttempts;
}

/**
 * The attempts whose outcome this replica is recording or has recorded from
 * the adapter's answer, so that the same outcome arriving as an event needs
 * no transaction: the event waits for a recording in flight instead of
 * queueing behind its row lock. Bounded; forgetting one only costs that
 * transaction.
 */
export class RecordedAttempts {
  private readonly recordings = new Map<string, Promise<boolean>>();

  constructor(private readonly capacity = 20_000) {}

  /** Notes a recording of the attempt's outcome; `committed` resolves true once it has committed. */
  track(attemptId: string, committed: Promise<boolean>): void {
    if (this.recordings.size >= this.capacity) this.recordings.delete(this.recordings.keys().next().value ?? '');
    this.recordings.set(attemptId, committed);
  }

  /**
   * Whether this replica has committed the attempt's outcome, once any
   * recording in flight ends. Looked up after the work already read off the
   * broker connection has run: an answer that arrived in the same read as
   * the event has started its recording by then.
   */
  async has(attemptId: string): Promise<boolean> {
    await new Promise((resolve) => setImmediate(resolve));
    return (await this.recordings.get(attemptId)) ?? false;
  }
}

/**
 * The outcome carried by the adapter's answer, recorded in its own
 * transaction. Answers the session when this call moved it.
 */
export async function recordStep(deps: OutcomeDeps, step: PaymentStep, correlationId: string, now: Date): Promise<SessionRow | undefined> {
  const { approved, declined } = step;
  const outcome = approved ?? declined;
  if (!outcome) return undefined;
  const moved = deps.sessions.transaction(async (tx) =>
    approved ? recordApproval(deps, approved, correlationId, tx) : declined ? recordDecline(deps, declined, correlationId, now, tx) : undefined,
  );
  deps.recorded.track(
    outcome.attempt_id,
    moved.then(
      () => true,
      () => false,
    ),
  );
  return moved;
}

/** Answers the session when this call moved the attempt (and enqueued session.succeeded). */
export async function recordApproval(deps: OutcomeDeps, data: EventData<'payment.approved'>, correlationId: string, tx: PoolClient): Promise<SessionRow | undefined> {
  const outcome: AttemptOutcome = {
    attemptId: data.attempt_id,
    status: 'SUCCEEDED',
    cardBrand: data.card_brand,
    cardLastFour: data.card_last_four,
    cardCountry: data.card_country,
    failureCode: '',
    failureMessage: '',
    feeAmount: data.fee_amount,
    netAmount: data.net_amount,
    at: new Date(data.paid_at),
  };
  const session = await settle(deps, outcome, tx);
  if (!session) return undefined;
  const payload = {
    ...toEventPayload(session),
    paid_at: data.paid_at,
    payment: {
      method: 'card',
      card_brand: data.card_brand,
      card_last_four: data.card_last_four,
      card_country: data.card_country,
      fee_amount: data.fee_amount,
      net_amount: data.net_amount,
    },
  };
  await enqueue(tx, [eventEnvelope('session.succeeded', { merchant_id: session.merchant_id, webhook_url: session.webhook_url, session: payload }, correlationId)]);
  return session;
}

/** Answers the session when this call moved the attempt (and enqueued session.failed). */
export async function recordDecline(
  deps: OutcomeDeps,
  data: EventData<'payment.declined'>,
  correlationId: string,
  at: Date,
  tx: PoolClient,
): Promise<SessionRow | undefined> {
  const outcome: AttemptOutcome = {
    attemptId: data.attempt_id,
    status: 'FAILED',
    cardBrand: data.card_brand,
    cardLastFour: data.card_last_four,
    cardCountry: '',
    failureCode: data.failure_code,
    failureMessage: data.failure_message,
    feeAmount: null,
    netAmount: null,
    at,
  };
  const session = await settle(deps, outcome, tx);
  if (!session) return undefined;
  const payload = {
    ...toEventPayload(session),
    last_failure_code: session.last_failure_code,
    last_failure_message: session.last_failure_message,
    attempts_count: session.attempts_count,
    can_retry: session.status === 'PENDING',
  };
  await enqueue(tx, [eventEnvelope('session.failed', { merchant_id: session.merchant_id, webhook_url: session.webhook_url, session: payload }, correlationId)]);
  return session;
}

/** Resolves the attempt and moves its session on; undefined when there is nothing to announce. */
async function settle(deps: OutcomeDeps, outcome: AttemptOutcome, tx: PoolClient) {
  const { resolved, session } = await deps.sessions.resolveAttempt(tx, outcome);
  if (!resolved) {
    deps.log.info({ attemptId: outcome.attemptId }, 'outcome of an attempt already resolved; ignored');
    return undefined;
  }
  if (!session) deps.log.error({ attemptId: outcome.attemptId }, 'attempt resolved while its session was not PROCESSING');
  else deps.log.info({ attemptId: outcome.attemptId, sessionId: session.id, attempt: outcome.status, session: session.status }, 'payment outcome recorded');
  return session;
}
