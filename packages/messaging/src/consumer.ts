/**
 * Event consumers. A service's durable consumer applies, for each event it
 * takes, the changes that event announces (apply-once.ts): each change is
 * keyed on what it changes, so a redelivery, or the same change already
 * applied from a reply, changes nothing; the event is acked only once its
 * change has committed.
 *
 * An event whose change fails because the database cannot do it for a while
 * (away, switching over, refusing writes: transientFailure, packages/db) is
 * tried again here, unacked, with growing pauses, for up to `patienceMs`
 * while this consumer holds its channel: handed back at once, a few seconds'
 * outage would spend the event's delivery limit and dead-letter it (a
 * payment no session records, a webhook no merchant gets). Any other failure
 * (the event's data refused, a fault of the change's own) hands it back to
 * the queue after a short pause; the queue's delivery limit then
 * dead-letters it. A malformed event is dead-lettered at once.
 */
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { backoffDelay } from '@gateway/backoff';
import { bindingKeys, checkEventData, eventPublisherField, eventPublishers, isEventType, topology, type BrokerPrincipal, type Envelope, type EventType, type ServiceName } from '@gateway/contracts';
import { transientFailure } from '@gateway/db';
import { describeError, withCorrelation, type Logger } from '@gateway/observability';
import { applyOnce, type AnyChange } from './apply-once.js';
import type { Broker, BrokerComponent } from './broker.js';
import { decodeEnvelope } from './envelope.js';
import { eventLabel, eventsHandled, messagesRefused } from './metrics.js';
import { acknowledge, QueueConsumer } from './queue-consumer.js';
import { assertDeclarations, durableQueue } from './topology.js';

interface EventConsumerOptions {
  service: ServiceName;
  /** The queue and the routing-key patterns bound to it; the service's own (topology) by default. */
  subscription?: { queue: string; patterns: readonly string[] };
  /** The changes this service applies from its events; an event that announces none of them is acked and skipped. */
  changes: readonly AnyChange[];
  log: Logger;
  prefetch?: number;
  /** Pause before handing a failed event back to the queue, so a failing dependency is not hammered. */
  retryDelayMs?: number;
  /** Pauses between tries while the database cannot do the change: the first, doubled each time up to the last. */
  unavailableRetry?: { first: number; max: number };
  /** How long such an event is tried again in process before it goes back to the queue. */
  patienceMs?: number;
  /** Called after a change was applied (to wake the outbox relay, say). */
  afterCommit?: () => void;
}

/** While the database cannot do a change: 500 ms, doubled each time, 30 s at most; for ten minutes. */
const UNAVAILABLE_RETRY = { first: 500, max: 30_000 };
const PATIENCE_MS = 10 * 60_000;

/**
 * Declares the durable queue (with its dead-letter queue) a service's events
 * arrive on, bound to its patterns; returns the queue's name. The exchanges are
 * not declared here: a service's broker user may not (see ensureExchanges).
 */
async function prepareEventQueue(
  channel: Channel,
  broker: Broker,
  service: ServiceName,
  subscription?: { queue: string; patterns: readonly string[] },
): Promise<string> {
  const names = broker.names;
  const { queue, patterns } = subscription ?? { queue: names.eventQueue(service), patterns: topology[service].events };
  await assertDeclarations(channel, [], durableQueue(names, queue, patterns.flatMap(bindingKeys).map((routingKey) => ({ exchange: names.events, routingKey }))));
  // A binding that is not there is no error: this runs at every start.
  if (!subscription) for (const key of topology[service].retired ?? []) await channel.unbindQueue(queue, names.events, key);
  return queue;
}

/**
 * Whether `envelope` comes from a service that publishes its type
 * (eventPublishers, D17); an event of a type nobody publishes is nobody's. A
 * refusal is counted and logged.
 */
export function fromItsPublisher(broker: Broker, msg: ConsumeMessage, envelope: Envelope, kind: 'event' | 'broadcast'): boolean {
  const publishers: readonly BrokerPrincipal[] = isEventType(envelope.type) ? eventPublishers[envelope.type] : [];
  const field = isEventType(envelope.type) ? eventPublisherField[envelope.type] : undefined;
  const named = field === undefined ? publishers : publishers.filter((publisher) => (envelope.data as Record<string, unknown> | undefined)?.[field] === publisher);
  if (broker.accepts(msg, named)) return true;
  messagesRefused.inc({ kind, type: eventLabel(envelope.type) });
  broker.log.warn({ type: envelope.type, eventId: envelope.id, user: msg.properties.userId as unknown }, `${kind} refused: its sender does not publish it`);
  return false;
}

/**
 * The event a delivery carries, checked against its contract and its
 * publisher; a malformed one, or one from a broker user that does not publish
 * it, is dead-lettered at once (redelivering it would fail the same way) and
 * undefined is returned.
 */
