/**
 * Releasing the hold of a session canceled or lapsed while AUTHORIZED (D22):
 * the change session.hold_canceled carries, applied once (the hold is taken
 * from HELD to VOIDING, so a release and a capture are never both sent);
 * reverse.do is sent, and an unknown outcome is left to reconciliation
 * (reconcile-holds.ts).
 */
import type { EventData } from '@gateway/contracts';
import type { AdapterDeps } from './deps.js';
import { sendRelease } from './finish-hold.js';

/** Releases the hold session.hold_canceled names, once; true when this call took it for release. */
export async function releaseHold(deps: AdapterDeps, data: EventData<'session.hold_canceled'>): Promise<true | undefined> {
  const order = await deps.orders.find(data.attempt_id);
  if (!order || order.session_id !== data.session_id || !(await deps.holds.take(order.attempt_id, 'VOIDING'))) {
    deps.log.debug({ attemptId: data.attempt_id }, 'hold not HELD (released already, or captured); nothing to release');
    return undefined;
  }
  await sendRelease(deps, order);
  return true;
}
