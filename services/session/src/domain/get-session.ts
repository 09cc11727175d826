/** Reading one session (D2): another merchant's or the other mode's is simply not found. */
import type { ApiContext, ReceiptFacts, SessionDetail, SessionEventPayload } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { receiptFacts, toDetail, toEventPayload, type SessionRow } from './session.js';
import { accountOf } from './accounts.js';
import type { SessionDeps } from './deps.js';

/** session.get: one of the account's sessions as its detail. */
export async function getSession(deps: SessionDeps, context: ApiContext, sessionId: string): Promise<SessionDetail> {
  return toDetail(await findOwn(deps, context, sessionId), deps.clock(), deps.publicBaseUrl);
}

/**
 * The session and the payload its events carry (session.get_for_event): the
 * refund service's events carry the session as this service builds it, so a
 * refund webhook shows the same `payment` as session.succeeded.
 */
export async function getSessionForEvent(deps: SessionDeps, context: ApiContext, sessionId: string): Promise<{ session: SessionDetail; event: SessionEventPayload; receipt: ReceiptFacts }> {
  const row = await findOwn(deps, context, sessionId);
  return { session: toDetail(row, deps.clock(), deps.publicBaseUrl), event: toEventPayload(row), receipt: receiptFacts(row) };
}

/** A session's id: anything else (a NUL, a stray character) names no session and is never looked up. */
const SESSION_ID = /^ps_[0-9A-Za-z]{20,}$/;

async function findOwn(deps: SessionDeps, context: ApiContext, sessionId: string): Promise<SessionRow> {
  const row = SESSION_ID.test(sessionId) ? await deps.sessions.find(accountOf(context), sessionId) : undefined;
  if (!row) throw new AppError('not-found', 'No session with this id exists for this account.');
  return row;
}
