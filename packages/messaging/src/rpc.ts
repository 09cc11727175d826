/**
 * Request/reply over the broker, the caller's end: it publishes a command to
 * the owning service's queue with a deadline and waits on RabbitMQ's direct
 * reply-to; the service runs the handler and answers (command-server.ts).
 * Competing consumers on the command queue are how replicas share the work.
 */
import { randomUUID } from 'node:crypto';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { checkCommandReply, checkCommandRequest, isOperatorCommand, newId, type CommandReply, type CommandRequest, type CommandType, type Envelope } from '@gateway/contracts';
import { transientFailure } from '@gateway/db';
import { AppError, retryAfterOf, temporarilyUnavailable } from '@gateway/problem';
import { currentCorrelationId, secondsSince } from '@gateway/observability';
import type { Broker, BrokerComponent } from './broker.js';
import { problemOutcome, rpcClientDuration } from './metrics.js';
import { OPERATOR_SIGNATURE_HEADER, type Actor, type OperatorSigner } from './operator-signature.js';
import { DEADLINE_HEADER, REPLY_TO, type Reply } from './rpc-wire.js';
import { traceCommandCall, withTraceHeaders } from './trace-context.js';

export interface CallOptions {
  timeoutMs?: number;
  correlationId?: string;
  /** The person an operator command is signed for (the dashboard's and console's users, D14, D15). */
  actor?: Actor;
}

interface RpcResult<C extends CommandType> {
  status: number;
  body: CommandReply<C>;
}

/** The command was not answered within its deadline. */
export class RpcTimeoutError extends Error {
  constructor(readonly type: string, readonly timeoutMs: number) {
    super(`${type} was not answered within ${timeoutMs} ms`);
    this.name = 'RpcTimeoutError';
  }
}

/**
 * The connection a call was made on was lost, or was closing as it was sent,
 * before its answer came (its broker node went, D23). As unanswered as a
 * timeout, and handled as one: the command may or may not have run.
 */
export class RpcConnectionLostError extends RpcTimeoutError {
  constructor(type: string) {
    super(type, 0);
    this.message = `broker connection lost during ${type}`;
    this.name = 'RpcConnectionLostError';
  }
}

/** No queue exists for the command: its service was never started against this broker and prefix. */
export class UnroutableCommandError extends Error {
  constructor(readonly type: string, readonly queue: string) {
    super(`${type} cannot be delivered: no queue ${queue} on this broker`);
    this.name = 'UnroutableCommandError';
  }
}

/**
 * The retryable 500 (D23: with Retry-After) that `err` is or becomes when it
 * says a dependency is out, not that the work is wrong: such a 500 answered by
 * the service behind, the broker or that service not answering in time, a
 * command finding no queue (its broker node was lost and the queue is not
 * declared again yet), or the database unable to do the work now
 * (transientFailure: away, switching over, read-only). Undefined otherwise.
 */
export function outageOf(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err.code === 'internal-error' && retryAfterOf(err) !== undefined ? err : undefined;
  return err instanceof RpcTimeoutError || err instanceof UnroutableCommandError || transientFailure(err) ? temporarilyUnavailable() : undefined;
}

