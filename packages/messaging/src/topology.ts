/**
 * Names and arguments of every exchange and queue, derived from one prefix so
 * that several systems (or test runs) can share one broker, and each broker
 * user's permissions on them, derived from the same topology.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Channel, ChannelModel } from 'amqplib';
import { bindingKeys, commandLane, commandLanesOf, commands, eventPublishers, topology, type BrokerPrincipal, type CommandLane, type CommandType, type EventType, type ServiceName } from '@gateway/contracts';

/** How many times a message is redelivered before it is dead-lettered. */
export const DELIVERY_LIMIT = 5;
/** Dead letters are kept a week for operators to inspect. */
const DEAD_LETTER_TTL_MS = 7 * 24 * 3600 * 1000;

export interface Names {
  readonly events: string;
  readonly deadLetter: string;
  /** The queue of `service`'s commands of `lane` (contracts' commandLane): fast ones by default. */
  commandQueue(service: ServiceName, lane?: CommandLane): string;
  /** The queue command `type` is sent to: its service's queue of its lane. */
  commandQueueOf(type: CommandType): string;
  eventQueue(service: ServiceName): string;
  /** A fresh name for one replica's exclusive broadcast queue, in the service's own namespace. */
  broadcastQueue(service: ServiceName): string;
}

/** The names of the broker objects of the system whose prefix is `prefix`. */
export function namesFor(prefix: string): Names {
  const commandQueue = (service: ServiceName, lane: CommandLane = 'fast') => (lane === 'fast' ? `${prefix}.${service}.commands` : `${prefix}.${service}.commands.${lane}`);
  return {
    events: `${prefix}.events`,
    deadLetter: `${prefix}.dead-letter`,
    commandQueue,
    commandQueueOf: (type) => commandQueue(commands[type].service, commandLane(type)),
    eventQueue: (service) => `${prefix}.${service}.events`,
    broadcastQueue: (service) => `${prefix}.${service}.broadcast.${randomBytes(8).toString('hex')}`,
  };
}

interface QueueDeclaration {
  readonly name: string;
  /** Durable queues survive a broker restart; transient ones are declared again by their consumers. */
  readonly durable: boolean;
  readonly arguments: Record<string, unknown>;
  readonly bindings: readonly { exchange: string; routingKey: string }[];
}

interface ExchangeDeclaration {
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
 * have already answered. A service whose commands include slow ones (waiting
 * on the acquirer) has a second command queue for them, so that a backlog of
 * payments never stands in front of a create or a read.
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
    for (const lane of commandLanesOf(service)) queues.push(commandQueue(names.commandQueue(service, lane)));
    const patterns = topology[service].events;
    if (patterns.length > 0) {
      queues.push(...durableQueue(names, names.eventQueue(service), patterns.flatMap(bindingKeys).map((routingKey) => ({ exchange: names.events, routingKey }))));
    }
  }
  return { exchanges, queues };
}

/**
 * Declares (idempotently) the queues `service` needs; the arguments match
 * infra/rabbitmq/definitions.json. A service that subscribes to no event
 * deletes the event queue an earlier version of it may have left: a broker
 * keeps a queue until someone deletes it (importing definitions only adds), and
 * with no consumer it would gather a copy of every event it is bound to, for
 * ever. Its dead letters expire by their own TTL. Answers the events the
 * deleted queue still held (0 when there was none).
 */
