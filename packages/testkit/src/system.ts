/**
 * A whole running system for end-to-end tests: its own database and broker
 * prefix, and each service on its own port, as a real child process started
 * from the same build that production runs, or (option `launch`, or
 * TEST_SERVICES=in-process) in the test's own process. Either way the system is
 * @gateway/system's description, wired and started by its launcher. Logs go to
 * files, so tests can search them (for secrets that must never appear, say).
 */
import { join } from 'node:path';
import type { ConfirmChannel } from 'amqplib';
import { commandSenders, eventPublishers, eventRoutingKey, isCommandType, isEventType, SCHEMA_OWNERS, type BrokerPrincipal, type CommandType, type Envelope, type SchemaOwner, type ServiceName } from '@gateway/contracts';
import { Broker, brokerUser, namesFor, OperatorSigner, RpcClient, type Actor, type JWK } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import { runAdmin } from '@gateway/gateway-admin';
import { freePort, freshKeys, Launcher, releasePorts, replicaName, SERVICE_NAMES, type LaunchMode, type RunningProcess, type ServiceId } from '@gateway/system';
import { deleteBrokerObjects, EventCapture, newBrokerPrefix, publishConfirmed, queueCounts, type BrokerUrls } from './broker.js';
import { createTestDatabase, repoRoot, type TestDatabase } from './database.js';
import { testEnvironment } from './environment.js';
import { ApiClient } from './http.js';
import { MailCatcher } from './mail-catcher.js';
import { pollUntil } from './observe.js';
import { LIVE_TERMINAL, SANDBOX_TERMINAL, testSystemSettings } from './system-settings.js';

export { LIVE_TERMINAL, SANDBOX_TERMINAL } from './system-settings.js';
export { newSecretsKek, SECRET_KEEPERS } from '@gateway/system';

/** A service of the system (@gateway/system's description). */
export type ServiceProcess = ServiceId;

/** Every service, as `make up` runs them. */
export const ALL_SERVICES: readonly ServiceProcess[] = SERVICE_NAMES;

interface SystemOptions {
  services?: readonly ServiceProcess[];
  /** Extra environment for every service. */
  env?: Record<string, string>;
  /** Extra environment per service. */
  serviceEnv?: Partial<Record<ServiceProcess, Record<string, string>>>;
  /**
   * How many processes of a service to run (1 when not given): the first is
   * named after the service, the others `<service>-2`, `<service>-3`..., each
   * its own process and port, on the same database and broker prefix.
   */
  replicas?: Partial<Record<ServiceProcess, number>>;
  /** How long a process may take to become ready (60 s when not given: eight processes starting at once on a shared two-core machine take tens of seconds). */
  readyTimeoutMs?: number;
  /**
   * How the services run: each a child process (`child-process`), or all in
   * this test's process (`in-process`: faster to start, but no SIGKILL, one
   * metrics registry for all, no tracing; @gateway/system's README). When not
   * given, TEST_SERVICES says (`in-process` or `child-process`), else in-process:
   * a test that needs what only a child process can do asks for it.
   */
  launch?: LaunchMode;
}

/** How the services of a system started with `options` run. */
function launchMode(options: SystemOptions): LaunchMode {
  const asked = options.launch ?? process.env['TEST_SERVICES'];
  if (asked === undefined || asked === '' || asked === 'in-process') return 'in-process';
  if (asked === 'child-process') return 'child-process';
  throw new Error(`TEST_SERVICES must be in-process or child-process, not ${asked}`);
}

/** The process names of `count` replicas of `service`: the service's own name, then `<service>-2`... */
function replicaNames(service: ServiceProcess, count: number): string[] {
  return Array.from({ length: Math.max(1, count) }, (_, i) => replicaName(service, i));
}

/** The sandbox's answer about one order (ACQUIRER.md); amounts in millimes. */
export interface SandboxOrder {
  errorCode: string;
  orderStatus?: number;
  paymentAmountInfo?: { approvedAmount?: number; depositedAmount?: number; refundedAmount?: number; paymentState?: string };
}

export interface Merchant {
  merchantId: string;
  testKey: string;
  webhookSecret: string;
}

