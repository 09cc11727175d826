/**
 * Canceling a session (INTERFACE 3.1 rule 1, D2, D22): CREATED and PENDING
 * sessions, and the merchant's AUTHORIZED ones with no capture under way,
 * whose hold is then released (session.hold_canceled, which the adapter acts
 * on with reverse.do), and (D29) the open sessions of a deactivated payment
 * link. The status change and its events commit together.
 */
import type { ApiContext, SessionDetail } from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import type { PoolClient } from '@gateway/db';
import { AppError } from '@gateway/problem';
import { accountOf } from './accounts.js';
import type { SessionDeps } from './deps.js';
import { holdCanceled } from './hold-release.js';
import { withOpenSession } from './open-session.js';
import { effectiveStatus, toDetail, toEventPayload, type SessionRow } from './session.js';
import { cancelRefusal } from './session-states.js';

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
 * its signed checkout link, so any merchant's); never a held payment, which is
 * the merchant's to capture or void.
 */
export async function cancelOpenSession(deps: SessionDeps, sessionId: string, correlationId: string, now: Date): Promise<SessionRow> {
  const canceled = await withOpenSession(deps, undefined, sessionId, now, (row, tx) => finishCanceled(deps, row, tx, correlationId, now));
  deps.afterCommit();
  return canceled;
}

/**
 * D29: a deactivated payment link's open sessions, each canceled as the buyer's
 * cancel does it (open sessions only, session.canceled); one whose attempt got
 * under way, or that closed, meanwhile is left as it is. How many were canceled.
 */
export async function cancelPaymentLinkSessions(deps: SessionDeps, context: ApiContext, paymentLink: string): Promise<number> {
  const account = accountOf(context);
  let canceled = 0;
  for (const sessionId of await deps.sessions.openOfPaymentLink(account, paymentLink, deps.clock())) {
    const now = deps.clock();
    try {
      await withOpenSession(deps, account, sessionId, now, (row, tx) => finishCanceled(deps, row, tx, context.request_id, now));
      canceled += 1;
    } catch (err) {
      // Paying or closed since it was listed: its attempt finishes, or there is nothing to cancel.
      if (!(err instanceof AppError)) throw err;
    }
  }
  if (canceled > 0) deps.afterCommit();
  return canceled;
}

async function finishCanceled(deps: SessionDeps, row: SessionRow, tx: PoolClient, correlationId: string, now: Date): Promise<SessionRow> {
  const next: SessionRow = { ...row, status: 'CANCELED', completed_at: now };
  const event = eventEnvelope('session.canceled', { merchant_id: row.merchant_id, webhook_url: row.webhook_url, session: toEventPayload(next) }, correlationId, now);
  await deps.sessions.finish(tx, row.id, 'CANCELED', now, [event, ...holdCanceled(row, 'canceled', correlationId, now)]);
  return next;
}
