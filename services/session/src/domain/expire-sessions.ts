/**
 * The session's time-driven work (INTERFACE 3.1 rule 4, 6.1; D4): sessions
 * whose lifetime ended while CREATED or PENDING become EXPIRED and announce
 * session.expired; links that lapse while their session can still be paid
 * announce checkout.session.expired. Each is done once whatever the number of
 * replicas sweeping: the rows are claimed with SKIP LOCKED and the state
 * change commits with its event. A PROCESSING session is never expired: its
 * payment resolves first, and the next sweep looks again. An AUTHORIZED
 * session whose hold lapsed (hold_expires_at) with no capture under way
 * becomes EXPIRED too (D22), and its hold is released
 * (session.hold_canceled).
 */
import { eventEnvelope } from '@gateway/messaging';
import { holdCanceled } from './cancel-session.js';
import type { SessionDeps } from './deps.js';
import { toEventPayload } from './session.js';

const BATCH = 200;

export interface SweepResult {
  expiredSessions: number;
  lapsedLinks: number;
  lapsedHolds: number;
}

/** One sweep: until nothing due is left (or another replica holds it). */
export async function sweepExpiry(deps: Pick<SessionDeps, 'sessions' | 'clock' | 'afterCommit'>): Promise<SweepResult> {
  const result: SweepResult = { expiredSessions: 0, lapsedLinks: 0, lapsedHolds: 0 };
  const now = deps.clock();
  const correlationId = `sweep-${now.toISOString()}`;
  for (;;) {
    const expired = await deps.sessions.expireDue(now, BATCH, (row) =>
      eventEnvelope('session.expired', { merchant_id: row.merchant_id, webhook_url: row.webhook_url, session: toEventPayload(row) }, correlationId, now),
    );
    result.expiredSessions += expired;
    if (expired > 0) deps.afterCommit();
    if (expired < BATCH) break;
  }
  for (;;) {
    const handled = await deps.sessions.handleLapsedLinks(now, BATCH, (row) =>
      eventEnvelope('checkout.session.expired', { merchant_id: row.merchant_id, webhook_url: row.webhook_url, session: toEventPayload(row) }, correlationId, now),
    );
    result.lapsedLinks += handled;
    if (handled > 0) deps.afterCommit();
    if (handled < BATCH) break;
  }
  for (;;) {
    const lapsed = await deps.sessions.expireHolds(now, BATCH, (row) => [
      eventEnvelope('session.expired', { merchant_id: row.merchant_id, webhook_url: row.webhook_url, session: toEventPayload(row) }, correlationId, now),
      ...holdCanceled({ ...row, status: 'AUTHORIZED' }, 'expired', correlationId, now),
    ]);
    result.lapsedHolds += lapsed;
    if (lapsed > 0) deps.afterCommit();
    if (lapsed < BATCH) break;
  }
  return result;
}
