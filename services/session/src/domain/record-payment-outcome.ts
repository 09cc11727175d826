/**
 * What the session does when the acquirer adapter reports an attempt's
 * outcome (INTERFACE 3.1): approved → SUCCEEDED with session.succeeded;
 * declined → PENDING while attempts remain, else FAILED, with session.failed
 * (D11: last_failure_code, last_failure_message, attempts_count, can_retry).
 * The outcome arrives twice: in the adapter's answer to the payment, and as
 * its payment.* event (the only way when the answer was lost). Whichever
 * comes first moves the attempt; the other finds it resolved and changes
 * nothing, so session.succeeded or session.failed is emitted once. On the
 * replica that recorded the answer, the event is acked without touching the
 * database.
 *
 * The move is decided here from the session's row, and recorded with its
 * event in one statement that applies only while the row still stands as it
 * was read (PROCESSING, same attempts): the event carries nothing else that
 * can change meanwhile.
 */
import type { Envelope, EventData, PaymentStep } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import type { AttemptOutcome, SessionRepository, SessionSettlement } from '../db/session.repository.js';
import { effectiveStatus, toEventPayload, type SessionRow } from './session.js';

export interface OutcomeDeps {
  sessions: SessionRepository;
  log: Logger;
  /** Attempts whose outcome this replica has committed. */
  recorded: RecordedAttempts;
}

/**
 * The attempts whose outcome this replica is recording or has recorded from
 * the adapter's answer, so that the same outcome arriving as an event needs
 * no work: the event waits for a recording in flight instead of racing it.
 * Bounded; forgetting one only costs the event's own (idempotent) recording.
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
 * The outcome carried by the adapter's answer. `session` is the session's row
 * as the attempt started it, when the caller has it. Answers the session as
 * it now stands when this call moved it.
 */
export async function recordStep(deps: OutcomeDeps, step: PaymentStep, correlationId: string, now: Date, session?: SessionRow): Promise<SessionRow | undefined> {
  const { approved, declined } = step;
  const outcome = approved ?? declined;
  if (!outcome) return undefined;
  const moved = approved ? recordApproval(deps, approved, correlationId, session) : recordDecline(deps, declined!, correlationId, now, session);
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
export async function recordApproval(deps: OutcomeDeps, data: EventData<'payment.approved'>, correlationId: string, session?: SessionRow): Promise<SessionRow | undefined> {
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
  return settle(deps, outcome, data.session_id, session, (next) => {
    const paid = { card_brand: data.card_brand, card_last_four: data.card_last_four, card_country: data.card_country, fee_amount: data.fee_amount, net_amount: data.net_amount };
    return eventEnvelope('session.succeeded', { merchant_id: next.merchant_id, webhook_url: next.webhook_url, session: toEventPayload(next, paid) }, correlationId);
  });
}

/** Answers the session when this call moved the attempt (and enqueued session.failed). */
export async function recordDecline(
  deps: OutcomeDeps,
  data: EventData<'payment.declined'>,
  correlationId: string,
  at: Date,
  session?: SessionRow,
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
  return settle(deps, outcome, data.session_id, session, (next) => failedEvent(next, at, correlationId));
}

/** session.failed for `next`, the session as a decline at `at` left it (D11: the last failure, attempts_count, can_retry). */
export function failedEvent(next: SessionRow, at: Date, correlationId: string): Envelope<EventData<'session.failed'>> {
  const payload = {
    ...toEventPayload(next),
    last_failure_code: next.last_failure_code,
    last_failure_message: next.last_failure_message,
    attempts_count: next.attempts_count,
    // Not when the session's lifetime ended meanwhile (a late decline): it is as good as EXPIRED.
    can_retry: effectiveStatus(next, at) === 'PENDING',
  };
  return eventEnvelope('session.failed', { merchant_id: next.merchant_id, webhook_url: next.webhook_url, session: payload }, correlationId);
}

/**
 * Where a PROCESSING session goes with its attempt's outcome: SUCCEEDED when
 * approved; after a decline PENDING while attempts remain, FAILED when none
 * do, with the decline as its last failure.
 */
export function settlementOf(session: SessionRow, outcome: AttemptOutcome): SessionSettlement {
  const approved = outcome.status === 'SUCCEEDED';
  const final = approved || session.attempts_count >= session.max_attempts;
  return {
    status: approved ? 'SUCCEEDED' : final ? 'FAILED' : 'PENDING',
    completedAt: final ? outcome.at : null,
    lastFailureCode: approved ? session.last_failure_code : outcome.failureCode,
    lastFailureMessage: approved ? session.last_failure_message : outcome.failureMessage,
    attemptsCount: session.attempts_count,
  };
}

/** The session's row once `settlement` is applied: what the event announcing it carries. */
export function settledRow(session: SessionRow, settlement: SessionSettlement): SessionRow {
  return {
    ...session,
    status: settlement.status,
    completed_at: settlement.completedAt,
    last_failure_code: settlement.lastFailureCode,
    last_failure_message: settlement.lastFailureMessage,
  };
}

/**
 * Resolves the attempt and moves its session on; the moved session, undefined
 * when there is nothing to announce. A row read before another change to the
 * session committed is read again once: the statement applies only to the
 * session as it stands.
 */
async function settle(
  deps: OutcomeDeps,
  outcome: AttemptOutcome,
  sessionId: string,
  known: SessionRow | undefined,
  announce: (next: SessionRow) => ReturnType<typeof eventEnvelope>,
): Promise<SessionRow | undefined> {
  let session = known ?? (await deps.sessions.findById(sessionId));
  for (let reads = 1; ; reads += 1) {
    if (!session) {
      deps.log.error({ attemptId: outcome.attemptId, sessionId }, 'outcome of an attempt whose session does not exist; ignored');
      return undefined;
    }
    const settlement = settlementOf(session, outcome);
    const next = settledRow(session, settlement);
    const { settled, open } = await deps.sessions.settleAttempt(outcome, sessionId, settlement, announce(next));
    if (settled) {
      deps.log.info({ attemptId: outcome.attemptId, sessionId, attempt: outcome.status, session: next.status }, 'payment outcome recorded');
      return next;
    }
    if (!open) {
      deps.log.info({ attemptId: outcome.attemptId, sessionId }, 'outcome of an attempt that is not PROCESSING under its session (already resolved); ignored');
      return undefined;
    }
    if (reads === 2) {
      deps.log.error({ attemptId: outcome.attemptId, sessionId }, 'attempt PROCESSING under a session that is not; outcome left to the stuck-attempt check');
      return undefined;
    }
    session = await deps.sessions.findById(sessionId);
  }
}
