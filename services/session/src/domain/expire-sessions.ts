/**
 * The session's time-driven work (INTERFACE 3.1 rule 4, 6.1; D4): sessions
 * whose lifetime ended while CREATED or PENDING become EXPIRED and announce
 * session.expired; checkout links that lapse while their session can still
 * be paid announce checkout.session.expired. Each is done once whatever the
 * number of replicas sweeping: the rows are claimed skipping locked ones and the
 * state change commits with its event. A PROCESSING session is never
 * expired: its payment resolves first, and the next sweep looks again. An
 * AUTHORIZED session whose hold lapsed (hold_expires_at) with no capture
 * under way becomes EXPIRED too (D22), and its hold is released
 * (session.hold_canceled).
 */
import { inBatches } from '@gateway/db';
import { eventEnvelope } from '@gateway/messaging';
import type { SessionDeps } from './deps.js';
import { holdCanceled } from './hold-release.js';
import { toEventPayload } from './session.js';

const BATCH = 200;

export interface SweepResult {
  expiredSessions: number;
  lapsedCheckoutLinks: number;
  lapsedHolds: number;
}

/** One sweep: until nothing due is left (or another replica holds it). */
export async function sweepExpiry(deps: Pick<SessionDeps, 'sessions' | 'checkoutLinks' | 'holds' | 'clock' | 'afterCommit'>): Promise<SweepResult> {
  const now = deps.clock();
  const correlationId = `sweep-${now.toISOString()}`;
  /** A batch's count, once the relay is woken for the events it committed. */
  const committed = (count: number) => {
    if (count > 0) deps.afterCommit();
    return count;
  };
  const expiredSessions = await inBatches({ size: BATCH }, async () =>
    committed(
      await deps.sessions.expireDue(now, BATCH, (row) =>
        eventEnvelope('session.expired', { merchant_id: row.merchant_id, webhook_url: row.webhook_url, session: toEventPayload(row) }, correlationId, now),
      ),
    ),
  );
  const lapsedCheckoutLinks = await inBatches({ size: BATCH }, async () =>
    committed(
      await deps.checkoutLinks.handleLapsed(now, BATCH, (row) =>
        eventEnvelope('checkout.session.expired', { merchant_id: row.merchant_id, webhook_url: row.webhook_url, session: toEventPayload(row) }, correlationId, now),
      ),
    ),
  );
  const lapsedHolds = await inBatches({ size: BATCH }, async () =>
    committed(
      await deps.holds.expireLapsed(now, BATCH, (row) => [
        eventEnvelope('session.expired', { merchant_id: row.merchant_id, webhook_url: row.webhook_url, session: toEventPayload(row) }, correlationId, now),
        ...holdCanceled({ ...row, status: 'AUTHORIZED' }, 'expired', correlationId, now),
      ]),
    ),
  );
  return { expiredSessions, lapsedCheckoutLinks, lapsedHolds };
}
