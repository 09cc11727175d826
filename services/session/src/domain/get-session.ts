/** Reading one session (D2): another merchant's or the other mode's is simply not found. */
import type { ApiContext, SessionDetail } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { toDetail } from './session.js';
import type { SessionDeps } from './deps.js';

export async function getSession(deps: SessionDeps, context: ApiContext, sessionId: string): Promise<SessionDetail> {
  const row = await deps.sessions.find({ merchantId: context.merchant_id, livemode: context.livemode }, sessionId);
  if (!row) throw new AppError('not-found', 'No session with this id exists for this account.');
  return toDetail(row, deps.clock(), deps.publicBaseUrl);
}
