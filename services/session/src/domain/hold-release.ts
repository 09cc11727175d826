/**
 * The release of a held payment (D22): when an AUTHORIZED session ends
 * uncaptured (canceled, or its hold lapsed), session.hold_canceled has the
 * adapter release the hold at the acquirer (reverse.do).
 */
import { eventEnvelope } from '@gateway/messaging';
import type { SessionRow } from './session.js';

/** The event that has the adapter release an AUTHORIZED session's hold, none for any other session. */
export function holdCanceled(row: SessionRow, reason: 'canceled' | 'expired', correlationId: string, now: Date) {
  const held = row.status === 'AUTHORIZED' ? row.attempts?.find((a) => a.status === 'SUCCEEDED') : undefined;
  if (row.status === 'AUTHORIZED' && !held) throw new Error(`AUTHORIZED session ${row.id} read without its attempts`);
  return held
    ? [eventEnvelope('session.hold_canceled', { session_id: row.id, attempt_id: held.id, merchant_id: row.merchant_id, livemode: row.livemode, reason }, correlationId, now)]
    : [];
}
