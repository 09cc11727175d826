/**
 * Capturing a held payment (D22), read top to bottom:
 * 1. the request is checked: no body or `{amount}`, TND at 3 decimals;
 * 2. the session must be the caller's (404) and AUTHORIZED with no capture
 *    under way (session-states.ts: terminal 409, a capture under way 409
 *    conflict, another status 422 invalid-state), and the amount at most
 *    what is held (422 amount_too_large);
 * 3. the hold is claimed for the capture under the row's lock, so exactly one
 *    of two concurrent captures (or a capture and a cancel, or the lapse
 *    sweep) goes on;
 * 4. the adapter captures at the acquirer (deposit.do), outside any
 *    transaction;
 * 5. captured: SUCCEEDED with amount_captured and session.succeeded, the fee
 *    on the captured amount. Refused: the claim is released, the session
 *    stays AUTHORIZED, 422 capture-failed. No answer: 502
 *    processor-unavailable, the session stays AUTHORIZED and claimed until
 *    the adapter's reconciliation learns the outcome.
 *
 * The outcome is one change (apply-once): it comes in the adapter's answer,
 * as payment.captured or payment.capture_failed, and in the answer to the
 * stuck-capture check; whichever comes first records it, once.
 */
import {
  CaptureRequest,
  fieldErrorsOf,
  isJsonObject,
  newId,
  NOT_A_JSON_OBJECT,
  validatorOf,
  type ApiContext,
  type CommandReply,
  type CommandRequest,
  type EventData,
  type SessionDetail,
} from '@gateway/contracts';
import { applyOnce, eventEnvelope, RpcTimeoutError, type Change, type ChangeContext, type ChangePath } from '@gateway/messaging';
import { accountCurrency, amountMessage, checkAmount, compareTnd } from '@gateway/money';
import { backoffSteps } from '@gateway/backoff';
import { counter, describeError, type Logger } from '@gateway/observability';
import { AppError, validationError } from '@gateway/problem';
import type { SessionRepository } from '../db/session.repository.js';
import { accountOf } from './cancel-session.js';
import type { SessionDeps } from './deps.js';
import { effectiveStatus, receiptFacts, toDetail, toEventPayload, type SessionRow } from './session.js';
import { captureRefusal } from './session-states.js';

const validRequest = validatorOf<CaptureRequest>(CaptureRequest);

/** Captures that reached the adapter, by mode and what it answered: captured, refused, unavailable (nothing sent) or unknown (left to reconciliation). */
const capturesMade = counter('gateway_captures_total', 'Captures of held payments that reached the acquirer adapter, by mode and outcome (captured, refused, unavailable, unknown).', ['mode', 'outcome']);

/** A capture's outcome, as the adapter's answer and its events carry it. */
export type CaptureOutcome = { captured: EventData<'payment.captured'> } | { failed: EventData<'payment.capture_failed'> };

export type CaptureOutcomeChange = Change<'payment.captured' | 'payment.capture_failed', CaptureOutcome, true>;

/** The change, applied from payment.captured and payment.capture_failed and by the capture's own answer. */
export function captureOutcome(deps: { sessions: SessionRepository; log: Logger }): CaptureOutcomeChange {
  return {
    name: 'capture-outcome',
    events: ['payment.captured', 'payment.capture_failed'],
    fromEvent: (data, context) =>
      context.event?.type === 'payment.captured' ? { captured: data as EventData<'payment.captured'> } : { failed: data as EventData<'payment.capture_failed'> },
    apply: async (outcome, context) => ('captured' in outcome ? recordCaptured(deps, outcome.captured, context) : releaseHold(deps, outcome.failed)),
  };
}

