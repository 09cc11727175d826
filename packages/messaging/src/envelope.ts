/**
 * Building, encoding and decoding message envelopes. Every envelope is checked
 * against its contract when built and again when received.
 */
import { checkEnvelope, checkEventData, newId, type Envelope, type EventData, type EventType } from '@gateway/contracts';

/** A new event envelope (`evt_` id), its data checked against the event's schema. */
export function eventEnvelope<E extends EventType>(type: E, data: EventData<E>, correlationId: string, now: Date = new Date()): Envelope<EventData<E>> {
  checkEventData(type, data);
  return { id: newId('evt'), type, version: 1, occurred_at: now.toISOString(), correlation_id: correlationId, data };
}

/** Parses and checks the envelope of a received message; throws on anything malformed. */
export function decodeEnvelope(content: Buffer): Envelope {
  const value: unknown = JSON.parse(content.toString('utf8'));
  checkEnvelope(value);
  return value as Envelope;
}
