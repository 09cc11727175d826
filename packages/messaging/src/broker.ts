/**
 * One AMQP connection per process that comes back by itself. Components
 * (RPC client, command server, consumers, outbox relay) attach their channels
 * on every (re)connect and drop them when the connection goes.
 */
import { connect, type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage } from 'amqplib';
import { backoffDelay } from '@gateway/backoff';
import type { Logger } from '@gateway/observability';
import type { BrokerPrincipal, ServiceName } from '@gateway/contracts';
import { assertTopology, brokerUser, ensureExchanges, namesFor, principalOf, type Names } from './topology.js';

export interface BrokerComponent {
  /** Opens channels and consumers on a fresh connection. */
  attach(connection: ChannelModel): Promise<void>;
  /** The connection is gone: forget its channels and fail what waited on them. */
  detach(): void;
  /** Stops taking new work and waits for what is in flight (graceful stop). */
  drain?(): Promise<void>;
}

interface BrokerOptions {
  /** One broker URL, or the nodes of a cluster comma-separated (AMQP_URL, D23), all with the same user. */
  url: string;
  prefix: string;
  /** The service whose queues this connection declares; none for a client such as the operator CLI. */
  service?: ServiceName;
  /**
   * The service logs in as a user every service shares, not its own: it cannot
   * tell senders apart and checks none. Without this, a service on any user but
   * its own (`<prefix>.<service>`) refuses to start, so a misnamed user or an
   * administrator's URL in one Secret cannot switch the checks off unnoticed.
   */
  sharedUser?: boolean;
  log: Logger;
  /** First and longest wait between reconnect attempts. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
}

/** How long one node may take to accept a connection before the next is tried. */
const CONNECT_TIMEOUT_MS = 3_000;

/**
 * The heartbeat asked for when the URL names none, in seconds. A node that
 * vanishes without closing its connections (its machine gone, a partition) is
 * noticed after two silent heartbeats: 10 s, not the 2 minutes of the broker's
 * default 60 s, so a service moves to another node within D23's bound.
 */
const HEARTBEAT_SECONDS = 5;

function withHeartbeat(url: string): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('heartbeat')) parsed.searchParams.set('heartbeat', String(HEARTBEAT_SECONDS));
  return parsed.toString();
}

export class Broker {
  readonly names: Names;
  /**
   * The broker user this connection logs in as. Every message published here
   * carries it as its user_id, which RabbitMQ refuses unless it is the login's,
   * so a receiver knows who sent it.
   */
  readonly user: string;
  /**
   * Whether this connection knows who sends what: it logs in as its service's
   * own broker user (D17). A system run with one shared user (a local run
   * where users cannot be created) has no sender identities to check.
   */
  readonly checksSenders: boolean;
  /** The cluster's nodes, as AMQP_URL lists them; a connection is made to one at a time. */
  private readonly urls: readonly string[];
  /** The node tried first on the next connect: the one connected to, or the one after a lost one. */
  private node = 0;
  private connection: ChannelModel | undefined;
  /** Whether every component is attached to `connection`. */
  private attached = false;
  private readonly components: BrokerComponent[] = [];
  private stopping = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly connectedWaiters: (() => void)[] = [];

  constructor(private readonly options: BrokerOptions) {
    this.names = namesFor(options.prefix);
    this.urls = options.url.split(',').map((url) => url.trim()).filter((url) => url !== '');
    // amqplib logs in as guest when the URL names no user.
    const users = new Set(this.urls.map((url) => decodeURIComponent(new URL(url).username) || 'guest'));
    if (users.size !== 1) throw new Error('every broker URL must name the same user');
    this.user = [...users][0] as string;
    this.checksSenders = options.service !== undefined && this.user === brokerUser(options.prefix, options.service);
    if (options.service && !this.checksSenders) {
      if (!options.sharedUser) {
        throw new Error(`${options.service} must log in to the broker as ${brokerUser(options.prefix, options.service)}, not ${this.user}; set BROKER_SHARED_USER=true to run every service under one user, with no sender checks`);
      }
      options.log.warn({ user: this.user }, 'connected with a broker user shared by every service: who sent a command or an event is not checked');
    }
  }

