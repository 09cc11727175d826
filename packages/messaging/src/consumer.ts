/**
 * Event consumers. A durable consumer records each message id in its inbox in
 * the same transaction as its effect and acks only after commit, so a
 * redelivery changes nothing; an effect keyed so that it cannot happen twice
 * needs neither inbox nor transaction. A message that fails is retried by the broker up
 * to the queue's delivery limit, then dead-lettered; a malformed one is
 * dead-lettered at once.
 */
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { checkEventData, eventPublisherField, eventPublishers, isEventType, topology, type BrokerPrincipal, type Envelope, type EventData, type EventType, type ServiceName } from '@gateway/contracts';
import { withTransaction, type Pool, type PoolClient, type Queryable } from '@gateway/db';
import { describeError, withCorrelation, type Logger } from '@gateway/observability';
import type { Broker, BrokerComponent } from './broker.js';
import { decodeEnvelope } from './envelope.js';
import { eventLabel, eventsHandled, messagesRefused } from './metrics.js';
import { QueueConsumer, settle } from './queue-consumer.js';
import { assertDeclarations, durableQueue } from './topology.js';

export type EventHandlers = {
  [E in EventType]?: (data: EventData<E>, envelope: Envelope<EventData<E>>, tx: PoolClient) => Promise<void>;
};

/** Handlers whose effect is idempotent by itself: given the pool, not a transaction. */
export type IdempotentEventHandlers = {
  [E in EventType]?: (data: EventData<E>, envelope: Envelope<EventData<E>>, db: Queryable) => Promise<void>;
};

export interface EventConsumerOptions {
  service: ServiceName;
  /** The queue and the routing-key patterns bound to it; the service's own (topology) by default. */
  subscription?: { queue: string; patterns: readonly string[] };
  pool: Pool;
  handlers: EventHandlers;
  /**
   * Handlers whose effect is keyed so that a second delivery changes nothing
   * (one statement with ON CONFLICT DO NOTHING, say): they run on the pool,
   * without the inbox and its transaction.
   */
  idempotentHandlers?: IdempotentEventHandlers;
  log: Logger;
  prefetch?: number;
  /** Pause before handing a failed message back, so a failing dependency is not hammered. */
  retryDelayMs?: number;
  /** Called after a handler's transaction commits (to wake the outbox relay, say). */
  afterCommit?: () => void;
  /**
   * True when this replica knows the message's effect is already committed
   * (it applied the same change by another path, or is applying it and
   * answers once that commits): the message is acked without a transaction.
   * Only a hint; without it the inbox decides.
   */
  alreadyApplied?: (envelope: Envelope) => boolean | Promise<boolean>;
}

/**
 * Declares the durable queue (with its dead-letter queue) a service's events
 * arrive on, bound to its patterns; returns the queue's name. The exchanges are
 * not declared here: a service's broker user may not (see ensureExchanges).
 */
export async function prepareEventQueue(
  channel: Channel,
  broker: Broker,
  service: ServiceName,
  subscription?: { queue: string; patterns: readonly string[] },
): Promise<string> {
  const names = broker.names;
  const { queue, patterns } = subscription ?? { queue: names.eventQueue(service), patterns: topology[service].events };
  await assertDeclarations(channel, [], durableQueue(names, queue, patterns.map((routingKey) => ({ exchange: names.events, routingKey }))));
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
export function decodeEventOrDeadLetter(broker: Broker, channel: Channel, msg: ConsumeMessage, log: Logger): Envelope | undefined {
  let envelope: Envelope;
  try {
    envelope = decodeEnvelope(msg.content);
    if (isEventType(envelope.type)) checkEventData(envelope.type, envelope.data);
  } catch (err) {
    log.error({ err: describeError(err), messageId: msg.properties.messageId as unknown }, 'malformed event dead-lettered');
    eventsHandled.inc({ type: 'unknown', outcome: 'malformed' });
    settle(() => channel.nack(msg, false, false));
    return undefined;
  }
  if (fromItsPublisher(broker, msg, envelope, 'event')) return envelope;
  settle(() => channel.nack(msg, false, false));
  return undefined;
}

export class EventConsumer extends QueueConsumer {
  constructor(
    broker: Broker,
    private readonly options: EventConsumerOptions,
  ) {
    super(broker, options.prefetch ?? 32);
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
    const known = isEventType(envelope.type) ? envelope.type : undefined;
    const type = known ?? 'unknown';
    const handler = known && this.options.handlers[known];
    const idempotent = known && this.options.idempotentHandlers?.[known];
    const skip = () => {
      eventsHandled.inc({ type, outcome: 'skipped' });
      settle(() => channel.ack(msg));
    };
    if (!handler && !idempotent) return skip();
    try {
      if (await this.options.alreadyApplied?.(envelope)) return skip();
      const fresh = await withCorrelation(envelope.correlation_id, async () => {
        if (idempotent) {
          await (idempotent as (data: unknown, envelope: Envelope, db: Queryable) => Promise<void>)(envelope.data, envelope, this.options.pool);
          return true;
        }
        return withTransaction(this.options.pool, async (tx) => {
          const inserted = await tx.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [envelope.id]);
          if (inserted.rowCount === 0) return false;
          await (handler as (data: unknown, envelope: Envelope, tx: PoolClient) => Promise<void>)(envelope.data, envelope, tx);
          return true;
        });
      });
      eventsHandled.inc({ type, outcome: fresh ? 'handled' : 'duplicate' });
      this.options.afterCommit?.();
      settle(() => channel.ack(msg));
    } catch (err) {
      eventsHandled.inc({ type, outcome: 'failed' });
      this.options.log.warn({ err: describeError(err), type: envelope.type, eventId: envelope.id }, 'event handling failed; will be redelivered');
      await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs ?? 500));
      settle(() => channel.nack(msg, false, true));
    }
  }
}

export interface BroadcastOptions {
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
    for (const pattern of this.options.patterns) await channel.bindQueue(queue, this.broker.names.events, pattern);
    await channel.consume(
      queue,
      (msg) => {
        if (!msg) return;
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