/** The session moves to SUCCEEDED with what was captured; session.succeeded commits with it. */
async function recordCaptured(deps: { sessions: SessionRepository; log: Logger }, data: EventData<'payment.captured'>, context: ChangeContext): Promise<true | undefined> {
  const held = await deps.sessions.findHeld(data.session_id, data.attempt_id);
  if (!held) {
    deps.log.debug({ sessionId: data.session_id, attemptId: data.attempt_id }, 'capture of a session no longer AUTHORIZED (recorded already); nothing to do');
    return undefined;
  }
  const paidAt = new Date(data.paid_at);
  const next: SessionRow = { ...held, status: 'SUCCEEDED', amount_captured: data.amount, completed_at: paidAt, capturing_amount: null };
  const paid = { card_brand: data.card_brand, card_last_four: data.card_last_four, card_country: data.card_country, fee_amount: data.fee_amount, net_amount: data.net_amount };
  const event = eventEnvelope('session.succeeded', { merchant_id: next.merchant_id, webhook_url: next.webhook_url, session: toEventPayload(next, paid), receipt: receiptFacts(next) }, context.correlationId);
  const recorded = await deps.sessions.recordCapture(held.id, data.attempt_id, { amount: data.amount, feeAmount: data.fee_amount, netAmount: data.net_amount, at: paidAt }, event);
  if (!recorded) return undefined;
  deps.log.info({ sessionId: held.id, attemptId: data.attempt_id, amount: data.amount }, 'capture recorded');
  return true;
}

async function releaseHold(deps: { sessions: SessionRepository; log: Logger }, data: EventData<'payment.capture_failed'>): Promise<true | undefined> {
  if (!(await deps.sessions.releaseCapture(data.session_id, data.attempt_id, data.capture_id))) return undefined;
  deps.log.info({ sessionId: data.session_id, attemptId: data.attempt_id }, 'capture did not happen; the hold stands');
  return true;
}

/** POST /gateway/sessions/{id}/capture/. */
export async function captureSession(deps: SessionDeps, context: ApiContext, sessionId: string, body: unknown): Promise<SessionDetail> {
  const requested = checkCaptureRequest(body);
  const account = accountOf(context);
  const now = deps.clock();
  const claim = await deps.sessions.withLockedSession(account, sessionId, async (row, tx) => {
    if (!row) throw new AppError('not-found', 'No session with this id exists for this account.');
    const status = effectiveStatus(row, now);
    // The retry of a capture whose first answer was lost (502): the capture it started has ended, as asked (D10: the same key with another amount is refused).
    if (status === 'SUCCEEDED' && row.capture_method === 'manual' && context.idempotency_key !== undefined && row.capture_key === context.idempotency_key) {
      if (row.amount_captured !== (requested ?? row.amount_authorized)) throw new AppError('idempotency-key-reused', 'This Idempotency-Key was used for a capture of another amount.');
      return undefined;
    }
    const refused = captureRefusal({ status, capturing: row.capturing_amount !== null });
    if (refused) throw new AppError(refused.code, refused.detail);
    const authorized = row.amount_authorized;
    const held = row.attempts?.find((a) => a.status === 'SUCCEEDED');
    if (authorized === null || !held) throw new Error(`AUTHORIZED session ${row.id} has no hold`);
    const amount = requested ?? authorized;
    if (compareTnd(amount, authorized) > 0) {
      throw validationError([{ field: 'amount', code: 'amount_too_large', message: `amount is more than the authorized amount (${authorized} TND).` }]);
    }
    const captureId = newId('cap');
    await deps.sessions.claimCapture(tx, row.id, { captureId, amount, key: context.idempotency_key }, new Date(now.getTime() + deps.captureCheckAfterSeconds * 1000));
    return { captureId, attemptId: held.id, amount, merchantId: row.merchant_id, livemode: row.livemode };
  });
  if (claim) {
    const request = { capture_id: claim.captureId, attempt_id: claim.attemptId, session_id: sessionId, merchant_id: claim.merchantId, livemode: claim.livemode, amount: claim.amount };
    const answer = await captureAtAdapter(deps, request, context.request_id);
    capturesMade.inc({ mode: claim.livemode ? 'live' : 'test', outcome: answer.outcome });
    await applyCaptureAnswer(deps, 'reply', request, answer, context.request_id);
    if (answer.outcome === 'refused') throw new AppError('capture-failed', `The card processor refused the capture: ${answer.message}`);
    if (answer.outcome === 'unavailable') throw new AppError('processor-unavailable', 'The card processor could not be reached; nothing was captured and the session stays AUTHORIZED.');
    if (answer.outcome === 'unknown') {
      throw new AppError('processor-unavailable', 'The card processor did not confirm the capture in time; the session stays AUTHORIZED until its outcome is known.');
    }
  }
  const current = await deps.sessions.find(account, sessionId);
  if (!current) throw new Error(`session ${sessionId} vanished`);
  return toDetail(current, deps.clock(), deps.publicBaseUrl);
}

