/**
 * The body merchants receive for an event (INTERFACE 6.2), built in one place:
 * the webhook dispatcher stores and signs it, and the gateway's test-mode event
 * stream (`gateway listen`) sends the same bytes, so a receiver tested locally
 * sees exactly what production delivers.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { Envelope, SessionEventData } from './messages/index.js';
import { SessionEventPayload } from './messages/index.js';

/** The webhook body: the event envelope merchants see. */
export const WebhookEvent = Type.Object({
  id: Type.String({ pattern: '^evt_' }),
  event: Type.String({ description: 'Event type, for example session.succeeded; new types may be added (INTERFACE 9.3).' }),
  created_at: Type.String({ format: 'date-time' }),
  data: SessionEventPayload,
});
export type WebhookEvent = Static<typeof WebhookEvent>;

/** The exact JSON text of the webhook body of `envelope`. */
export function webhookBody(envelope: Envelope<SessionEventData>): string {
  return JSON.stringify({ id: envelope.id, event: envelope.type, created_at: envelope.occurred_at, data: envelope.data.session });
}
