/**
 * What the session does with an attempt's outcome (INTERFACE 3.1, D22):
 * approved → SUCCEEDED with session.succeeded; authorized (a manual
 * session's payment, held) → AUTHORIZED with session.authorized; declined → PENDING while attempts remain,
 * else FAILED, with session.failed (D11: last_failure_code,
 * last_failure_message, attempts_count, can_retry).
 *
 * The outcome is one change (apply-once, packages/messaging) that arrives by
 * up to three paths: in the adapter's answer to the payment step, as the
 * adapter's payment.* event (the only way when the answer was lost), and in
 * the answer to the stuck-attempt check. It is keyed on the attempt: the
 * move applies only while the attempt is PROCESSING under its session, so
 * whichever path comes first moves it and the others change nothing, and
 * session.succeeded or session.failed is emitted once.
 *
 * The move is decided here from the session's row, and recorded with its
 * event in one statement that applies only while the row still stands as it
 * was read (PROCESSING, same attempts): the event carries nothing else that
 * can change meanwhile.
 */
import type { Envelope, EventData, PaymentStep } from '@gateway/contracts';
import { applyOnce, eventEnvelope, type Change, type ChangeContext, type ChangePath } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import type { AttemptOutcome, AttemptRepository, AttemptResolution } from '../db/attempt.repository.js';
import type { CustomerRepository } from '../db/customer.repository.js';
import { attachSavedCard } from './customers.js';
import { effectiveStatus, paidAttempt, receiptFacts, toEventPayload, type SessionRow } from './session.js';

export interface OutcomeDeps {
  attempts: AttemptRepository;
  /** D24: the customers whose cards are saved with their payments. */
  customers: CustomerRepository;
  log: Logger;
  /** D22: how long a held payment stays capturable. */
  authorizationTtlSeconds: number;
}

/** An attempt's outcome, as the adapter's answer and its event both carry it. */
export type PaymentOutcome =
  | { approved: EventData<'payment.approved'> }
  | { authorized: EventData<'payment.authorized'> }
  | { declined: EventData<'payment.declined'> };

/** What a path that has the session's row (as the attempt left it) passes along, so the change need not read it. */
export interface OutcomeContext extends ChangeContext {
  readonly session?: SessionRow;
}

export type PaymentOutcomeChange = Change<'payment.approved' | 'payment.authorized' | 'payment.declined', PaymentOutcome, SessionRow, OutcomeContext>;

/** Applies an attempt's outcome unless it was applied already; the session it moved, or undefined. */
export function applyPaymentOutcome(deps: OutcomeDeps, outcome: PaymentOutcome, context: OutcomeContext): Promise<SessionRow | undefined> {
  if ('approved' in outcome) return approve(deps, outcome.approved, context);
  if ('authorized' in outcome) return authorize(deps, outcome.authorized, context);
  return decline(deps, outcome.declined, context);
}

/**
 * Applies the outcome a payment step answers (`path`: the adapter's reply, or
 * the answer to a check); the session as it now stands when this call moved
 * it, undefined when the step carries no outcome or it was applied already.
 */
export async function applyPaymentStep(change: PaymentOutcomeChange, path: ChangePath, step: PaymentStep, context: OutcomeContext): Promise<SessionRow | undefined> {
  const outcome: PaymentOutcome | undefined = step.approved
    ? { approved: step.approved }
    : step.authorized
      ? { authorized: step.authorized }
      : step.declined
        ? { declined: step.declined }
        : undefined;
  return outcome && applyOnce(change, path, outcome, context);
}

function approve(deps: OutcomeDeps, data: EventData<'payment.approved'>, context: OutcomeContext): Promise<SessionRow | undefined> {
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
  return withSavedCard(deps, data, context, resolve(deps, outcome, data.session_id, context.session, (next) => {
    const paid = paidAttempt(data, data);
    return eventEnvelope('session.succeeded', { merchant_id: next.merchant_id, webhook_url: next.webhook_url, session: toEventPayload(next, paid), receipt: receiptFacts(next) }, context.correlationId);
  }));
}

/**
 * D24: the card saved with an approved payment is attached to its customer,
 * whichever path brings the outcome and whether or not this path moved the
 * session: attaching is its own change, keyed on the card, so a path that
 * comes after a crash between the two still attaches it, once.
 */
async function withSavedCard(deps: OutcomeDeps, data: EventData<'payment.approved' | 'payment.authorized'>, context: OutcomeContext, moving: Promise<SessionRow | undefined>): Promise<SessionRow | undefined> {
  const moved = await moving;
  if (data.saved_card) {
    const savedAt = new Date('paid_at' in data ? data.paid_at : data.authorized_at);
    await attachSavedCard(deps, { merchantId: data.merchant_id, livemode: data.livemode }, data.saved_card, savedAt, context);
  }
  return moved;
}