interface Pending {
  type: CommandType;
  resolve: (reply: Reply) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class RpcClient implements BrokerComponent {
  private channel: Channel | undefined;
  private readonly pending = new Map<string, Pending>();
  private channelWaiters: (() => void)[] = [];

  constructor(
    private readonly broker: Broker,
    private readonly defaultTimeoutMs: number,
    /** gateway-admin's (and tests'): signs every operator command this client sends (D17). */
    private readonly operatorSigner?: OperatorSigner,
  ) {}

  async attach(connection: ChannelModel): Promise<void> {
    const channel = await this.broker.createChannel(connection);
    await channel.consume(REPLY_TO, (msg) => msg && this.onReply(msg), { noAck: true });
    // A command published `mandatory` that no queue takes comes back at once.
    channel.on('return', (msg: ConsumeMessage) => this.onUnroutable(msg));
    this.channel = channel;
    for (const wake of this.channelWaiters.splice(0)) wake();
  }

  /**
   * The reply channel, waiting up to `timeoutMs` for it: while the broker
   * connects, or between the connection and this client's own attach (a
   * process that has just started), a call waits instead of failing at once.
   */
  private async channelWithin(timeoutMs: number): Promise<Channel | undefined> {
    if (this.channel) return this.channel;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.channelWaiters = this.channelWaiters.filter((w) => w !== wake);
        resolve();
      }, timeoutMs);
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      this.channelWaiters.push(wake);
    });
    return this.channel;
  }

  detach(): void {
    this.channel = undefined;
    // Replies to calls made on the lost channel can never arrive.
    for (const [id, call] of this.pending) {
      clearTimeout(call.timer);
      call.reject(new RpcConnectionLostError(call.type));
      this.pending.delete(id);
    }
  }

  /**
   * Sends command `type` and resolves with its reply. A problem reply rejects
   * with the AppError it carries; no reply within the deadline rejects with
   * RpcTimeoutError.
   */
  async call<C extends CommandType>(type: C, data: CommandRequest<C>, options: CallOptions = {}): Promise<RpcResult<C>> {
    const start = process.hrtime.bigint();
    let outcome = 'error';
    try {
      // Sent on from the work under way (the request, command or event that led here).
      const correlationId = options.correlationId ?? currentCorrelationId() ?? randomUUID();
      const reply = await traceCommandCall(type, () => this.broker.names.commandQueueOf(type), correlationId, () => this.send(type, data, { ...options, correlationId }));
      if (!reply.ok) {
        outcome = problemOutcome(reply.problem);
        throw AppError.fromWire(reply.problem);
      }
      checkCommandReply(type, reply.body);
      outcome = 'ok';
      return { status: reply.status, body: reply.body as CommandReply<C> };
    } catch (err) {
      if (err instanceof RpcTimeoutError) outcome = 'timeout';
      else if (err instanceof UnroutableCommandError) outcome = 'unroutable';
      throw err;
    } finally {
      rpcClientDuration.observe({ command: type, outcome }, secondsSince(start));
    }
  }

  private async send<C extends CommandType>(type: C, data: CommandRequest<C>, options: CallOptions): Promise<Reply> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    checkCommandRequest(type, data);
    const channel = await this.channelWithin(timeoutMs);
    if (!channel) throw new RpcTimeoutError(type, timeoutMs);

    const envelope: Envelope = {
      id: newId('cmd'),
      type,
      version: 1,
      occurred_at: new Date().toISOString(),
      correlation_id: options.correlationId ?? randomUUID(),
      data,
    };
    const headers: Record<string, unknown> = withTraceHeaders({ [DEADLINE_HEADER]: deadline });
    if (this.operatorSigner && isOperatorCommand(type)) headers[OPERATOR_SIGNATURE_HEADER] = await this.operatorSigner.sign(envelope, Date.now(), options.actor);
    const remaining = Math.max(1, deadline - Date.now());
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(envelope.id);
        reject(new RpcTimeoutError(type, timeoutMs));
      }, remaining);
      this.pending.set(envelope.id, { type, resolve, reject, timer });
      try {
        channel.publish('', this.broker.names.commandQueueOf(type), Buffer.from(JSON.stringify(envelope)), {
          correlationId: envelope.id,
          replyTo: REPLY_TO,
          type,
          contentType: 'application/json',
          // A command nobody took before its deadline is worthless: let the broker drop it.
          expiration: String(remaining),
          mandatory: true,
          userId: this.broker.user,
          headers,
        });
      } catch (err) {
        // amqplib refuses to write on a channel or connection that is closing (before detach): the call is lost with it.
        clearTimeout(timer);
        this.pending.delete(envelope.id);
        reject((err as Error).name === 'IllegalOperationError' ? new RpcConnectionLostError(type) : err);
      }
    });
  }

  /** The call a returned or replied message answers, no longer pending. */
  private take(msg: ConsumeMessage): Pending | undefined {
    const id = msg.properties.correlationId as string | undefined;
    const call = id ? this.pending.get(id) : undefined;
    if (!call || !id) return undefined;
    this.pending.delete(id);
    clearTimeout(call.timer);
    return call;
  }

  private onUnroutable(msg: ConsumeMessage): void {
    this.take(msg)?.reject(new UnroutableCommandError(msg.properties.type as string, msg.fields.routingKey));
  }

  private onReply(msg: ConsumeMessage): void {
    const call = this.take(msg);
    if (!call) return;
    try {
      call.resolve(JSON.parse(msg.content.toString('utf8')) as Reply);
    } catch (err) {
      call.reject(err as Error);
    }
  }
}
