/**
 * A refund (INTERFACE 4.5, D10), read top to bottom:
 * 1. the request is checked (reason, type, a PARTIAL amount at TND precision);
 * 2. the session must be the caller's (404) and SUCCEEDED (invalid-state);
 * 3. the captured payment is recorded from the session (once), and the
 *    amount reserved against it in one atomic step (nothing left:
 *    invalid-state; more than is left: amount_too_large);
 * 4. the acquirer step runs at the adapter, outside any transaction: one
 *    operation per refund, reverse.do or refund.do;
 * 5. confirmed: SUCCEEDED. Refused for good: FAILED, the amount given back,
 *    422 refund-failed. No answer or an unconfirmable one: held as refunded
 *    and queued for an operator (200, automated_refund false);
 * 6. before the answer, the session records the refund (D16), so the
 *    merchant's next read shows it.
 * refund.created commits with the refund's end, except a refused one.
 */
import { idFrom, isJsonObject, NOT_A_JSON_OBJECT, RefundRequest, validatorOf, fieldErrorsOf, type ApiContext, type RefundResult } from '@gateway/contracts';
import { accountCurrency, amountMessage, checkAmount } from '@gateway/money';
import { counter, describeError } from '@gateway/observability';
import { AppError, validationError, type FieldError } from '@gateway/problem';
import type { NewRefund, RefundRow } from '../db/refund.repository.js';
import type { RefundDeps } from './deps.js';
import { recordAtSession } from './record-at-session.js';
import { refundEvent } from './refund-events.js';
import { resultOf } from './refund-view.js';

const validRequest = validatorOf<RefundRequest>(RefundRequest);

const NO_ANSWER = 'The card processor did not confirm the refund in time.';

/** Refunds that reached the acquirer step, by mode and outcome: `automated` (confirmed), `manual` (held for an operator), `refused` (by the acquirer). */
const refundsMade = counter('gateway_refunds_total', 'Refunds that reached the acquirer step, by mode and outcome (automated, manual, refused).', ['mode', 'outcome']);

/**
 * `commandId` is the id of the command asking for the refund: the refund's id
 * is derived from it, so the same command delivered again (its replica died
 * mid-refund) finds its refund instead of making a second one.
 */
export async function createRefund(deps: RefundDeps, context: ApiContext, sessionId: string, body: unknown, commandId: string): Promise<RefundResult> {
  const request = checkRefundRequest(body);
  const viewed = await deps.getSessionForEvent(context, sessionId);
  const { session } = viewed;
  if (session.status !== 'SUCCEEDED') throw new AppError('invalid-state', `Only a SUCCEEDED session can be refunded; this one is ${session.status}.`);
  const paid = session.attempts.find((a) => a.status === 'SUCCEEDED');
  if (!paid) throw new AppError('no-payment');
  // The captured payment, as the session recorded it from the adapter; kept here once, the ledger refunds are held against.
  // D22: what was captured, which for a manual session may be less than was held (and than the session's amount).
  const captured = session.amount_captured || session.amount;
  await deps.refunds.recordPayment({ attemptId: paid.id, sessionId: session.id, merchantId: context.merchant_id, livemode: context.livemode, captured });

  const key = context.idempotency_key;
  const earlier = key === undefined ? undefined : await deps.refunds.findByKey(context.merchant_id, context.livemode, key);
  if (earlier) return replay(deps, earlier, sessionId, context.request_id);

  const refund: NewRefund = { id: idFrom('re', commandId), attemptId: paid.id, idempotencyKey: key, ...request };
  let reservation;
  try {
    reservation = await deps.refunds.reserve(refund);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // This command's refund, made before its replica died; or the same key, made meanwhile by a request whose answer was lost.
    const same = (await deps.refunds.find(refund.id)) ?? (key === undefined ? undefined : await deps.refunds.findByKey(context.merchant_id, context.livemode, key));
    if (same) return replay(deps, same, sessionId, context.request_id);
    throw err;
  }
  if (reservation.kind === 'nothing-left') throw new AppError('invalid-state', 'Nothing is left to refund on this session.');
  if (reservation.kind === 'too-large') {
    throw validationError([{ field: 'amount', code: 'amount_too_large', message: `amount is more than is left to refund (${reservation.remaining} TND).` }]);
  }

  const correlationId = context.request_id;
  let answer;
  try {
    answer = await deps.refundAtAcquirer(
      { refund_id: refund.id, attempt_id: paid.id, merchant_id: context.merchant_id, livemode: context.livemode, amount: reservation.amount, whole: reservation.whole },
      correlationId,
    );
  } catch (err) {
    deps.log.warn({ err: describeError(err), refundId: refund.id }, 'refund step unanswered; held for an operator');
    answer = { outcome: 'unconfirmed' as const, operation: reservation.whole ? ('reverse' as const) : ('refund' as const), message: NO_ANSWER };
  }

  const mode = context.livemode ? 'live' : 'test';
  if (answer.outcome === 'refused') {
    // An operator may have resolved it meanwhile (it was held for them): their word stands.
    if (!(await deps.refunds.fail(refund.id, answer.message, () => []))) return replay(deps, await resolved(deps, refund.id), sessionId, correlationId);
    refundsMade.inc({ mode, outcome: 'refused' });
    throw new AppError('refund-failed', `The card processor refused the refund: ${answer.message}`);
  }
  const automated = answer.outcome === 'refunded';
  const event = refundEvent(
    'refund.created',
    context.merchant_id,
    viewed,
    { id: refund.id, amount: reservation.amount, reason: request.reason, metadata: request.metadata, status: automated ? 'succeeded' : 'pending', automated, created_at: reservation.createdAt },
    automated ? undefined : answer.message,
    correlationId,
  );
  if (!(await deps.refunds.conclude(refund.id, automated ? 'SUCCEEDED' : 'MANUAL', answer.operation, automated ? '' : answer.message, event))) {
    return replay(deps, await resolved(deps, refund.id), sessionId, correlationId);
  }
  deps.afterCommit();
  refundsMade.inc({ mode, outcome: automated ? 'automated' : 'manual' });
  deps.log.info({ refundId: refund.id, sessionId, automated, operation: answer.operation }, 'refund accepted');
  await recordAtSession(deps, { id: refund.id, session_id: sessionId, amount: reservation.amount }, 'held', correlationId);
  return {
    refund_id: refund.id,
    refunded_amount: reservation.amount,
    automated_refund: automated,
    ...(!automated && { epg_error_message: answer.message }),
    metadata: request.metadata,
  };
}

