/**
 * Names and arguments of every exchange and queue, derived from one prefix so
 * that several systems (or test runs) can share one broker.
 */
import type { Channel } from 'amqplib';
import { topology, type ServiceName } from '@gateway/contracts';

/** How many times a message is redelivered before it is dead-lettered. */
export const DELIVERY_LIMIT = 5;
/** Dead letters are kept a week for operators to inspect. */
const DEAD_LETTER_TTL_MS = 7 * 24 * 3600 * 1000;

export interface Names {
  readonly events: string;
  readonly deadLetter: string;
  commandQueue(service: ServiceName): string;
  eventQueue(service: ServiceName): string;
}

/** The names of the broker objects of the system whose prefix is `prefix`. */
export function namesFor(prefix: string): Names {
  return {
    events: `${prefix}.events`,
    deadLetter: `${prefix}.dead-letter`,
    commandQueue: (service) => `${prefix}.${service}.commands`,
    eventQueue: (service) => `${prefix}.${service}.events`,
  };
}

export interface QueueDeclaration {
  readonly name: string;
  /** Durable queues survive a broker restart; transient ones are declared again by their consumers. */
  readonly durable: boolean;
  readonly arguments: Record<string, unknown>;
  readonly bindings: readonly { exchange: string; routingKey: string }[];
}

export interface ExchangeDeclaration {
  readonly name: string;
  readonly type: 'topic' | 'direct';
}

/** A durable event queue (quorum, delivery limit) with its dead-letter queue. */
export function durableQueue(names: Names, name: string, bindings: QueueDeclaration['bindings']): QueueDeclaration[] {
  return [
    {
      name,
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-delivery-limit': DELIVERY_LIMIT,
        'x-dead-letter-exchange': names.deadLetter,
        'x-dead-letter-routing-key': name,
      },
      bindings,
    },
    {
      name: `${name}.dead`,
      durable: true,
      arguments: { 'x-queue-type': 'quorum', 'x-message-ttl': DEAD_LETTER_TTL_MS },
      bindings: [{ exchange: names.deadLetter, routingKey: name }],
    },
  ];
}

/**
 * A command queue is a transient classic queue. A command is worth something
 * only until its deadline and its reply path dies with the caller's connection,
 * so replicating it (a quorum queue) would buy nothing; measured, it doubled the
 * broker's CPU per API call. Each consuming replica declares the queue, so after
 * a broker node is lost it is declared again on a surviving one; a command
 * published while no queue exists comes back at once (mandatory) instead of
 * waiting out its deadline. Expired commands are simply dropped: their callers
 * have already answered.
 */
function commandQueue(name: string): QueueDeclaration {
  return { name, durable: false, arguments: { 'x-queue-type': 'classic' }, bindings: [] };
}

/** Every exchange and queue of one service (or of all of them). */
export function declarationsFor(prefix: string, services: readonly ServiceName[] = Object.keys(topology) as ServiceName[]) {
  const names = namesFor(prefix);
  const exchanges: ExchangeDeclaration[] = [
    { name: names.events, type: 'topic' },
    { name: names.deadLetter, type: 'direct' },
  ];
  const queues: QueueDeclaration[] = [];
  for (const service of services) {
    queues.push(commandQueue(names.commandQueue(service)));
    const patterns = topology[service].events;
    if (patterns.length > 0) {
      queues.push(...durableQueue(names, names.eventQueue(service), patterns.map((routingKey) => ({ exchange: names.events, routingKey }))));
    }
  }
  return { exchanges, queues };
}

/**
 * Declares (idempotently) what `service` needs; the arguments match
 * infra/rabbitmq/definitions.json. A service that subscribes to no event
 * deletes the event queue an earlier version of it may have left: a broker
 * keeps a queue until someone deletes it (importing definitions only adds), and
 * with no consumer it would gather a copy of every event it is bound to, for
 * ever. Its dead letters expire by their own TTL. Answers the events the
 * deleted queue still held (0 when there was none).
 */
export async function assertTopology(channel: Channel, prefix: string, service: ServiceName): Promise<{ retiredEvents: number }> {
  const { exchanges, queues } = declarationsFor(prefix, [service]);
  await assertDeclarations(channel, exchanges, queues);
  if (topology[service].events.length > 0) return { retiredEvents: 0 };
  const { messageCount } = await channel.deleteQueue(namesFor(prefix).eventQueue(service));
  return { retiredEvents: messageCount };
}

/** Declares exchanges and queues with their bindings (idempotent). */
export async function assertDeclarations(channel: Channel, exchanges: readonly ExchangeDeclaration[], queues: readonly QueueDeclaration[]): Promise<void> {
  for (const exchange of exchanges) await channel.assertExchange(exchange.name, exchange.type, { durable: true });
  for (const queue of queues) {
    await channel.assertQueue(queue.name, { durable: queue.durable, arguments: queue.arguments });
    for (const binding of queue.bindings) await channel.bindQueue(queue.name, binding.exchange, binding.routingKey);
  }
}

/** RabbitMQ definitions (for `rabbitmqctl import_definitions`) of the whole system. */
export function definitionsDocument(prefix: string, vhost = '/'): Record<string, unknown> {
  const { exchanges, queues } = declarationsFor(prefix);
  return {
    exchanges: exchanges.map((e) => ({ name: e.name, vhost, type: e.type, durable: true, auto_delete: false, internal: false, arguments: {} })),
    queues: queues.map((q) => ({ name: q.name, vhost, durable: q.durable, auto_delete: false, arguments: q.arguments })),
    bindings: queues.flatMap((q) =>
      q.bindings.map((b) => ({ source: b.exchange, vhost, destination: q.name, destination_type: 'queue', routing_key: b.routingKey, arguments: {} })),
    ),
  };
}