export async function assertTopology(channel: Channel, prefix: string, service: ServiceName): Promise<{ retiredEvents: number }> {
  const { queues } = declarationsFor(prefix, [service]);
  await assertDeclarations(channel, [], queues);
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

/**
 * Declares the system's exchanges that do not exist yet. They are shared, so no
 * service's broker user may configure them (it could delete the events exchange,
 * and every other service's bindings with it): where the definitions were
 * imported they exist and are only checked, passively, which needs no
 * permission. Declaring what is missing keeps a broker without definitions
 * working for a user allowed to (the administrator's, in component tests). A
 * failed check closes its channel, hence a channel of its own per exchange.
 */
export async function ensureExchanges(connection: ChannelModel, prefix: string): Promise<void> {
  for (const exchange of declarationsFor(prefix, []).exchanges) {
    const probe = await connection.createChannel();
    probe.on('error', () => undefined);
    const exists = await probe.checkExchange(exchange.name).then(
      () => true,
      () => false,
    );
    if (exists) {
      await probe.close();
      continue;
    }
    const declare = await connection.createChannel();
    // A user that may not declare it gets ACCESS_REFUSED: the rejection below tells the caller.
    declare.on('error', () => undefined);
    await declare.assertExchange(exchange.name, exchange.type, { durable: true });
    await declare.close();
  }
}

/** Every principal, in the order the definitions list them. */
export const BROKER_PRINCIPALS: readonly BrokerPrincipal[] = [...(Object.keys(topology) as ServiceName[]), 'gateway-admin'];

/** The broker user of `principal`. Users belong to the whole broker, not to a prefix, so the name carries the prefix. */
export function brokerUser(prefix: string, principal: BrokerPrincipal): string {
  return `${prefix}.${principal}`;
}

/** The principal whose broker user is `user` in the system `prefix`; undefined for any other user (or none). */
export function principalOf(prefix: string, user: string | undefined): BrokerPrincipal | undefined {
  return user === undefined ? undefined : BROKER_PRINCIPALS.find((principal) => brokerUser(prefix, principal) === user);
}

/** The events `service` publishes (eventPublishers). */
function eventsPublishedBy(service: ServiceName): EventType[] {
  return (Object.keys(eventPublishers) as EventType[]).filter((type) => (eventPublishers[type] as readonly ServiceName[]).includes(service));
}

interface BrokerPermissions {
  /** Regular expressions on resource names in the vhost (RabbitMQ's configure / write / read). */
  readonly configure: string;
  readonly write: string;
  readonly read: string;
  /** The binding keys it may bind with on the events exchange (topic authorisation); none when it binds nothing there. */
  readonly eventsBindingKeys?: string;
  /** The routing keys it may publish with on the events exchange: the events it owns (topic authorisation). */
  readonly eventsRoutingKeys?: string;
}

const quote = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const anyOf = (alternatives: readonly string[]) => (alternatives.length === 0 ? '^$' : `^(${alternatives.join('|')})$`);

/**
 * What `principal`'s broker user may do, from the same topology the queues come
 * from. A service configures and reads only its own queues (`<prefix>.<service>.*`:
 * command queues, event queue and its dead letters, broadcast queues), so it can
 * neither take another service's commands nor declare, bind, purge or delete
 * another's queue. It reads (binds to) the events exchange only when it subscribes,
 * and then only with its own binding keys; it writes to the dead-letter exchange
 * only to declare its event queue with it. Every service writes to the events
 * exchange (its outbox relay) and to `amq.default`, through which commands go to
 * a command queue and replies to `amq.rabbitmq.reply-to` (consuming that pseudo
 * queue needs no permission). The operators' CLI only sends commands. Nobody may
 * configure the shared exchanges: they come with the definitions.
 */
export function permissionsFor(prefix: string, principal: BrokerPrincipal): BrokerPermissions {
  if (principal === 'gateway-admin') return { configure: '^$', write: anyOf(['amq\\.default']), read: '^$' };
  const names = namesFor(prefix);
  const own = `${quote(prefix)}\\.${quote(principal)}\\.`;
  const { events, broadcasts, retired = [] } = topology[principal];
  const subscribes = events.length > 0;
  // Removing a retired binding needs the same right as making it.
  const binds = [...events, ...broadcasts].flatMap(bindingKeys).concat(retired);
  return {
    configure: `^${own}`,
    write: anyOf([`${own}.+`, quote(names.events), ...(subscribes ? [quote(names.deadLetter)] : []), 'amq\\.default']),
    read: anyOf([`${own}.+`, ...(binds.length > 0 ? [quote(names.events)] : []), ...(subscribes ? [quote(names.deadLetter)] : [])]),
    ...(binds.length > 0 && { eventsBindingKeys: anyOf(binds.map(quote)) }),
    eventsRoutingKeys: anyOf(eventsPublishedBy(principal).flatMap(bindingKeys).map(quote)),
  };
}

/**
 * RabbitMQ definitions (for `rabbitmqctl import_definitions` or the management
 * API) of the whole system: exchanges, queues, bindings, and every principal's
 * permissions. Users are not in it: their passwords live in each environment's
 * secret store, and importing a user without one would clear the password it
 * has. Create the users (`brokerUser`) before importing.
 */
export function definitionsDocument(prefix: string, vhost = '/'): Record<string, unknown> {
  const { exchanges, queues } = declarationsFor(prefix);
  const names = namesFor(prefix);
  const permissions = BROKER_PRINCIPALS.map((principal) => ({ user: brokerUser(prefix, principal), granted: permissionsFor(prefix, principal) }));
  return {
    exchanges: exchanges.map((e) => ({ name: e.name, vhost, type: e.type, durable: true, auto_delete: false, internal: false, arguments: {} })),
    queues: queues.map((q) => ({ name: q.name, vhost, durable: q.durable, auto_delete: false, arguments: q.arguments })),
    bindings: queues.flatMap((q) =>
      q.bindings.map((b) => ({ source: b.exchange, vhost, destination: q.name, destination_type: 'queue', routing_key: b.routingKey, arguments: {} })),
    ),
    permissions: permissions.map(({ user, granted }) => ({ user, vhost, configure: granted.configure, write: granted.write, read: granted.read })),
    // A user with no topic permission on the exchange may publish and bind anything there: every service gets one.
    topic_permissions: permissions.flatMap(({ user, granted }) =>
      granted.eventsBindingKeys || granted.eventsRoutingKeys
        ? [{ user, vhost, exchange: names.events, write: granted.eventsRoutingKeys ?? '^$', read: granted.eventsBindingKeys ?? '^$' }]
        : [],
    ),
  };
}

/**
 * The broker users of every principal with these passwords, hashed as RabbitMQ
 * does (salted SHA-256), for the definitions of a local run or a test system,
 * whose passwords are generated where they are used.
 */
export function brokerUsers(prefix: string, passwords: Readonly<Record<BrokerPrincipal, string>>): Record<string, unknown>[] {
  return BROKER_PRINCIPALS.map((principal) => {
    const salt = randomBytes(4);
    const digest = createHash('sha256').update(Buffer.concat([salt, Buffer.from(passwords[principal], 'utf8')])).digest();
    return { name: brokerUser(prefix, principal), password_hash: Buffer.concat([salt, digest]).toString('base64'), hashing_algorithm: 'rabbit_password_hashing_sha256', tags: '' };
  });
}