async function resolved(deps: RefundDeps, refundId: string): Promise<RefundRow> {
  const row = await deps.refunds.find(refundId);
  if (!row) throw new Error(`refund ${refundId} vanished`);
  return row;
}

/**
 * The answer a refund made earlier with the same Idempotency-Key (or by this
 * same command) stands for; one held as refunded is recorded at the session
 * again first, in case the first answer was lost before that.
 */
async function replay(deps: RefundDeps, refund: RefundRow, sessionId: string, correlationId: string): Promise<RefundResult> {
  if (refund.session_id !== sessionId) throw new AppError('idempotency-key-reused', 'This Idempotency-Key was used for a refund of another session.');
  switch (refund.status) {
    case 'SUCCEEDED':
    case 'MANUAL':
      await recordAtSession(deps, refund, 'held', correlationId);
      return resultOf(refund);
    case 'PENDING':
      throw new AppError('conflict', 'The refund made with this Idempotency-Key is still being processed; retry later.');
    default:
      throw new AppError('refund-failed', refund.epg_error_message ? `The card processor refused the refund: ${refund.epg_error_message}` : undefined);
  }
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/** D10 and INTERFACE 4.5: every bad field at once; a PARTIAL amount checked as amounts are (D5), at TND precision. */
function checkRefundRequest(body: unknown): Pick<NewRefund, 'type' | 'amount' | 'reason' | 'metadata'> {
  if (!isJsonObject(body)) throw validationError([NOT_A_JSON_OBJECT]);
  const input = body;
  // amount has its rules below (D5, PARTIAL only).
  const schemaErrors = validRequest(input) ? [] : fieldErrorsOf(validRequest.errors, { skip: (field) => field === 'amount' });
  const errors = new Map<string, FieldError>(schemaErrors.map((error) => [error.field, error]));
  const type = input['refund_type'] === 'PARTIAL' ? 'PARTIAL' : 'FULL';
  let amount: string | undefined;
  if (type === 'PARTIAL') {
    const check = checkAmount(input['amount'], accountCurrency);
    if (check.ok) amount = check.text;
    else {
      const message = check.code === 'required' ? 'amount is required when refund_type is PARTIAL.' : amountMessage(check.code, accountCurrency);
      errors.set('amount', { field: 'amount', code: check.code, message });
    }
  } else if (input['amount'] !== undefined) {
    errors.set('amount', { field: 'amount', code: 'invalid', message: 'amount is only given with refund_type PARTIAL; FULL refunds what is left.' });
  }
  if (errors.size > 0) throw validationError([...errors.values()]);
  return { type, amount, reason: String(input['reason']), metadata: (input['metadata'] as Record<string, string> | undefined) ?? {} };
}