/** The operator identity system.admin() and system.send() sign as. */
export const TEST_OPERATOR = 'test-operator';

export class TestSystem {
  readonly ports = new Map<ServiceProcess, number>();
  /** Extra environment each process name was last started with, so that it restarts alike. */
  private readonly extraEnvs = new Map<string, Record<string, string>>();
  /** One broker connection and RPC client per principal the tests send as. */
  private readonly clients = new Map<BrokerPrincipal, Promise<{ broker: Broker; rpc: RpcClient }>>();
  private merchantCount = 0;

  private constructor(
    readonly db: TestDatabase,
    readonly prefix: string,
    readonly logDir: string,
    /** The environment every service of this system gets. */
    readonly env: Record<string, string>,
    private readonly options: SystemOptions,
    /** The settings each service gets of its own: its wired settings (keys, neighbours' addresses, broker user) and the tests' shorter timeouts. */
    private readonly perService: Record<ServiceProcess, Record<string, string>>,
    /** The private JWK system.admin() and system.send() sign with; a gateway-admin process takes it as OPERATOR_KEY. */
    readonly operatorKey: string,
    /** Each service's broker URL as its own user, and the operators' (gateway-admin). */
    readonly brokerUrls: BrokerUrls,
    private readonly launcher: Launcher,
    /** The mail server the system's notifier sends to: every mail it sent, as received. */
    readonly mail: MailCatcher,
  ) {}

  /** Creates the database, then starts every requested service and waits until each is ready. */
  static async start(options: SystemOptions = {}): Promise<TestSystem> {
    const env = await testEnvironment();
    const services = options.services ?? ALL_SERVICES;
    const [db, { prefix, urls: brokerUrls }] = await Promise.all([createTestDatabase(services.filter((service): service is SchemaOwner => (SCHEMA_OWNERS as readonly string[]).includes(service))), newBrokerPrefix()]);
    const logDir = join(repoRoot, '.local', 'test-logs', prefix);
    const ports: Record<string, number> = {};
    for (const service of ALL_SERVICES) ports[service] = await freePort();
    // The dashboard signs its users' operator commands with a key of its own, which every service trusts beside the operators'.
    const keys = freshKeys({ operator: `${prefix}-operator`, dashboard: `${prefix}-dashboard` });
    // Every mail the system sends (D20) lands here, over real SMTP: system.mail.
    const mail = await MailCatcher.start({ port: await freePort() });
    const { perService, baseEnv } = testSystemSettings({ keys, ports, db, prefix, brokerUrls, redisUrl: env.redisUrl, smtpUrl: mail.url }, options.env);
    const launcher = new Launcher({ logDir, mode: launchMode(options), ...(options.readyTimeoutMs !== undefined && { readyTimeoutMs: options.readyTimeoutMs }) });
    const system = new TestSystem(db, prefix, logDir, baseEnv, options, perService, keys.operator.privateJwk, brokerUrls, launcher, mail);
    for (const service of ALL_SERVICES) system.ports.set(service, ports[service] ?? 0);
    await Promise.all(services.map((service) => system.startService(service)));
    // The further replicas once the first of each is up: a dozen processes compiling at once on two cores start slowly.
    await Promise.all(services.flatMap((service) => replicaNames(service, options.replicas?.[service] ?? 1).slice(1).map((name) => system.startService(service, name))));
    return system;
  }

  /** How this system's services run: child processes, or in this process. */
  get launch(): LaunchMode {
    return this.launcher.mode;
  }

  /** The running processes, by name (a replica's own, say `session-2`). */
  get processes(): ReadonlyMap<string, RunningProcess> {
    return this.launcher.running;
  }

  /** The names of the running processes of `service` (its replicas), first one first. */
  replicasOf(service: ServiceProcess): string[] {
    return [...this.processes.values()].filter((running) => running.service === service).map((running) => running.name);
  }

  /** The port of process `name` (a replica's own, say `session-2`). */
  portOf(name: string): number {
    const port = this.processes.get(name)?.port ?? this.launcher.launchOf(name)?.port;
    if (port === undefined) throw new Error(`no process ${name} in this system`);
    return port;
  }