/** D22: the amount is held; the fee waits for the capture. */
function authorize(deps: OutcomeDeps, data: EventData<'payment.authorized'>, context: OutcomeContext): Promise<SessionRow | undefined> {
  const outcome: AttemptOutcome = {
    attemptId: data.attempt_id,
    status: 'SUCCEEDED',
    held: true,
    cardBrand: data.card_brand,
    cardLastFour: data.card_last_four,
    cardCountry: data.card_country,
    failureCode: '',
    failureMessage: '',
    feeAmount: null,
    netAmount: null,
    at: new Date(data.authorized_at),
    holdExpiresAt: new Date(new Date(data.authorized_at).getTime() + deps.authorizationTtlSeconds * 1000),
  };
  return withSavedCard(deps, data, context, resolve(deps, outcome, data.session_id, context.session, (next) => {
    const paid = paidAttempt(data);
    return eventEnvelope('session.authorized', { merchant_id: next.merchant_id, webhook_url: next.webhook_url, session: toEventPayload(next, paid) }, context.correlationId);
  }));
}

function decline(deps: OutcomeDeps, data: EventData<'payment.declined'>, context: OutcomeContext): Promise<SessionRow | undefined> {
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
    at: context.at,
  };
  return resolve(deps, outcome, data.session_id, context.session, (next) => failedEvent(next, context.at, context.correlationId));
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
 * approved, AUTHORIZED when approved and held (not final: it waits for its
 * capture); after a decline PENDING while attempts remain, FAILED when none
 * do, with the decline as its last failure.
 */
export function resolutionOf(session: SessionRow, outcome: AttemptOutcome): AttemptResolution {
  const approved = outcome.status === 'SUCCEEDED';
  if (approved && outcome.held) {
    return {
      status: 'AUTHORIZED',
      completedAt: null,
      authorizedAt: outcome.at,
      holdExpiresAt: outcome.holdExpiresAt ?? null,
      lastFailureCode: session.last_failure_code,
      lastFailureMessage: session.last_failure_message,
      attemptsCount: session.attempts_count,
    };
  }
  const final = approved || session.attempts_count >= session.max_attempts;
  return {
    status: approved ? 'SUCCEEDED' : final ? 'FAILED' : 'PENDING',
    completedAt: final ? outcome.at : null,
    authorizedAt: null,
    holdExpiresAt: null,
    lastFailureCode: approved ? session.last_failure_code : outcome.failureCode,
    lastFailureMessage: approved ? session.last_failure_message : outcome.failureMessage,
    attemptsCount: session.attempts_count,
  };
}

/** The session's row once `resolution` is applied: what the event announcing it carries. */
export function resolvedRow(session: SessionRow, resolution: AttemptResolution): SessionRow {
  return {
    ...session,
    ...(resolution.authorizedAt && { amount_authorized: session.amount, authorized_at: resolution.authorizedAt, hold_expires_at: resolution.holdExpiresAt }),
    status: resolution.status,
    completed_at: resolution.completedAt,
    last_failure_code: resolution.lastFailureCode,
    last_failure_message: resolution.lastFailureMessage,
  };
}

/**
 * Resolves the attempt and moves its session on; the moved session, undefined
 * when the attempt was resolved already (or its session is gone). Without the
 * session's row, one read finds both it and whether the attempt is still
 * open, so an outcome applied already costs that read alone. A row read
 * before another change to the session committed is read again once: the
 * statement applies only to the session as it stands.
 */
async function resolve(
  deps: OutcomeDeps,
  outcome: AttemptOutcome,
  sessionId: string,
  known: SessionRow | undefined,
  announce: (next: SessionRow) => Envelope,
): Promise<SessionRow | undefined> {
  let session = known ?? (await deps.attempts.findSessionWithOpenAttempt(sessionId, outcome.attemptId));
  for (let reads = 1; ; reads += 1) {
    if (!session) {
      deps.log.debug({ attemptId: outcome.attemptId, sessionId }, 'outcome of an attempt no longer PROCESSING under its session (applied already); nothing to do');
      return undefined;
    }
    const resolution = resolutionOf(session, outcome);
    const next = resolvedRow(session, resolution);
    const { resolved, open } = await deps.attempts.resolve(outcome, sessionId, resolution, announce(next));
    if (resolved) {
      deps.log.info({ attemptId: outcome.attemptId, sessionId, attempt: outcome.status, session: next.status }, 'payment outcome recorded');
      return next;
    }
    if (!open) {
      deps.log.debug({ attemptId: outcome.attemptId, sessionId }, 'outcome of an attempt no longer PROCESSING under its session (applied already); nothing to do');
      return undefined;
    }
    if (reads === 2) {
      deps.log.error({ attemptId: outcome.attemptId, sessionId }, 'attempt PROCESSING under a session that is not; outcome left to the stuck-attempt check');
      return undefined;
    }
    session = await deps.attempts.findSessionWithOpenAttempt(sessionId, outcome.attemptId);
  }
}
