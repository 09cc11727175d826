/**
 * Request/reply over the broker, the service's end: it takes the commands of
 * its queues, checks who sent them, runs their handlers and answers each on the
 * caller's direct reply-to (rpc.ts sends them).
 */
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import {
  checkCommandReply,
  checkCommandRequest,
  COMMAND_LANES,
  commandLane,
  commands,
  commandSenders,
  ContractViolation,
  fieldErrorsOf,
  isCommandType,
  isOperatorCommand,
  isReadOnlyCommand,
  type CommandLane,
  type CommandReply,
  type CommandRequest,
  type CommandType,
  type Envelope,
  type ServiceName,
} from '@gateway/contracts';
import { AppError, validationError, type WireProblem } from '@gateway/problem';
import { describeError, secondsSince, withCorrelation, type Logger } from '@gateway/observability';
import type { Broker, BrokerComponent } from './broker.js';
import { decodeEnvelope } from './envelope.js';
import { commandLabel, commandsOnOtherLane, messagesRefused, problemOutcome, rpcServerDuration } from './metrics.js';
import type { OperatorGuard } from './operator-guard.js';
import { OPERATOR_SIGNATURE_HEADER, type VerifiedOperator } from './operator-signature.js';
import { acknowledge, QueueConsumer } from './queue-consumer.js';
import { outageOf } from './rpc.js';
import { DEADLINE_HEADER, REPLY_TO, type Reply } from './rpc-wire.js';

interface CommandMeta {
  readonly envelope: Envelope;
  readonly correlationId: string;
  /** Who signed an operator command, as the guard verified it. */
  readonly operator?: VerifiedOperator;
}

/** What a handler answers: the body and, for API calls, the HTTP status (200 by default). */
interface HandlerResult<C extends CommandType> {
  status?: number;
  body: CommandReply<C>;
  /** For the audit log, of an operator command that names only what it acts on (a refund, a key): the merchant it belongs to. */
  merchantId?: string;
}

export type CommandHandlers = {
  [C in CommandType]?: (data: CommandRequest<C>, meta: CommandMeta) => Promise<HandlerResult<C>>;
};

interface CommandServerOptions {
  service: ServiceName;
  handlers: CommandHandlers;
  log: Logger;
  /** Commands of each lane a replica handles at once (64 when not given): a slow one holds its slot while the acquirer answers. */
  prefetch?: Partial<Record<CommandLane, number>>;
  /** Checks and records operator commands (D17); required when `handlers` serve any. */
  operators?: OperatorGuard;
}

/** One lane's command queue of a service, consumed with the lane's own prefetch. */
class CommandLaneConsumer extends QueueConsumer {
  constructor(
    broker: Broker,
    private readonly laneQueue: string,
    prefetch: number,
    private readonly serve: (channel: Channel, msg: ConsumeMessage) => Promise<void>,
  ) {
    super(broker, prefetch);
  }

  protected async prepare(): Promise<string> {
    return this.laneQueue;
  }

  protected handle(channel: Channel, msg: ConsumeMessage): Promise<void> {
    return this.serve(channel, msg);
  }
}

/**
 * Serves a service's command queues: validates, runs the handler, replies,
 * acks. Each lane its handlers use (contracts' commandLane) is consumed on its
 * own channel with its own prefetch, so slow commands waiting on the acquirer
 * never take the slots of fast ones. RpcClient sends a command only to its own
 * lane's queue; one found on the other lane's (sent by an older version during
 * a rolling deploy) is run all the same, and counted.
 */
export class CommandServer implements BrokerComponent {
  private readonly lanes: readonly CommandLaneConsumer[];

  constructor(
    private readonly broker: Broker,
    private readonly options: CommandServerOptions,
  ) {
    const served = Object.keys(options.handlers).filter(isCommandType);
    // Fail closed: a service must never run operator commands it cannot check.
    const unguarded = served.filter(isOperatorCommand);
    if (unguarded.length > 0 && !options.operators) throw new Error(`${options.service} serves operator commands (${unguarded.join(', ')}) without an operator guard`);
    const foreign = served.filter((type) => commands[type].service !== options.service);
    if (foreign.length > 0) throw new Error(`${options.service} has handlers for commands of other services (${foreign.join(', ')}): they would never arrive`);
    this.lanes = COMMAND_LANES.filter((lane) => served.some((type) => commandLane(type) === lane)).map(
      (lane) =>
        new CommandLaneConsumer(broker, broker.names.commandQueue(options.service, lane), options.prefetch?.[lane] ?? 64, (channel, msg) => this.handle(lane, channel, msg)),
    );
  }

  async attach(connection: ChannelModel): Promise<void> {
    for (const lane of this.lanes) await lane.attach(connection);
  }

  detach(): void {
    for (const lane of this.lanes) lane.detach();
  }