  /**
   * The principal that published `msg`, by the user_id RabbitMQ checked; undefined
   * when it carries none or another system's. Not meaningful where `checksSenders` is false.
   */
  senderOf(msg: ConsumeMessage): BrokerPrincipal | undefined {
    return principalOf(this.options.prefix, msg.properties.userId as string | undefined);
  }

  /** Whether `msg` comes from one of `allowed` (always, when this connection cannot tell senders apart). */
  accepts(msg: ConsumeMessage, allowed: readonly BrokerPrincipal[]): boolean {
    if (!this.checksSenders) return true;
    const sender = this.senderOf(msg);
    return sender !== undefined && allowed.includes(sender);
  }

  get log(): Logger {
    return this.options.log;
  }

  get prefix(): string {
    return this.options.prefix;
  }

  /** The service this connection is of; undefined for a client such as the operator CLI. */
  get service(): ServiceName | undefined {
    return this.options.service;
  }

  /** Connected with every component attached: a call made now has its channel (readiness, and whoever waits for a reconnect, see that). */
  get connected(): boolean {
    return this.connection !== undefined && this.attached;
  }

  /**
   * A channel on `connection`. The server closes a channel on a protocol error
   * (an unknown delivery tag, a queue declared with other arguments) and amqplib
   * then emits 'error', which would end the process if nobody listened. Here it
   * is logged and the whole connection closed, so that every component is
   * attached again, cleanly, on the reconnect.
   */
  async createChannel(connection: ChannelModel): Promise<Channel> {
    return this.guard(connection, await connection.createChannel());
  }

  /** As createChannel, with publisher confirms. */
  async createConfirmChannel(connection: ChannelModel): Promise<ConfirmChannel> {
    return this.guard(connection, await connection.createConfirmChannel());
  }

  private guard<C extends Channel>(connection: ChannelModel, channel: C): C {
    channel.on('error', (err: Error) => {
      this.options.log.error({ err: err.message }, 'broker closed a channel; reconnecting');
      void connection.close().catch(() => undefined);
    });
    return channel;
  }

  /** Adds a component; attached at once when connected, and on every reconnect. */
  async register<T extends BrokerComponent>(component: T): Promise<T> {
    this.components.push(component);
    if (this.connection) await component.attach(this.connection);
    return component;
  }

