/**
 * Canceling a session (INTERFACE 3.1 rule 1, D2): only CREATED and PENDING
 * sessions; the status change and session.canceled commit together.
 */
import type { ApiContext, SessionDetail } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import type { PoolClient } from '@gateway/db';
import type { Account } from '../db/session.repository.js';
import { AppError } from '@gateway/problem';
import { effectiveStatus, OPEN_STATUSES, toDetail, toEventPayload, type SessionRow } from './session.js';
import type { SessionDeps } from './deps.js';

/** The merchant cancels (POST .../cancel/). */
export async function cancelSession(deps: SessionDeps, context: ApiContext, sessionId: string): Promise<SessionDetail> {
  const now = deps.clock();
  const canceled = await cancel(deps, accountOf(context), sessionId, context.request_id, now);
  return toDetail(canceled, now, deps.publicBaseUrl);
}

/**
 * Cancels the session, open or not found as the account sees it (any
 * session when `account` is undefined: the buyer holds its signed link).
 */
export async function cancel(deps: SessionDeps, account: Account | undefined, sessionId: string, correlationId: string, now: Date): Promise<SessionRow> {
  const canceled = await withOpenSession(deps, account, sessionId, now, async (row, tx) => {
    const next: SessionRow = { ...row, status: 'CANCELED', completed_at: now };
    const event = eventEnvelope('session.canceled', { merchant_id: row.merchant_id, webhook_url: row.webhook_url, session: toEventPayload(next) }, correlationId, now);
    await deps.sessions.finish(tx, row.id, 'CANCELED', now, [event]);
    return next;
  });
  deps.afterCommit();
  return canceled;
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

/** PROCESSING waits for its attempt (409 conflict); a terminal session is 409 session-terminal. */
export function assertOpen(row: SessionRow, now: Date): void {
  const status = effectiveStatus(row, now);
  if (status === 'PROCESSING') throw new AppError('conflict', 'A payment attempt is in progress; wait for it to resolve.');
  if (!OPEN_STATUSES.includes(status)) throw new AppError('session-terminal', `The session is ${status}.`);
}
