/**
 * The body merchants receive for an event (INTERFACE 6.2), built in one place:
 * the webhook dispatcher stores and signs it, and the gateway's test-mode event
 * stream (`gateway listen`) sends the same bytes, so a receiver tested locally
 * sees exactly what production delivers.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { Envelope, PaymentMethodEventData, SessionEventData } from './messages/index.js';
import { SessionEventPayload } from './messages/index.js';
import { PaymentMethod } from './customer-api.js';

/** The webhook body: the event envelope merchants see. */
export const WebhookEvent = Type.Object({
  id: Type.String({ pattern: '^evt_' }),
  event: Type.String({ description: 'Event type, for example session.succeeded; new types may be added (INTERFACE 9.3).' }),
  created_at: Type.String({ format: 'date-time' }),
  data: SessionEventPayload,
});
export type WebhookEvent = Static<typeof WebhookEvent>;

/** The webhook body of payment_method.attached and payment_method.detached (D24): the payment method and the mode. */
export const PaymentMethodWebhookEvent = Type.Object({
  id: Type.String({ pattern: '^evt_' }),
  event: Type.Union([Type.Literal('payment_method.attached'), Type.Literal('payment_method.detached')]),
  created_at: Type.String({ format: 'date-time' }),
  data: Type.Object({ ...PaymentMethod.properties, livemode: Type.Boolean() }),
});
export type PaymentMethodWebhookEvent = Static<typeof PaymentMethodWebhookEvent>;

/** The exact JSON text of the webhook body of `envelope`: a session event's session, or a payment method event's card. */
export function webhookBody(envelope: Envelope<SessionEventData | PaymentMethodEventData>): string {
  const { data } = envelope;
  const body = 'session' in data ? data.session : { ...data.payment_method, livemode: data.livemode };
  return JSON.stringify({ id: envelope.id, event: envelope.type, created_at: envelope.occurred_at, data: body });
}
