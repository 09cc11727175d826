/**
 * A capture's outcome (D22), one change (apply-once) whichever path brings
 * it first: the adapter's answer to payment.capture, its payment.captured or
 * payment.capture_failed event, or the answer to the stuck-capture check.
 * Captured: the session moves to SUCCEEDED with what was captured and
 * session.succeeded commits with it. Not captured: the capture's claim on the
 * hold is released, and the session stays AUTHORIZED.
 */
import type { CommandReply, CommandRequest, EventData } from '@gateway/contracts';
import { applyOnce, eventEnvelope, RpcTimeoutError, type Change, type ChangeContext, type ChangePath } from '@gateway/messaging';
import { describeError, type Logger } from '@gateway/observability';
import type { HoldRepository } from '../db/hold.repository.js';
import type { SessionDeps } from './deps.js';
import { paidAttempt, receiptFacts, toEventPayload, type SessionRow } from './session.js';

/** A capture's outcome, as the adapter's answer and its events carry it. */
export type CaptureOutcome = { captured: EventData<'payment.captured'> } | { failed: EventData<'payment.capture_failed'> };

export type CaptureOutcomeChange = Change<'payment.captured' | 'payment.capture_failed', CaptureOutcome, true>;

export interface CaptureOutcomeDeps {
  holds: HoldRepository;
  log: Logger;
}

/** Applies a capture's outcome unless it was applied already; true when this call applied it. */
export async function applyCaptureOutcome(deps: CaptureOutcomeDeps, outcome: CaptureOutcome, context: ChangeContext): Promise<true | undefined> {
  return 'captured' in outcome ? recordCaptured(deps, outcome.captured, context) : releaseCaptureClaim(deps, outcome.failed);
}

/** The session moves to SUCCEEDED with what was captured; session.succeeded commits with it. */
async function recordCaptured(deps: CaptureOutcomeDeps, data: EventData<'payment.captured'>, context: ChangeContext): Promise<true | undefined> {
  const held = await deps.holds.findHeld(data.session_id, data.attempt_id);
  if (!held) {
    deps.log.debug({ sessionId: data.session_id, attemptId: data.attempt_id }, 'capture of a session no longer AUTHORIZED (recorded already); nothing to do');
    return undefined;
  }
  const paidAt = new Date(data.paid_at);
  const next: SessionRow = { ...held, status: 'SUCCEEDED', amount_captured: data.amount, completed_at: paidAt, capturing_amount: null };
  const paid = paidAttempt(data, data);
  const event = eventEnvelope('session.succeeded', { merchant_id: next.merchant_id, webhook_url: next.webhook_url, session: toEventPayload(next, paid), receipt: receiptFacts(next) }, context.correlationId);
  const recorded = await deps.holds.recordCapture(held.id, data.attempt_id, { amount: data.amount, feeAmount: data.fee_amount, netAmount: data.net_amount, at: paidAt }, event);
  if (!recorded) return undefined;
  deps.log.info({ sessionId: held.id, attemptId: data.attempt_id, amount: data.amount }, 'capture recorded');
  return true;
}

/** The capture did not happen: its claim on the hold is released, and the hold stands. */
async function releaseCaptureClaim(deps: CaptureOutcomeDeps, data: EventData<'payment.capture_failed'>): Promise<true | undefined> {
  if (!(await deps.holds.releaseCapture(data.session_id, data.attempt_id, data.capture_id))) return undefined;
  deps.log.info({ sessionId: data.session_id, attemptId: data.attempt_id }, 'capture did not happen; the hold stands');
  return true;
}

type CaptureCommand = CommandRequest<'payment.capture'>;
type CaptureAnswer = CommandReply<'payment.capture'>;

/** payment.capture at the adapter; no answer in time is an unknown outcome, never a failure. */
export async function captureAtAdapter(deps: SessionDeps, request: CaptureCommand, correlationId: string): Promise<CaptureAnswer> {
  try {
    return (await deps.adapter.call('payment.capture', request, { timeoutMs: deps.captureTimeoutMs, correlationId })).body;
  } catch (err) {
    if (!(err instanceof RpcTimeoutError)) throw err;
    deps.log.warn({ err: describeError(err), sessionId: request.session_id }, 'capture unanswered in time; the session stays AUTHORIZED until its outcome is known');
    return { outcome: 'unknown', message: '' };
  }
}

/** Records what the adapter answered of a capture (`path`: its reply, or the answer to a check). */
export async function applyCaptureAnswer(deps: SessionDeps, path: ChangePath, request: CaptureCommand, answer: CaptureAnswer, correlationId: string): Promise<void> {
  const context = { correlationId, at: deps.clock() };
  let outcome: CaptureOutcome | undefined;
  if (answer.outcome === 'captured' && answer.captured) outcome = { captured: answer.captured };
  else if (answer.outcome === 'refused' || answer.outcome === 'unavailable') outcome = { failed: { ...request, message: answer.message } };
  if (outcome && (await applyOnce(deps.captures, path, outcome, context))) deps.afterCommit();
}
