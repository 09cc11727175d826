/**
 * Work that needs a session still open to payment (CREATED or PENDING): a
 * buyer's cancel, another checkout link. The session is locked first, so the
 * check and the work see the same row.
 */
import type { PoolClient } from '@gateway/db';
import { AppError } from '@gateway/problem';
import type { Account } from './accounts.js';
import type { SessionDeps } from './deps.js';
import { effectiveStatus, OPEN_STATUSES, type SessionRow } from './session.js';

/**
 * Runs `work` on the caller's session, locked, once it is known to be open:
 * none is 404, PROCESSING is 409 conflict, terminal is 409 session-terminal.
 */
export async function withOpenSession<T>(
  deps: Pick<SessionDeps, 'sessions'>,
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