  /** Connects, retrying with backoff until it succeeds or `stop` is called. */
  async start(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.connectedWaiters.push(resolve);
      void this.connectOnce();
    });
  }

  /** Resolves when connected (at once if already), or after `timeoutMs` with false. */
  async waitForConnection(timeoutMs: number): Promise<boolean> {
    if (this.connected) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.connectedWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /**
   * Drops the connection, so that every component is attached again on a new
   * one, with the topology declared again first: for a subscription the
   * broker ended (its queue's node was lost, D23), which a new channel alone
   * would not bring back, as the queue it names may be gone with the node.
   */
  reconnect(reason: string): void {
    const connection = this.connection;
    if (!connection || this.stopping) return;
    this.options.log.warn({ reason }, 'reconnecting to the broker');
    // Not connected from now: the close comes later, and nothing should take this connection for a live one meanwhile.
    this.attached = false;
    void connection.close().catch(() => undefined);
  }

  /** A connection to the first node that answers, from `this.node` on, each tried once; undefined when none does. */
  private async connectToNode(): Promise<ChannelModel | undefined> {
    for (let tried = 0; tried < this.urls.length; tried += 1) {
      const index = (this.node + tried) % this.urls.length;
      const url = this.urls[index] as string;
      try {
        const connection = await connect(withHeartbeat(url), { noDelay: true, timeout: CONNECT_TIMEOUT_MS, clientProperties: { connection_name: this.options.service ?? 'client' } });
        this.node = index;
        return connection;
      } catch (err) {
        this.options.log.warn({ err: (err as Error).message, node: new URL(url).host }, 'broker node did not answer');
      }
    }
    return undefined;
  }

  private async connectOnce(): Promise<void> {
    if (this.stopping) return;
    let connection: ChannelModel | undefined;
    try {
      connection = await this.connectToNode();
      if (!connection) throw new Error(this.urls.length > 1 ? 'no broker node answered' : 'the broker did not answer');
      coalesceWrites(connection);
      connection.on('error', (err: Error) => this.options.log.warn({ err: err.message }, 'broker connection error'));
      connection.on('blocked', (reason: string) => this.options.log.warn({ reason }, 'broker blocked publishing'));
      connection.on('close', () => this.onClose(connection));
      // Whatever attaches (a relay, a consumer's bindings) finds the exchanges there.
      await ensureExchanges(connection, this.options.prefix);
      if (this.options.service) {
        const setup = await this.createChannel(connection);
        const { retiredEvents } = await assertTopology(setup, this.options.prefix, this.options.service);
        if (retiredEvents > 0) this.options.log.info({ events: retiredEvents }, 'deleted the event queue an earlier version left: this service subscribes to no event');
        await setup.close();
      }
      this.connection = connection;
      for (const component of this.components) await component.attach(connection);
      this.attached = true;
      this.attempt = 0;
      this.options.log.info({ node: new URL(this.urls[this.node] as string).host }, 'broker connected');
      for (const resolve of this.connectedWaiters.splice(0)) resolve();
    } catch (err) {
      this.options.log.warn({ err: (err as Error).message }, 'broker connect failed');
      this.connection = undefined;
      this.attached = false;
      if (connection) {
        connection.removeAllListeners('close');
        await connection.close().catch(() => undefined);
      }
      this.scheduleReconnect();
    }
  }

  private onClose(connection: ChannelModel | undefined): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.attached = false;
    for (const component of this.components) component.detach();
    if (this.stopping) return;
    // Its node may be the one lost: the next connect tries another first.
    this.node = (this.node + 1) % this.urls.length;
    this.options.log.warn('broker connection lost; reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopping || this.reconnectTimer) return;
    // Jittered, so that replicas which lost the broker together do not all knock at once.
    const policy = { first: this.options.reconnectMinMs ?? 100, max: this.options.reconnectMaxMs ?? 5_000, jitter: 0.2 };
    const delay = backoffDelay(policy, this.attempt);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connectOnce();
    }, delay);
  }

  /** Drains every component, then closes the connection. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.reconnectTimer);
    for (const component of [...this.components].reverse()) await component.drain?.();
    const connection = this.connection;
    this.connection = undefined;
    this.attached = false;
    for (const component of this.components) component.detach();
    if (connection) {
      connection.removeAllListeners('close');
      await connection.close().catch(() => undefined);
    }
    for (const resolve of this.connectedWaiters.splice(0)) resolve();
  }
}

/**
 * amqplib's multiplexer writes every frame (ack, method, header, body) to the
 * socket on its own; with TCP_NODELAY each is a system call and a packet. Corking
 * the socket while one pass of the multiplexer drains its channels sends them
 * as one write. Measured on the session create path: see BENCHMARKS.md.
 */
function coalesceWrites(connection: ChannelModel): void {
  const inner = (connection as unknown as { connection?: { stream?: NodeJS.WritableStream & { cork?: () => void; uncork?: () => void }; muxer?: { _readIncoming?: () => void } } })
    .connection;
  const stream = inner?.stream;
  const muxer = inner?.muxer;
  const drain = muxer?._readIncoming;
  if (!stream?.cork || !stream.uncork || !muxer || typeof drain !== 'function') return;
  muxer._readIncoming = function corked(this: unknown) {
    stream.cork?.();
    try {
      drain.call(this);
    } finally {
      stream.uncork?.();
    }
  };
}