type CaptureCommand = CommandRequest<'payment.capture'>;
type CaptureAnswer = CommandReply<'payment.capture'>;

/** payment.capture at the adapter; no answer in time is an unknown outcome, never a failure. */
async function captureAtAdapter(deps: SessionDeps, request: CaptureCommand, correlationId: string): Promise<CaptureAnswer> {
  try {
    return (await deps.adapter.call('payment.capture', request, { timeoutMs: deps.captureTimeoutMs, correlationId })).body;
  } catch (err) {
    if (!(err instanceof RpcTimeoutError)) throw err;
    deps.log.warn({ err: describeError(err), sessionId: request.session_id }, 'capture unanswered in time; the session stays AUTHORIZED until its outcome is known');
    return { outcome: 'unknown', message: '' };
  }
}

/** Records what the adapter answered of a capture (`path`: its reply, or the answer to a check). */
async function applyCaptureAnswer(deps: SessionDeps, path: ChangePath, request: CaptureCommand, answer: CaptureAnswer, correlationId: string): Promise<void> {
  const context = { correlationId, at: deps.clock() };
  let outcome: CaptureOutcome | undefined;
  if (answer.outcome === 'captured' && answer.captured) outcome = { captured: answer.captured };
  else if (answer.outcome === 'refused' || answer.outcome === 'unavailable') outcome = { failed: { ...request, message: answer.message } };
  if (outcome && (await applyOnce(deps.captures, path, outcome, context))) deps.afterCommit();
}

/** The first wait between two checks of one stuck capture, doubled after each check. */
const FIRST_CHECK_DELAY_SECONDS = 5;
const BATCH = 100;

/**
 * Captures left under way past their first check (the answer was lost, or
 * the replica died before or after asking): payment.capture is sent again,
 * which the adapter answers from where the capture stands (or runs it, if it
 * never got it), and the outcome is recorded as any other.
 */
export async function checkStuckCaptures(deps: SessionDeps, maxDelaySeconds: number): Promise<number> {
  const waits = backoffSteps({ first: FIRST_CHECK_DELAY_SECONDS, max: maxDelaySeconds });
  const stuck = await deps.sessions.claimStuckCaptures(deps.clock(), BATCH, waits);
  await Promise.all(
    stuck.map(async (request) => {
      const correlationId = `check-capture-${request.session_id}`;
      try {
        const answer = await captureAtAdapter(deps, request, correlationId);
        await applyCaptureAnswer(deps, 'check', request, answer, correlationId);
        deps.log.info({ sessionId: request.session_id, outcome: answer.outcome }, 'stuck capture checked');
      } catch (err) {
        deps.log.warn({ err: describeError(err), sessionId: request.session_id }, 'stuck capture not checked; asked again later');
      }
    }),
  );
  return stuck.length;
}

/** The request's amount (undefined: the whole hold); every bad field at once, as amounts are checked (D5), at TND precision. */
function checkCaptureRequest(body: unknown): string | undefined {
  // No body at all captures the whole hold.
  if (body === undefined || body === null) return undefined;
  if (!isJsonObject(body)) throw validationError([NOT_A_JSON_OBJECT]);
  const errors = validRequest(body) ? [] : fieldErrorsOf(validRequest.errors, { skip: (field) => field === 'amount' });
  if (body['amount'] === undefined) {
    if (errors.length > 0) throw validationError(errors);
    return undefined;
  }
  const check = checkAmount(body['amount'], accountCurrency);
  if (!check.ok) errors.push({ field: 'amount', code: check.code, message: amountMessage(check.code, accountCurrency) });
  if (errors.length > 0 || !check.ok) throw validationError(errors);
  return check.text;
}
