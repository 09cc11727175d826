/**
 * The broker of a test: a prefix with broker users of its own, every event
 * published under it captured (so a test can assert what was announced, and
 * how many times), messages put on it as a given user, and the counts of its
 * queues.
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { connect, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { bindingKeys, type BrokerPrincipal, type Envelope } from '@gateway/contracts';
import { BROKER_PRINCIPALS, brokerUser, brokerUsers, declarationsFor, definitionsDocument, namesFor } from '@gateway/messaging';
import { uniqueName } from './database.js';
import { testEnvironment } from './environment.js';

export class EventCapture {
  readonly events: Envelope[] = [];
  /** Messages that were not JSON at all. */
  readonly malformed: string[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly connection: ChannelModel) {}

  /** Captures every event under `prefix` whose routing key matches one of `patterns` (each also in its payment-link form, bindingKeys). */
  static async start(prefix: string, patterns: readonly string[] = ['#']): Promise<EventCapture> {
    const env = await testEnvironment();
    const connection = await connect(env.amqpUrls[0] as string);
    connection.on('error', () => undefined);
    const capture = new EventCapture(connection);
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    const exchange = namesFor(prefix).events;
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    for (const key of patterns.flatMap(bindingKeys)) await channel.bindQueue(queue, exchange, key);
    await channel.consume(
      queue,
      (msg) => {
        if (!msg) return;
        try {
          capture.events.push(JSON.parse(msg.content.toString('utf8')) as Envelope);
        } catch {
          capture.malformed.push(msg.content.toString('utf8'));
        }
        for (const wake of capture.waiters) wake();
      },
      { noAck: true },
    );
    return capture;
  }

  /** The captured events of `type` that satisfy `match`. */
  of<T = unknown>(type: string, match: (event: Envelope<T>) => boolean = () => true): Envelope<T>[] {
    return this.events.filter((e) => e.type === type && match(e as Envelope<T>)) as Envelope<T>[];
  }

  /** Waits until `count` events of `type` satisfying `match` have arrived; throws after `timeoutMs`. */
  async waitFor<T = unknown>(type: string, match: (event: Envelope<T>) => boolean = () => true, count = 1, timeoutMs = 5_000): Promise<Envelope<T>[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.of<T>(type, match);
      if (found.length >= count) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} ${type} event(s), saw ${found.length} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  async stop(): Promise<void> {
    await this.connection.close().catch(() => undefined);
  }
}

