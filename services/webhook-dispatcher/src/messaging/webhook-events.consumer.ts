/**
 * Takes the events merchants receive as webhooks off the broker. Each one is
 * stored (its evt_ id is the key, so a redelivery changes nothing) together
 * with its first attempt, in batches, and acked only after that commit; the
 * attempt is then sent at once.
 */
import type { Channel, ConsumeMessage } from 'amqplib';
import { WEBHOOK_EVENTS, type Envelope, type SessionEventData } from '@gateway/contracts';
import { decodeEventOrDeadLetter, eventsHandled, prepareEventQueue, QueueConsumer, settle, type Broker } from '@gateway/messaging';
import { describeError, type Logger } from '@gateway/observability';
import type { DeliveryJob, DeliveryRepository, IncomingEvent } from '../db/delivery.repository.js';
import { Batcher } from '../delivery/batcher.js';

const STORE_BATCH = 500;
const RETRY_PAUSE_MS = 500;

const webhookEvents: ReadonlySet<string> = new Set(WEBHOOK_EVENTS);

export class WebhookEventsConsumer extends QueueConsumer {
  private readonly store: Batcher<IncomingEvent, undefined>;

  constructor(
    broker: Broker,
    deliveries: DeliveryRepository,
    enqueue: (jobs: readonly DeliveryJob[]) => void,
    private readonly log: Logger,
    prefetch: number,
  ) {
    super(broker, prefetch);
    this.store = new Batcher(async (events) => {
      const unique = [...new Map(events.map((e) => [e.id, e])).values()];
      enqueue(await deliveries.storeEvents(unique));
      return events.map(() => undefined);
    }, STORE_BATCH);
  }

  protected prepare(channel: Channel): Promise<string> {
    return prepareEventQueue(channel, this.broker, 'webhook-dispatcher');
  }

  protected async handle(channel: Channel, msg: ConsumeMessage): Promise<void> {
    const envelope = decodeEventOrDeadLetter(channel, msg, this.log);
    if (!envelope) return;
    if (!webhookEvents.has(envelope.type)) {
      eventsHandled.inc({ type: 'unknown', outcome: 'skipped' });
      settle(() => channel.ack(msg));
      return;
    }
    try {
      await this.store.add(toIncomingEvent(envelope as Envelope<SessionEventData>));
      eventsHandled.inc({ type: envelope.type, outcome: 'handled' });
      settle(() => channel.ack(msg));
    } catch (err) {
      eventsHandled.inc({ type: envelope.type, outcome: 'failed' });
      this.log.warn({ err: describeError(err), type: envelope.type, eventId: envelope.id }, 'event not stored; will be redelivered');
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      settle(() => channel.nack(msg, false, true));
    }
  }
}

/** The event as stored, with the exact body merchants receive (INTERFACE 6.2). */
export function toIncomingEvent(envelope: Envelope<SessionEventData>): IncomingEvent {
  const { merchant_id: merchantId, webhook_url: sessionUrl, session } = envelope.data;
  return {
    id: envelope.id,
    type: envelope.type,
    merchantId,
    livemode: session.livemode,
    sessionId: session.id,
    sessionUrl,
    body: JSON.stringify({ id: envelope.id, event: envelope.type, created_at: envelope.occurred_at, data: session }),
    createdAt: envelope.occurred_at,
    correlationId: envelope.correlation_id,
  };
}