  async drain(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.drain()));
  }

  private async handle(lane: CommandLane, channel: Channel, msg: ConsumeMessage): Promise<void> {
    const replyTo = msg.properties.replyTo as string | undefined;
    const correlationId = msg.properties.correlationId as string | undefined;
    const deadline = Number(msg.properties.headers?.[DEADLINE_HEADER] ?? Number.POSITIVE_INFINITY);
    let reply: Reply;
    const start = process.hrtime.bigint();
    if (Date.now() > deadline) {
      // The caller has given up; answering or acting now would only surprise it.
      acknowledge(() => channel.ack(msg));
      return;
    }
    try {
      const envelope = decodeEnvelope(msg.content);
      const signature = msg.properties.headers?.[OPERATOR_SIGNATURE_HEADER];
      reply = this.mayRun(msg, envelope) ? await this.run(lane, envelope, signature) : { ok: false, problem: (await this.refusal(envelope, signature)).toWire() };
    } catch (err) {
      reply = { ok: false, problem: this.toProblem(err, msg.properties.type as string | undefined) };
    }
    rpcServerDuration.observe(
      { command: commandLabel(msg.properties.type as string | undefined), outcome: reply.ok ? 'ok' : problemOutcome(reply.problem) },
      secondsSince(start),
    );
    // Replies go only to direct reply-to addresses: answering any queue named would let whoever may send here put a message stamped with this service's user anywhere.
    if (replyTo?.startsWith(REPLY_TO) && correlationId) {
      try {
        // A reply-to address is known only to whoever reads this command queue, so replies need no sender check.
        channel.publish('', replyTo, Buffer.from(JSON.stringify(reply)), { correlationId, contentType: 'application/json', userId: this.broker.user });
      } catch (err) {
        this.options.log.warn({ err: describeError(err) }, 'reply could not be sent');
      }
    }
    acknowledge(() => channel.ack(msg));
  }

  /**
   * Whether the broker user that published `msg` may send its command
   * (commandSenders, D17); a refusal is counted and logged, and answered as
   * an internal error (a service sending a command it may not is a fault of
   * ours, anyone else learns nothing), unless an operator signed it (refusal).
   */
  private mayRun(msg: ConsumeMessage, envelope: Envelope): boolean {
    if (!isCommandType(envelope.type) || this.broker.accepts(msg, commandSenders[envelope.type])) return true;
    messagesRefused.inc({ kind: 'command', type: envelope.type });
    this.options.log.warn(
      { command: envelope.type, message_id: envelope.id, correlation_id: envelope.correlation_id, user: msg.properties.userId as unknown },
      'command refused: its sender may not send it',
    );
    return false;
  }

  /**
   * The answer to a command its sender may not send: an internal error, which
   * tells nothing. Only an operator command carrying a valid operator signature
   * is answered `operator-unauthorized` (reason `broker-user`): its operator,
   * whose tool connected to the broker as the wrong user, learns why.
   */
  private async refusal(envelope: Envelope, signature: unknown): Promise<AppError> {
    const guard = isCommandType(envelope.type) && isOperatorCommand(envelope.type) ? this.options.operators : undefined;
    if (guard && (await guard.signedByOperator(envelope, typeof signature === 'string' ? signature : undefined))) {
      return new AppError('operator-unauthorized', 'Operator command refused: it was sent as a broker user that may not send operator commands.', { reason: 'broker-user' });
    }
    return new AppError('internal-error');
  }

  private async run(lane: CommandLane, envelope: Envelope, signature: unknown): Promise<Reply> {
    const type = envelope.type;
    const handler = isCommandType(type) ? this.options.handlers[type] : undefined;
    if (!handler || !isCommandType(type)) throw new Error(`no handler for command ${type}`);
    // A command on another lane's queue is still run, once, like any other: during a rolling deploy
    // (and after it, until drained) the queue of an older version's callers holds commands of the
    // other lane (the fast queue was every command's before lanes), and refusing them would fail
    // payments, and hold refunds for an operator that were never sent to the acquirer.
    if (commandLane(type) !== lane) {
      commandsOnOtherLane.inc({ command: type, lane });
      this.options.log.warn({ command: type, lane, message_id: envelope.id }, 'command taken from another lane\'s queue (a caller of an older version?): run all the same');
    }
    if (!isOperatorCommand(type)) return (await this.runHandler(type, handler, envelope)).reply;
    // The constructor refuses operator handlers without a guard.
    const guard = this.options.operators as OperatorGuard;
    const operator = await guard.admit(envelope, typeof signature === 'string' ? signature : undefined);
    let result: { reply: Reply; merchantId?: string };
    try {
      guard.checkReach(envelope, operator);
      result = await this.runHandler(type, handler, envelope, operator);
    } catch (err) {
      result = { reply: { ok: false, problem: this.toProblem(err, type) } };
    }
    // A read that answered is a page view, not a change: only refused reads go to the audit log.
    if (!(isReadOnlyCommand(type) && result.reply.ok)) await guard.record(envelope, operator, result.reply, result.merchantId);
    return result.reply;
  }

  private async runHandler(type: CommandType, handler: NonNullable<CommandHandlers[CommandType]>, envelope: Envelope, operator?: VerifiedOperator): Promise<{ reply: Reply; merchantId?: string }> {
    try {
      checkCommandRequest(type, envelope.data);
    } catch (err) {
      if (err instanceof ContractViolation) {
        throw validationError(fieldErrorsOf(err.errors));
      }
      throw err;
    }
    const result = await withCorrelation(envelope.correlation_id, () =>
      (handler as (data: unknown, meta: CommandMeta) => Promise<HandlerResult<CommandType>>)(envelope.data, {
        envelope,
        correlationId: envelope.correlation_id,
        ...(operator && { operator }),
      }),
    );
    checkCommandReply(type, result.body);
    return { reply: { ok: true, status: result.status ?? 200, body: result.body }, ...(result.merchantId !== undefined && { merchantId: result.merchantId }) };
  }

  private toProblem(err: unknown, type: string | undefined): WireProblem {
    if (err instanceof AppError) return err.toWire();
    const outage = outageOf(err);
    if (outage) {
      this.options.log.warn({ err: describeError(err), command: type }, 'command failed while a dependency is out; answered as retryable');
      return outage.toWire();
    }
    // Never echo an unexpected error to the caller: it may hold SQL or data.
    this.options.log.error({ err: describeError(err), command: type }, 'command failed');
    return new AppError('internal-error').toWire();
  }
}