function decodeEventOrDeadLetter(broker: Broker, channel: Channel, msg: ConsumeMessage, log: Logger): Envelope | undefined {
  let envelope: Envelope;
  try {
    envelope = decodeEnvelope(msg.content);
    if (isEventType(envelope.type)) checkEventData(envelope.type, envelope.data);
  } catch (err) {
    log.error({ err: describeError(err), messageId: msg.properties.messageId as unknown }, 'malformed event dead-lettered');
    eventsHandled.inc({ type: 'unknown', outcome: 'malformed' });
    acknowledge(() => channel.nack(msg, false, false));
    return undefined;
  }
  if (fromItsPublisher(broker, msg, envelope, 'event')) return envelope;
  acknowledge(() => channel.nack(msg, false, false));
  return undefined;
}

export class EventConsumer extends QueueConsumer {
  private readonly byType = new Map<string, AnyChange>();

  constructor(
    broker: Broker,
    private readonly options: EventConsumerOptions,
  ) {
    super(broker, options.prefetch ?? 32);
    for (const change of options.changes) for (const type of change.events) this.byType.set(type, change);
  }

  protected async prepare(channel: Channel): Promise<string> {
    return prepareEventQueue(channel, this.broker, this.options.service, this.options.subscription);
  }

  /** prepareEventQueue declares it beside the queue (topology.ts, durableQueue). */
  protected override deadLetterQueue(queue: string): string {
    return `${queue}.dead`;
  }

  protected async handle(channel: Channel, msg: ConsumeMessage): Promise<void> {
    const envelope = decodeEventOrDeadLetter(this.broker, channel, msg, this.options.log);
    if (!envelope) return;
    const change = this.byType.get(envelope.type);
    if (!change) {
      eventsHandled.inc({ type: eventLabel(envelope.type), outcome: 'skipped' });
      acknowledge(() => channel.ack(msg));
      return;
    }
    const type = envelope.type as EventType;
    const context = { correlationId: envelope.correlation_id, at: new Date(envelope.occurred_at), event: envelope };
    let input: unknown;
    try {
      input = change.fromEvent(envelope.data as never, context);
    } catch (err) {
      // The event's data cannot be read as the change's input: no retry will change that.
      eventsHandled.inc({ type, outcome: 'failed' });
      this.options.log.error({ err: describeError(err), type, eventId: envelope.id }, 'event unreadable as its change; dead-lettered');
      acknowledge(() => channel.nack(msg, false, false));
      return;
    }
    if (input === undefined) {
      eventsHandled.inc({ type, outcome: 'skipped' });
      acknowledge(() => channel.ack(msg));
      return;
    }
    const patience = Date.now() + (this.options.patienceMs ?? PATIENCE_MS);
    for (let retry = 0; ; retry += 1) {
      try {
        const applied = await withCorrelation(envelope.correlation_id, () => applyOnce(change, 'event', input as never, context));
        eventsHandled.inc({ type, outcome: applied === undefined ? 'duplicate' : 'handled' });
        if (applied !== undefined) this.options.afterCommit?.();
        acknowledge(() => channel.ack(msg));
        return;
      } catch (err) {
        eventsHandled.inc({ type, outcome: 'failed' });
        const pause = backoffDelay(this.options.unavailableRetry ?? UNAVAILABLE_RETRY, retry);
        const again = transientFailure(err) && this.holds(channel) && Date.now() + pause < patience;
        this.options.log.warn({ err: describeError(err), type, eventId: envelope.id }, `event not applied; ${again ? 'trying again' : 'back to the queue'}`);
        if (!again) {
          await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs ?? 500));
          acknowledge(() => channel.nack(msg, false, true));
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }
}

interface BroadcastOptions {
  patterns: readonly string[];
  handler: (envelope: Envelope) => void;
  /** Called on every (re)connect: what was broadcast while disconnected is lost. */
  onResubscribe?: () => void;
}

/** A per-replica subscription (exclusive, auto-deleted queue) for caches every replica keeps. */
export class BroadcastListener implements BrokerComponent {
  constructor(
    private readonly broker: Broker,
    private readonly options: BroadcastOptions,
  ) {}

  async attach(connection: ChannelModel): Promise<void> {
    const service = this.broker.service;
    if (!service) throw new Error('a broadcast listener needs the broker connection of a service');
    const channel = await this.broker.createChannel(connection);
    // Named in the service's own namespace, not by the server (amq.gen-*), so its broker user needs no rights outside it.
    const { queue } = await channel.assertQueue(this.broker.names.broadcastQueue(service), { exclusive: true, autoDelete: true, durable: false });
    for (const key of this.options.patterns.flatMap(bindingKeys)) await channel.bindQueue(queue, this.broker.names.events, key);
    await channel.consume(
      queue,
      (msg) => {
        if (!msg) {
          this.broker.reconnect(`the broker cancelled the subscription to ${queue}`);
          return;
        }
        try {
          const envelope = decodeEnvelope(msg.content);
          if (fromItsPublisher(this.broker, msg, envelope, 'broadcast')) this.options.handler(envelope);
        } catch {
          // A broadcast is only a cache hint; the cache's own expiry covers a bad one.
        }
      },
      { noAck: true },
    );
    this.options.onResubscribe?.();
  }

  detach(): void {}
}
