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
 * The outcome is one change (apply-once, capture-outcome.ts): it comes in
 * the adapter's answer, as payment.captured or payment.capture_failed, and in
 * the answer to the stuck-capture check; whichever comes first records it,
 * once.
 */
import { CaptureRequest, fieldErrorsOf, isJsonObject, newId, NOT_A_JSON_OBJECT, validatorOf, type ApiContext, type SessionDetail } from '@gateway/contracts';
import { accountCurrency, amountMessage, checkAmount, compareTnd } from '@gateway/money';
import { counter } from '@gateway/observability';
import { AppError, validationError } from '@gateway/problem';
import { accountOf } from './accounts.js';
import { applyCaptureAnswer, captureAtAdapter } from './capture-outcome.js';
import type { SessionDeps } from './deps.js';
import { effectiveStatus, toDetail } from './session.js';
import { captureRefusal } from './session-states.js';

const validRequest = validatorOf<CaptureRequest>(CaptureRequest);

/** Captures that reached the adapter, by mode and what it answered: captured, refused, unavailable (nothing sent) or unknown (left to reconciliation). */
const capturesMade = counter('gateway_captures_total', 'Captures of held payments that reached the acquirer adapter, by mode and outcome (captured, refused, unavailable, unknown).', ['mode', 'outcome']);

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
    await deps.holds.claimCapture(tx, row.id, { captureId, amount, key: context.idempotency_key }, new Date(now.getTime() + deps.captureCheckAfterSeconds * 1000));
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
