/**
 * Takes the events merchants receive as webhooks off the broker. Each one is
 * stored (its evt_ id is the key, so a redelivery changes nothing) together
 * with its first attempt, in batches, and acked only after that commit; the
 * attempt is then sent at once.
 *
 * An event that cannot be stored (the database away for a while) is tried
 * again here, unacked, with growing pauses, for up to STORE_PATIENCE_MS: each
 * redelivery would count against the queue's delivery limit, and five of them
 * in a few seconds' outage would dead-letter events no merchant then gets.
 * Past that patience, or when this consumer stops, it goes back to the queue.
 *
 * merchant.created and merchant.kyb_approved arrive on the same queue (the
 * service's one event queue): they provision the merchant's test-mode and
 * live-mode endpoints, idempotently, with the same in-process patience as
 * the events above before the event goes back to the queue.
 */
import type { Channel, ConsumeMessage } from 'amqplib';
import { backoffDelay } from '@gateway/backoff';
import { WEBHOOK_EVENTS, webhookBody, type Envelope, type EventData, type SessionEventData } from '@gateway/contracts';
import { decodeEventOrDeadLetter, eventsHandled, prepareEventQueue, QueueConsumer, settle, type Broker } from '@gateway/messaging';
import { describeError, traceContextToStore, tracingOn, type Logger } from '@gateway/observability';
import type { DeliveryJob, DeliveryRepository, IncomingEvent } from '../db/delivery.repository.js';
import { Batcher } from '../delivery/batcher.js';

const STORE_BATCH = 500;
/** Pauses between tries at storing one event: 500 ms, doubled each time, 30 s at most. */
const STORE_RETRY = { first: 500, max: 30_000 };
const STORE_PATIENCE_MS = 10 * 60_000;

const webhookEvents: ReadonlySet<string> = new Set(WEBHOOK_EVENTS);

/** The merchant events that give a merchant its default endpoint in a mode. */
type MerchantEvent = { [T in 'merchant.created' | 'merchant.kyb_approved']: Envelope<EventData<T>> & { type: T } }['merchant.created' | 'merchant.kyb_approved'];

/** Provisioning of the default endpoints, by the merchant event that asks for it. */
export interface EndpointProvisioning {
  created: (created: EventData<'merchant.created'>) => Promise<void>;
  kybApproved: (approved: EventData<'merchant.kyb_approved'>) => Promise<void>;
}

export class WebhookEventsConsumer extends QueueConsumer {
  private readonly store: Batcher<IncomingEvent, undefined>;

  constructor(
    broker: Broker,
    deliveries: DeliveryRepository,
    enqueue: (jobs: readonly DeliveryJob[]) => void,
    private readonly log: Logger,
    prefetch: number,
    private readonly provisioning: EndpointProvisioning,
  ) {
    super(broker, prefetch);
    this.store = new Batcher(async (events) => {
      const unique = [...new Map(events.map((e) => [e.id, e])).values()];
      const jobs = await deliveries.storeEvents(unique);
      if (tracingOn()) {
        const traces = new Map(unique.map((e) => [e.id, e.traceContext]));
        for (const job of jobs) job.traceContext = traces.get(job.eventId) ?? null;
      }
      enqueue(jobs);
      return events.map(() => undefined);
    }, STORE_BATCH);
  }

  protected prepare(channel: Channel): Promise<string> {
    return prepareEventQueue(channel, this.broker, 'webhook-dispatcher');
  }

  /** prepareEventQueue declares it beside the queue (as EventConsumer's): the dead-letter gauge reads it. */
  protected override deadLetterQueue(queue: string): string {
    return `${queue}.dead`;
  }

  protected async handle(channel: Channel, msg: ConsumeMessage): Promise<void> {
    const envelope = decodeEventOrDeadLetter(this.broker, channel, msg, this.log);
    if (!envelope) return;
    if (envelope.type === 'merchant.created' || envelope.type === 'merchant.kyb_approved') return this.provision(channel, msg, envelope as MerchantEvent);
    if (!webhookEvents.has(envelope.type)) {
      eventsHandled.inc({ type: 'unknown', outcome: 'skipped' });
      settle(() => channel.ack(msg));
      return;
    }
    const event = toIncomingEvent(envelope as Envelope<SessionEventData>);
    // With tracing on, the event's first attempts continue this delivery's trace.
    if (tracingOn()) event.traceContext = traceContextToStore();
    return this.patiently(channel, msg, envelope, 'event not stored', () => this.store.add(event));
  }

  /** Provisions from a merchant event: a failure waits in process as a failed store does (patiently). */
  private provision(channel: Channel, msg: ConsumeMessage, envelope: MerchantEvent): Promise<void> {
    return this.patiently(channel, msg, envelope, 'endpoint not provisioned', () =>
      envelope.type === 'merchant.created' ? this.provisioning.created(envelope.data) : this.provisioning.kybApproved(envelope.data),
    );
  }

  /**
   * Does `work` for a delivery and acks it; a failure is tried again here,
   * unacked, with growing pauses, while this consumer holds the channel and
   * within STORE_PATIENCE_MS, then the delivery goes back to the queue. Handed
   * back at once, a few seconds' database outage would spend its delivery
   * limit and dead-letter it: an event no merchant gets, or a merchant with no
   * endpoint (and the CLI with no secret to show).
   */
  private async patiently(channel: Channel, msg: ConsumeMessage, envelope: Envelope, failure: string, work: () => Promise<unknown>): Promise<void> {
    const patience = Date.now() + STORE_PATIENCE_MS;
    for (let retry = 0; ; retry += 1) {
      const pause = backoffDelay(STORE_RETRY, retry);
      try {
        await work();
        eventsHandled.inc({ type: envelope.type, outcome: 'handled' });
        settle(() => channel.ack(msg));
        return;
      } catch (err) {
        eventsHandled.inc({ type: envelope.type, outcome: 'failed' });
        const again = this.holds(channel) && Date.now() + pause < patience;
        this.log.warn({ err: describeError(err), type: envelope.type, eventId: envelope.id }, `${failure}; ${again ? 'trying again' : 'back to the queue'}`);
        if (!again) {
          settle(() => channel.nack(msg, false, true));
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
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
    body: webhookBody(envelope),
    createdAt: envelope.occurred_at,
    correlationId: envelope.correlation_id,
  };
}