  /** Kills process `name` at once (SIGKILL: no graceful stop, nothing flushed) and waits until it is gone. Child processes only. */
  async killService(name: string): Promise<void> {
    await this.stopService(name, 'SIGKILL');
  }

  /** Starts process `name` again, as it was last started: same service, port and extra environment. */
  async restartService(name: string): Promise<number> {
    const launch = this.launcher.launchOf(name);
    if (!launch) throw new Error(`no process ${name} was started in this system`);
    if (this.processes.has(name)) throw new Error(`${name} is still running`);
    return (await this.launcher.restart(name)).port;
  }

  /** The sandbox acquirer of this system, and the terminal it knows test mode by. */
  get sandboxUrl(): string {
    return `http://127.0.0.1:${this.ports.get('epg-sandbox') ?? 0}`;
  }

  readonly sandboxTerminal = SANDBOX_TERMINAL;

  /** One call to the sandbox acquirer's REST API as `terminal` (test mode's by default), as the adapter makes it. */
  async sandboxCall(call: string, fields: Record<string, string>, terminal: { user: string; password: string } = SANDBOX_TERMINAL): Promise<Record<string, unknown>> {
    const response = await fetch(`${this.sandboxUrl}/payment/rest/${call}`, {
      method: 'POST',
      body: new URLSearchParams({ userName: terminal.user, password: terminal.password, ...fields }),
    });
    return (await response.json()) as Record<string, unknown>;
  }

  /** What the sandbox acquirer knows of an order (getOrderStatusExtended.do by orderNumber), its error code as a string whichever way the answer writes it. */
  async sandboxOrder(orderNumber: string, terminal?: { user: string; password: string }): Promise<SandboxOrder> {
    const order = await this.sandboxCall('getOrderStatusExtended.do', { orderNumber }, terminal);
    return { ...order, errorCode: String(order['errorCode']) } as unknown as SandboxOrder;
  }

  /** The Prometheus text `service` serves at /metrics. */
  async metricsOf(service: ServiceProcess): Promise<string> {
    const res = await fetch(`http://127.0.0.1:${this.ports.get(service) ?? 0}/metrics`);
    if (res.status !== 200) throw new Error(`${service} /metrics answered ${res.status}`);
    return res.text();
  }

  /** The settings service `service` was given of its own (its keys, its neighbours' addresses). */
  envOf(service: ServiceProcess): Readonly<Record<string, string>> {
    return this.perService[service] ?? {};
  }

