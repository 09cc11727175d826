/**
 * Canceling a session (INTERFACE 3.1 rule 1, D2, D22): CREATED and PENDING
 * sessions, and the merchant's AUTHORIZED ones with no capture under way,
 * whose hold is then released (session.hold_canceled, which the adapter acts
 * on with reverse.do). The status change and its events commit together.
 */
import type { ApiContext, SessionDetail } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import type { PoolClient } from '@gateway/db';
import type { Account } from '../db/session.repository.js';
import { AppError } from '@gateway/problem';
import { effectiveStatus, OPEN_STATUSES, toDetail, toEventPayload, type SessionRow } from './session.js';
import { cancelRefusal } from './session-states.js';
import type { SessionDeps } from './deps.js';

/** The merchant cancels (POST .../cancel/): an open session, or an AUTHORIZED one, whose hold is voided. */
export async function cancelSession(deps: SessionDeps, context: ApiContext, sessionId: string): Promise<SessionDetail> {
  const now = deps.clock();
  const correlationId = context.request_id;
  const canceled = await deps.sessions.withLockedSession(accountOf(context), sessionId, async (row, tx) => {
    if (!row) throw new AppError('not-found', 'No session with this id exists for this account.');
    const refused = cancelRefusal({ status: effectiveStatus(row, now), capturing: row.capturing_amount !== null });
    if (refused) throw new AppError(refused.code, refused.detail);
    return finishCanceled(deps, row, tx, correlationId, now);
  });
  deps.afterCommit();
  return toDetail(canceled, now, deps.publicBaseUrl);
}

/**
 * The buyer's cancel on the hosted page: an open session only (the buyer holds
 * its signed link, so any merchant's); never a held payment, which is the
 * merchant's to capture or void.
 */
export async function cancel(deps: SessionDeps, sessionId: string, correlationId: string, now: Date): Promise<SessionRow> {
  const canceled = await withOpenSession(deps, undefined, sessionId, now, (row, tx) => finishCanceled(deps, row, tx, correlationId, now));
  deps.afterCommit();
  return canceled;
}

async function finishCanceled(deps: SessionDeps, row: SessionRow, tx: PoolClient, correlationId: string, now: Date): Promise<SessionRow> {
  const next: SessionRow = { ...row, status: 'CANCELED', completed_at: now };
  const event = eventEnvelope('session.canceled', { merchant_id: row.merchant_id, webhook_url: row.webhook_url, session: toEventPayload(next) }, correlationId, now);
  await deps.sessions.finish(tx, row.id, 'CANCELED', now, [event, ...holdCanceled(row, 'canceled', correlationId, now)]);
  return next;
}

/** D22: the event that has the adapter release an AUTHORIZED session's hold, none for any other session. */
export function holdCanceled(row: SessionRow, reason: 'canceled' | 'expired', correlationId: string, now: Date) {
  const held = row.status === 'AUTHORIZED' ? row.attempts?.find((a) => a.status === 'SUCCEEDED') : undefined;
  if (row.status === 'AUTHORIZED' && !held) throw new Error(`AUTHORIZED session ${row.id} read without its attempts`);
  return held
    ? [eventEnvelope('session.hold_canceled', { session_id: row.id, attempt_id: held.id, merchant_id: row.merchant_id, livemode: row.livemode, reason }, correlationId, now)]
    : [];
}

export function accountOf(context: ApiContext): Account {
  return { merchantId: context.merchant_id, livemode: context.livemode };
}

/**
 * Runs `work` on the caller's session, locked, once it is known to be open:
 * none is 404, PROCESSING is 409 conflict, terminal is 409 session-terminal.
 */
export async function withOpenSession<T>(
  deps: SessionDeps,
  account: Account | undefined,
  sessionId: string,
  now: Date,
  work: (row: SessionRow, tx: PoolClient) => Promise<T>,
): Promise<T> {
  return deps.sessions.withLockedSession(account, sessionId, async (row, tx) => {
    if (!row) throw new AppError('not-found', 'No session with this id exists for this account.');
    assertOpen(row, now);
    return work(row, tx);
  });
}

/**
 * PROCESSING waits for its attempt (409 conflict); AUTHORIZED is paid, held
 * for the merchant (422 invalid-state); a terminal session is 409
 * session-terminal.
 */
export function assertOpen(row: SessionRow, now: Date): void {
  const status = effectiveStatus(row, now);
  if (status === 'PROCESSING') throw new AppError('conflict', 'A payment attempt is in progress; wait for it to resolve.');
  if (status === 'AUTHORIZED') throw new AppError('invalid-state', 'The payment is authorized and held; capture or cancel it.');
  if (!OPEN_STATUSES.includes(status)) throw new AppError('session-terminal', `The session is ${status}.`);
}