/** Deletes the queues and exchanges of a test prefix. */
export async function deleteBrokerObjects(prefix: string, extraQueues: readonly string[] = []): Promise<void> {
  const env = await testEnvironment();
  const connection = await connect(env.amqpUrls[0] as string);
  connection.on('error', () => undefined);
  try {
    const { exchanges, queues } = declarationsFor(prefix);
    for (const name of [...queues.map((q) => q.name), ...extraQueues]) {
      // A failed delete closes its channel with an error: one channel per delete, errors ignored.
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      await channel.deleteQueue(name).catch(() => undefined);
      await channel.close().catch(() => undefined);
    }
    for (const exchange of exchanges) {
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      await channel.deleteExchange(exchange.name).catch(() => undefined);
      await channel.close().catch(() => undefined);
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/**
 * The users of the local broker still there, deleted as the process exits in
 * one rabbitmqctl call (a broker in a container goes with its container).
 */
const usersLeftAtExit = new Set<string>();
process.on('exit', () => {
  if (usersLeftAtExit.size > 0) spawnSync('rabbitmqctl', deleteUsersCommand([...usersLeftAtExit]), { stdio: 'ignore', timeout: 30_000 });
});

/** The broker URL of each principal of a test system, as its own user. */
export type BrokerUrls = Readonly<Record<BrokerPrincipal, string>>;

/** Users and exchanges made ahead, for the next test systems of this process. */
const made: { prefix: string; urls: BrokerUrls }[] = [];
let making: Promise<void> | undefined;
/** How many systems' users and exchanges one rabbitmqctl call makes: each call starts an Erlang VM (about a second). */
const MADE_AT_ONCE = 4;

/**
 * A fresh broker prefix of this process, with its users (each principal's,
 * with a fresh password), their permissions and the system's exchanges, which
 * no service's user may declare; answers the prefix and each principal's URL.
 * Made a few prefixes at a time, in one rabbitmqctl call, and the users kept
 * until the process exits (deleteBrokerObjects takes the queues and exchanges
 * of a system that shut down), so a test system costs a share of one call.
 */
export async function newBrokerPrefix(): Promise<{ prefix: string; urls: BrokerUrls }> {
  for (;;) {
    const next = made.shift();
    if (next) return next;
    making ??= makePrefixes(MADE_AT_ONCE).finally(() => {
      making = undefined;
    });
    await making;
  }
}

async function makePrefixes(count: number): Promise<void> {
  const env = await testEnvironment();
  const prefixes = Array.from({ length: count }, () => uniqueName('t'));
  const passwords = prefixes.map(() => Object.fromEntries(BROKER_PRINCIPALS.map((principal) => [principal, randomBytes(16).toString('hex')])) as Record<BrokerPrincipal, string>);
  const documents = prefixes.map((prefix) => definitionsDocument(prefix));
  await env.importBrokerDefinitions({
    users: prefixes.flatMap((prefix, i) => brokerUsers(prefix, passwords[i] as Record<BrokerPrincipal, string>)),
    exchanges: documents.flatMap((document) => document.exchanges),
    permissions: documents.flatMap((document) => document.permissions),
    topic_permissions: documents.flatMap((document) => document.topic_permissions),
  });
  prefixes.forEach((prefix, i) => {
    if (env.kind === 'local') usersLeftAtExit.add(prefix);
    const urls = Object.fromEntries(
      BROKER_PRINCIPALS.map((principal) => {
        const nodes = env.amqpUrls.map((node) => {
          const url = new URL(node);
          url.username = brokerUser(prefix, principal);
          url.password = passwords[i]?.[principal] ?? '';
          return url.toString();
        });
        return [principal, nodes.join(',')];
      }),
    ) as Record<BrokerPrincipal, string>;
    made.push({ prefix, urls });
  });
}

/**
 * Deletes the broker users of `prefix`. One `rabbitmqctl eval` rather than a
 * `delete_user` per user: each rabbitmqctl call starts an Erlang VM (about a second).
 */
export async function deleteBrokerUsers(prefix: string): Promise<void> {
  await (await testEnvironment()).brokerCtl(deleteUsersCommand([prefix]));
  usersLeftAtExit.delete(prefix);
}

function deleteUsersCommand(prefixes: readonly string[]): string[] {
  const users = prefixes.flatMap((prefix) => BROKER_PRINCIPALS.map((principal) => `<<"${brokerUser(prefix, principal)}">>`)).join(',');
  return ['eval', `[rabbit_auth_backend_internal:delete_user(U, <<"testkit">>) || U <- [${users}]].`];
}

/**
 * Every message the broker handles while it runs, whatever the exchange or
 * queue (RabbitMQ's firehose tracer): what was published and what was
 * delivered, commands and replies included. For asserting that something
 * never crossed the broker.
 */
export class BrokerTrace {
  readonly bodies: string[] = [];

  private constructor(private readonly connection: ChannelModel) {}

  static async start(): Promise<BrokerTrace> {
    const env = await testEnvironment();
    await env.brokerCtl(['trace_on']);
    const connection = await connect(env.amqpUrls[0] as string);
    connection.on('error', () => undefined);
    const trace = new BrokerTrace(connection);
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    await channel.bindQueue(queue, 'amq.rabbitmq.trace', '#');
    await channel.consume(queue, (msg) => msg && trace.bodies.push(msg.content.toString('utf8')), { noAck: true });
    return trace;
  }

  async stop(): Promise<void> {
    const env = await testEnvironment();
    await env.brokerCtl(['trace_off']);
    await this.connection.close();
  }
}

/** Publishes on a confirm channel logged in at `url` as broker user `userId`, which `publish` stamps on its messages; rejects if the broker refuses one. */
export async function publishConfirmed(url: string, userId: string, publish: (channel: ConfirmChannel, userId: string) => Promise<void>): Promise<void> {
  const connection = await connect(url);
  try {
    const channel = await connection.createConfirmChannel();
    // A publish the broker refuses closes the channel: that is the answer.
    const refused = new Promise<never>((_resolve, reject) => channel.once('error', reject));
    refused.catch(() => undefined);
    await publish(channel, userId);
    await Promise.race([channel.waitForConfirms(), refused]);
  } finally {
    await connection.close();
  }
}

/** Messages ready and unacknowledged in every queue under `prefix` (rabbitmqctl list_queues on this host), by queue name. */
export async function queueCounts(prefix: string): Promise<Map<string, { ready: number; unacked: number }>> {
  const env = await testEnvironment();
  if (env.kind !== 'local') throw new Error('queueCounts reads rabbitmqctl on this host: only with local servers');
  const { stdout: out } = await promisify(execFile)('rabbitmqctl', ['list_queues', '-q', '--no-table-headers', 'name', 'messages_ready', 'messages_unacknowledged'], { timeout: 60_000 });
  const counts = new Map<string, { ready: number; unacked: number }>();
  for (const line of out.split('\n')) {
    const [queue, ready, unacked] = line.trim().split(/\s+/);
    if (queue?.startsWith(prefix)) counts.set(queue, { ready: Number(ready), unacked: Number(unacked) });
  }
  return counts;
}