  /** The SQL dump of this system's database, every schema, data included. */
  async dumpDatabase(): Promise<string> {
    return (await testEnvironment()).dumpDatabase(this.db.name);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.ports.get('api-gateway') ?? 0}`;
  }

  get apiUrl(): string {
    return `${this.baseUrl}/api/v1`;
  }

  /** The merchant dashboard (D14), through the gateway as merchants reach it. */
  get dashboardUrl(): string {
    return `${this.baseUrl}/dashboard/`;
  }

  /** The operations console (D15), through the gateway. */
  get opsUrl(): string {
    return `${this.baseUrl}/ops/`;
  }

  /** A client of the public API with `key`. */
  api(key?: string): ApiClient {
    return new ApiClient(this.apiUrl, key);
  }

  /**
   * Starts (or restarts) one service and waits for /readyz (or only /healthz).
   * A process named after its service keeps the service's port; another name
   * gets a free port, or `options.port`.
   */
  async startService(service: ServiceProcess, name: string = service, extraEnv: Record<string, string> = {}, options: { waitReady?: boolean; port?: number } = {}): Promise<number> {
    const port = name === service && this.ports.has(service) ? (this.ports.get(service) ?? 0) : (options.port ?? (await freePort()));
    if (name === service) this.ports.set(service, port);
    this.extraEnvs.set(name, extraEnv);
    const env = { ...this.env, ...this.perService[service], ...this.options.serviceEnv?.[service], ...extraEnv };
    // A service started with a broken dependency on purpose answers /healthz but never /readyz.
    const started = await this.launcher.start({ name, service, port, env, waitFor: options.waitReady === false ? '/healthz' : '/readyz' });
    return started.port;
  }

  /** Sends SIGTERM (or `signal`; SIGKILL: child processes only) and waits for the process to exit; returns its exit code. */
  async stopService(name: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    return this.launcher.stop(name, signal);
  }

  /** Sends `signal` and waits for the process to exit; its exit code and how long the exit took. */
  async stopServiceTimed(name: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; ms: number }> {
    const started = Date.now();
    const code = await this.stopService(name, signal);
    return { code, ms: Date.now() - started };
  }

  /** Waits until `queue` has nothing ready and nothing unacknowledged (rabbitmqctl); throws after `timeoutMs`. */
  async waitForQueueDrained(queue: string, timeoutMs = 10_000): Promise<void> {
    await pollUntil(
      async () => {
        const counts = (await this.queueCounts()).get(queue);
        return counts?.ready === 0 && counts.unacked === 0;
      },
      timeoutMs,
      `${queue} empty, nothing unacknowledged`,
      250,
    );
  }

  /** Messages ready and unacknowledged in every queue of this system (rabbitmqctl list_queues), by queue name. */
  queueCounts(): Promise<Map<string, { ready: number; unacked: number }>> {
    return queueCounts(this.prefix);
  }

  /** Sends one command over the broker, as gateway-admin does (an operator command signed with this system's operator key). */
  async send<T = Record<string, unknown>>(type: CommandType, data: unknown): Promise<T> {
    // As a principal that may send it (D17): an API command as the gateway, a payment as the session...
    const rpc = await this.rpcClient(commandSenders[type][0]);
    return (await rpc.call(type, data as never)).body as T;
  }

  /** Runs a gateway-admin command in-process (same code as the CLI) and returns its JSON. */
  async admin(argv: readonly string[]): Promise<Record<string, unknown>> {
    const rpc = await this.rpcClient('gateway-admin');
    return runAdmin(argv, async (type, data) => (await rpc.call(type, data)).body);
  }

  /** A dashboard user of the merchant with `role`, made as an operator makes one, with a fresh email (answered). */
  async dashboardUser(merchantId: string, role: 'owner' | 'developer' | 'viewer', password: string): Promise<string> {
    const email = `${role}.${Math.random().toString(36).slice(2, 12)}@shop.example`;
    await this.admin(['user', 'create', merchantId, '--email', email, '--role', role, '--password', password]);
    return email;
  }

  /** A fresh merchant (with its test key) for one test, so tests never share data. */
  async newMerchant(options: { limits?: { account?: number; create?: number; refund?: number }; webhookUrl?: string } = {}): Promise<Merchant> {
    this.merchantCount += 1;
    const argv = ['merchant', 'create', '--name', `Test Shop ${this.merchantCount}`];
    if (options.webhookUrl) argv.push('--webhook-url', options.webhookUrl);
    const created = (await this.admin(argv)) as { merchant_id: string; test_secret_key: string; test_webhook_secret: string };
    if (options.limits) {
      const limitArgs = ['limits', 'set', created.merchant_id, '--mode', 'test'];
      if (options.limits.account) limitArgs.push('--account', String(options.limits.account));
      if (options.limits.create) limitArgs.push('--create', String(options.limits.create));
      if (options.limits.refund) limitArgs.push('--refund', String(options.limits.refund));
      await this.admin(limitArgs);
    }
    return { merchantId: created.merchant_id, testKey: created.test_secret_key, webhookSecret: created.test_webhook_secret };
  }

  /** Approves the merchant for live mode; its live secret key. With `terminal`, also gives it a working live terminal. */
  async approveLive(merchantId: string, options: { terminal?: boolean } = {}): Promise<string> {
    const approved = (await this.admin(['merchant', 'approve-kyb', merchantId])) as { live_secret_key: string };
    if (options.terminal) await this.admin(['terminal', 'set', merchantId, '--mode', 'live', '--user', LIVE_TERMINAL.user, '--password', LIVE_TERMINAL.password]);
    return approved.live_secret_key;
  }

  /**
   * Publishes events on this system's exchange, persistent, with publisher
   * confirms, each as the service that publishes its type: what that service's
   * outbox relay does after its commit.
   */
  async publishEvents(events: readonly Envelope[]): Promise<void> {
    const byPublisher = new Map<BrokerPrincipal, Envelope[]>();
    for (const event of events) {
      const publisher = isEventType(event.type) ? eventPublishers[event.type][0] : 'session';
      byPublisher.set(publisher, [...(byPublisher.get(publisher) ?? []), event]);
    }
    for (const [publisher, own] of byPublisher) {
      await this.publishConfirmedAs(publisher, async (channel, userId) => {
        for (const event of own) {
          // Under the routing key its publisher's relay would give it.
          channel.publish(namesFor(this.prefix).events, eventRoutingKey(event), Buffer.from(JSON.stringify(event)), { persistent: true, messageId: event.id, type: event.type, contentType: 'application/json', userId });
        }
      });
    }
  }

  /**
   * Puts the command `envelope` on `service`'s queue (of its lane) `times` times, as a
   * service that may send it and with no one waiting for the reply: what the
   * broker does when the replica handling it dies before acking, and another
   * takes it again. Raw: nothing signs it.
   */
  async deliverCommand(service: ServiceName, envelope: Envelope, times: number): Promise<void> {
    const sender = isCommandType(envelope.type) ? commandSenders[envelope.type][0] : 'api-gateway';
    await this.publishConfirmedAs(sender, async (channel, userId) => {
      for (let i = 0; i < times; i += 1) {
        const queue = isCommandType(envelope.type) ? namesFor(this.prefix).commandQueueOf(envelope.type) : namesFor(this.prefix).commandQueue(service);
        channel.publish('', queue, Buffer.from(JSON.stringify(envelope)), { type: envelope.type, contentType: 'application/json', userId });
      }
    });
  }

  /** Publishes on a confirm channel logged in as `principal`'s broker user, whose name `publish` stamps as the user_id. */
  publishConfirmedAs(principal: BrokerPrincipal, publish: (channel: ConfirmChannel, userId: string) => Promise<void>): Promise<void> {
    return publishConfirmed(this.brokerUrls[principal], brokerUser(this.prefix, principal), publish);
  }

  /** Captures events published by this system. */
  captureEvents(patterns: readonly string[] = ['#']): Promise<EventCapture> {
    return EventCapture.start(this.prefix, patterns);
  }

  /** An RPC client logged in as `principal`'s broker user; gateway-admin's signs operator commands with the system's operator key. */
  private async rpcClient(principal: BrokerPrincipal): Promise<RpcClient> {
    let client = this.clients.get(principal);
    if (!client) {
      client = (async () => {
        const broker = new Broker({ url: this.brokerUrls[principal], prefix: this.prefix, log: createLogger({ service: 'test', level: 'silent' }) });
        await broker.start();
        const signer = principal === 'gateway-admin' ? await OperatorSigner.fromJwk(JSON.parse(this.operatorKey) as JWK, TEST_OPERATOR) : undefined;
        return { broker, rpc: await broker.register(new RpcClient(broker, 5_000, signer)) };
      })();
      this.clients.set(principal, client);
    }
    return (await client).rpc;
  }

  /** Stops every process, then removes the database and the broker objects. */
  async shutdown(): Promise<void> {
    await this.launcher.stopAll();
    await this.mail.stop();
    await Promise.all([...this.clients.values()].map(async (client) => (await client).broker.stop()));
    // Its broker users go when this process exits, with the others it made (newBrokerPrefix).
    await Promise.all([this.db.drop(), deleteBrokerObjects(this.prefix)]);
    releasePorts(new Set([...this.ports.values(), this.mail.port, ...[...this.extraEnvs.keys()].map((name) => this.launcher.launchOf(name)?.port ?? 0)]));
  }

  /**
   * Sends an operator command signed with this system's operator key for
   * `actor`, as the dashboard signs for its users (D14, D15); a user's command
   * is held to their merchant. Resolves with the reply's body, rejects with its problem.
   */
  async sendFor<T = Record<string, unknown>>(actor: Actor, type: CommandType, data: unknown): Promise<T> {
    const rpc = await this.rpcClient('gateway-admin');
    return (await rpc.call(type, data as never, { actor })).body as T;
  }
}
