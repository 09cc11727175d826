/**
 * The messaging layer against a real RabbitMQ and PostgreSQL: RPC with a
 * deadline, the outbox relay with publisher confirms, changes applied once
 * from events and replies, dead letters.
 */
import assert from 'node:assert/strict';
import { connect } from 'amqplib';
import { commandLane, newId, type Envelope, type ServiceName } from '@gateway/contracts';
import { createPool, migrate, withTransaction, type Pool } from '@gateway/db';
import {
  applyOnce,
  assertDeclarations,
  Broker,
  CommandServer,
  DELIVERY_LIMIT,
  durableQueue,
  enqueue,
  EventConsumer,
  eventEnvelope,
  messagingMigrations,
  generateOperatorKey,
  namesFor,
  OPERATOR_SIGNATURE_HEADER,
  OperatorGuard,
  OperatorSigner,
  OutboxRelay,
  outageOf,
  RpcClient,
  RpcConnectionLostError,
  RpcTimeoutError,
  UnroutableCommandError,
  type Change,
  type CommandHandlers,
} from '@gateway/messaging';
import { createLogger, renderMetrics } from '@gateway/observability';
import { AppError, retryAfterOf, TEMPORARILY_UNAVAILABLE } from '@gateway/problem';
import { createTestDatabase, deleteBrokerObjects, EventCapture, pollUntil, testEnvironment, uniqueName, type TestDatabase } from '@gateway/testkit';

const log = createLogger({ service: 'messaging-test', level: 'silent' });
const MERCHANT = `mer_${'a'.repeat(24)}`;

function canceledEvent(correlationId = 'corr-1') {
  return eventEnvelope(
    'session.canceled',
    {
      merchant_id: MERCHANT,
      webhook_url: '',
      session: {
        id: newId('ps'),
        order_number: 'ABC-123456',
        merchant_reference: 'r',
        order_id: '',
        amount: '1.000',
        currency: 'TND',
        description: '',
        status: 'CANCELED',
        livemode: false,
        buyer: { first_name: 'A', last_name: 'B', email: 'a@b.tn', phone: '' },
        items: [],
        metadata: {},
        original: { amount: '1.000', currency: 'TND', rate: '1.000000' },
      },
    },
    correlationId,
  );
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Sends `envelope` straight to `queue`, as a caller that does not go through
 * RpcClient would (an older version, a misbehaving one), with a direct
 * reply-to address; runs `meanwhile` once it is sent, then resolves with the
 * reply.
 */
async function sendRaw(
  amqpUrl: string,
  queue: string,
  envelope: { id: string; type: string },
  options: { headers?: Record<string, string>; meanwhile?: () => Promise<void> } = {},
): Promise<Record<string, unknown>> {
  const connection = await connect(amqpUrl);
  try {
    const channel = await connection.createChannel();
    // Answers go only to direct reply-to addresses.
    const replyTo = 'amq.rabbitmq.reply-to';
    let answer: (reply: Record<string, unknown>) => void = () => undefined;
    const got = new Promise<Record<string, unknown>>((resolve) => (answer = resolve));
    // Consuming direct reply-to must start before anything is sent with it.
    await channel.consume(replyTo, (msg) => msg && answer(JSON.parse(msg.content.toString()) as Record<string, unknown>), { noAck: true });
    channel.sendToQueue(queue, Buffer.from(JSON.stringify(envelope)), { replyTo, correlationId: envelope.id, type: envelope.type, headers: options.headers ?? {} });
    await options.meanwhile?.();
    return await got;
  } finally {
    await connection.close();
  }
}

describe('messaging', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let pool: Pool;
  let amqpUrl: string;
  const prefixes: string[] = [];

  before(async () => {
    amqpUrl = (await testEnvironment()).amqpUrl;
    db = await createTestDatabase([]);
    await db.query('CREATE SCHEMA probe');
    await migrate(db.adminUrl, 'probe', [messagingMigrations]);
    await db.query('CREATE TABLE probe.effects (message_id text NOT NULL)');
    await db.query('CREATE UNIQUE INDEX effects_once ON probe.effects (message_id)');
    pool = createPool({ url: db.adminUrl, schema: 'probe' });
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
    for (const prefix of prefixes) await deleteBrokerObjects(prefix, [`${prefix}.probe`, `${prefix}.probe.dead`]);
  });

  function newBroker(service?: ServiceName): Broker {
    const prefix = uniqueName('t');
    prefixes.push(prefix);
    return new Broker({ url: amqpUrl, prefix, log, ...(service && { service, sharedUser: true }) });
  }

  describe('topology', () => {
    it('when a service that subscribes to no event starts where an earlier version left its event queue, then the queue is deleted with the events it held', async () => {
      const prefix = uniqueName('t');
      prefixes.push(prefix);
      const names = namesFor(prefix);
      const left = names.eventQueue('refund');
      const connection = await connect(amqpUrl);
      try {
        const channel = await connection.createChannel();
        const exchanges = [
          { name: names.events, type: 'topic' as const },
          { name: names.deadLetter, type: 'direct' as const },
        ];
        await assertDeclarations(channel, exchanges, durableQueue(names, left, [{ exchange: names.events, routingKey: 'payment.approved' }]));
        channel.publish(names.events, 'payment.approved', Buffer.from('{}'));
        await until(async () => (await channel.checkQueue(left)).messageCount === 1);

        const refund = new Broker({ url: amqpUrl, prefix, log, service: 'refund', sharedUser: true });
        await refund.start();
        await refund.stop();

        const probe = await connection.createChannel();
        probe.on('error', () => undefined);
        await assert.rejects(probe.checkQueue(left), /NOT_FOUND/);
        await channel.deleteQueue(`${left}.dead`);
      } finally {
        await connection.close();
      }
    });
  });

  describe('retired bindings', () => {
    it("when the checkout starts where an earlier version bound its queue to every session.succeeded, then that binding is removed: a payment of no link no longer reaches it", async () => {
      const prefix = uniqueName('t');
      prefixes.push(prefix);
      const names = namesFor(prefix);
      const queue = names.eventQueue('checkout');
      const connection = await connect(amqpUrl);
      const checkout = new Broker({ url: amqpUrl, prefix, log, service: 'checkout', sharedUser: true });
      try {
        const channel = await connection.createChannel();
        const exchanges = [
          { name: names.events, type: 'topic' as const },
          { name: names.deadLetter, type: 'direct' as const },
        ];
        await assertDeclarations(channel, exchanges, durableQueue(names, queue, [{ exchange: names.events, routingKey: 'session.succeeded' }]));
        await checkout.start();
        // Consumes nothing: a change with no event it could take leaves the queue as the broker routes to it.
        await checkout.register(new EventConsumer(checkout, { service: 'checkout', log, changes: [], prefetch: 1 }));
        await checkout.stop();
        channel.publish(names.events, 'session.succeeded', Buffer.from('{}'));
        channel.publish(names.events, 'session.succeeded.payment_link', Buffer.from('{}'));
        await until(async () => (await channel.checkQueue(queue)).messageCount >= 1);
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal((await channel.checkQueue(queue)).messageCount, 1, 'only the payment-link form is routed to the queue');
        await channel.deleteQueue(queue);
        await channel.deleteQueue(`${queue}.dead`);
      } finally {
        await connection.close();
      }
    });
  });

  describe('RPC', () => {
    let server: Broker;
    let client: Broker;
    let rpc: RpcClient;
    let calls = 0;
    const handlers: CommandHandlers = {
      'rate.set': async (command) => {
        calls += 1;
        if (command.currency === 'ERR') throw new AppError('conflict', 'refused on purpose', { existing_session_id: 'ps_x' });
        if (command.currency === 'BUG') throw new Error('SELECT secret FROM table failed');
        // What pg throws when the server ends the connection: a failover, a restart.
        if (command.currency === 'OUT') throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
        return { status: 201, body: { merchant_id: command.merchant_id, mode: command.mode, currency: command.currency, rate: command.rate } };
      },
    };

    // rate.set is an operator command: the server checks, the clients sign (D17).
    let operators: OperatorGuard;
    let signer: OperatorSigner;

    before(async () => {
      const key = await generateOperatorKey();
      operators = new OperatorGuard({ service: 'session', publicKeys: [key.publicJwk], pool, log });
      signer = await OperatorSigner.fromJwk(key.privateJwk);
      server = newBroker('session');
      await server.start();
      await server.register(new CommandServer(server, { service: 'session', handlers, log, operators }));
      client = new Broker({ url: amqpUrl, prefix: server.prefix, log });
      await client.start();
      rpc = await client.register(new RpcClient(client, 2_000, signer));
    });
    after(async () => {
      await client?.stop();
      await server?.stop();
    });

    it('when the handler answers, then the caller gets its status and body', async () => {
      const reply = await rpc.call('rate.set', { merchant_id: MERCHANT, mode: 'test', currency: 'EUR', rate: '3.3' });
      assert.equal(reply.status, 201);
      assert.deepEqual(reply.body, { merchant_id: MERCHANT, mode: 'test', currency: 'EUR', rate: '3.3' });
    });

    it('when a call is made before its client has attached to the broker (a process just started), then it waits for the channel and is answered', async () => {
      const late = new Broker({ url: amqpUrl, prefix: server.prefix, log });
      const early = new RpcClient(late, 3_000, signer);
      try {
        const answer = early.call('rate.set', { merchant_id: MERCHANT, mode: 'test', currency: 'EUR', rate: '3.4' });
        await late.start();
        await late.register(early);
        assert.equal((await answer).status, 201);
      } finally {
        await late.stop();
      }
    });

    it('when the handler refuses with an AppError, then the caller gets the same code, detail and extensions', async () => {
      await assert.rejects(rpc.call('rate.set', { merchant_id: MERCHANT, mode: 'test', currency: 'ERR', rate: '1' }), (err: unknown) => {
        assert.ok(err instanceof AppError);
        assert.equal(err.code, 'conflict');
        assert.equal(err.detail, 'refused on purpose');
        assert.deepEqual(err.extensions, { existing_session_id: 'ps_x' });
        return true;
      });
    });

    it('when the handler fails unexpectedly, then the caller gets internal-error and nothing of the failure', async () => {
      await assert.rejects(rpc.call('rate.set', { merchant_id: MERCHANT, mode: 'test', currency: 'BUG', rate: '1' }), (err: unknown) => {
        assert.ok(err instanceof AppError);
        assert.equal(err.code, 'internal-error');
        assert.equal(JSON.stringify(err.toWire()).includes('SELECT'), false);
        return true;
      });
    });

    it('when the handler fails because the database is out (D23), then the caller gets a retryable internal-error with retry_after of 1 to 5 seconds', async () => {
      await assert.rejects(rpc.call('rate.set', { merchant_id: MERCHANT, mode: 'test', currency: 'OUT', rate: '1' }), (err: unknown) => {
        assert.ok(err instanceof AppError);
        assert.equal(err.code, 'internal-error');
        assert.equal(err.detail, TEMPORARILY_UNAVAILABLE);
        assert.ok([1, 2, 3, 4, 5].includes(retryAfterOf(err) ?? 0), JSON.stringify(err.extensions));
        assert.equal(JSON.stringify(err.toWire()).includes('administrator'), false);
        return true;
      });
    });

    it('when the broker ends the subscription to a command queue (the queue lost with its node), then the service declares the queue again and serves the next call', async () => {
      const queue = server.names.commandQueue('session', commandLane('rate.set'));
      const connection = await connect(amqpUrl);
      try {
        await (await connection.createChannel()).deleteQueue(queue);
        // A check of a missing queue closes its channel: one channel per check.
        const consumers = async () => {
          const channel = await connection.createChannel();
          channel.on('error', () => undefined);
          return (await channel.checkQueue(queue).catch(() => ({ consumerCount: 0 }))).consumerCount;
        };
        await until(async () => (await consumers()) > 0);
      } finally {
        await connection.close();
      }
      const reply = await rpc.call('rate.set', { merchant_id: MERCHANT, mode: 'test', currency: 'EUR', rate: '3.3' });
      assert.equal(reply.status, 201);
    });

    it('when a call is sent while its connection is closing (the broker ended a subscription, a channel failed), then it fails as unanswered, a retryable outage, runs nothing, and the next call is served', async () => {
      const closing = new Broker({ url: amqpUrl, prefix: server.prefix, log });
      await closing.start();
      try {
        const caller = await closing.register(new RpcClient(closing, 2_000, signer));
        const before = calls;
        closing.reconnect('a subscription the broker ended');
        await assert.rejects(caller.call('rate.set', { merchant_id: MERCHANT, mode: 'test', currency: 'EUR', rate: '3.5' }), (err: unknown) => {
          assert.ok(err instanceof RpcConnectionLostError, String(err));
          assert.ok([1, 2, 3, 4, 5].includes(retryAfterOf(outageOf(err)) ?? 0));
          return true;
        });
        await until(() => closing.connected);
        assert.equal((await caller.call('rate.set', { merchant_id: MERCHANT, mode: 'test', currency: 'EUR', rate: '3.6' })).status, 201);
        assert.equal(calls, before + 1);
      } finally {
        await closing.stop();
      }
    });

    it('when the request breaks its contract, then it is refused before it is sent', async () => {
      const before = calls;
      await assert.rejects(rpc.call('rate.set', { merchant_id: 'nope' } as never));
      assert.equal(calls, before);
    });

    it('when a malformed request reaches the server, then it answers validation-error without calling the handler', async () => {
      const before = calls;
      const envelope = { id: 'cmd_1', type: 'rate.set', version: 1, occurred_at: new Date().toISOString(), correlation_id: 'c', data: { merchant_id: 42 } };
      const answered = await sendRaw(amqpUrl, server.names.commandQueue('session'), envelope, { headers: { [OPERATOR_SIGNATURE_HEADER]: await signer.sign(envelope) } });
      const reply = answered as { ok: boolean; problem: { code: string; errors: { field: string; code: string }[] } };
      assert.equal(reply.ok, false);
      assert.equal(reply.problem.code, 'validation-error');
      // One entry per field, from the contracts' one mapping of schema errors (D6).
      assert.deepEqual(
        reply.problem.errors.map((e) => [e.field, e.code]).sort(),
        [
          ['currency', 'required'],
          ['merchant_id', 'invalid'],
          ['mode', 'required'],
          ['rate', 'required'],
        ],
      );
      assert.equal(calls, before);
    });

    it('when no service consumes the queue, then the call fails at its deadline', async () => {
      await server.stop();
      const started = Date.now();
      await assert.rejects(rpc.call('rate.set', { merchant_id: MERCHANT, mode: 'test', currency: 'EUR', rate: '1' }, { timeoutMs: 400 }), RpcTimeoutError);
      const elapsed = Date.now() - started;
      assert.ok(elapsed >= 380 && elapsed < 1_500, `${elapsed} ms`);
    });

    it('when the command expired while nobody served, then a server that comes back later never runs it', async () => {
      const before = calls;
      const revived = new Broker({ url: amqpUrl, prefix: client.prefix, log, service: 'session', sharedUser: true });
      await assert.rejects(rpc.call('rate.set', { merchant_id: MERCHANT, mode: 'test', currency: 'EUR', rate: '1' }, { timeoutMs: 200 }), RpcTimeoutError);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await revived.start();
      await revived.register(new CommandServer(revived, { service: 'session', handlers, log, operators }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(calls, before);
      const reply = await rpc.call('rate.set', { merchant_id: MERCHANT, mode: 'test', currency: 'EUR', rate: '1' });
      assert.equal(reply.status, 201);
      await revived.stop();
    });

    it('when the command has no queue at all, then it fails at once as unroutable', async () => {
      const stranger = new Broker({ url: amqpUrl, prefix: uniqueName('t'), log });
      await stranger.start();
      try {
        const lonely = await stranger.register(new RpcClient(stranger, 5_000));
        const started = Date.now();
        await assert.rejects(lonely.call('rate.set', { merchant_id: MERCHANT, mode: 'test', currency: 'EUR', rate: '1' }), UnroutableCommandError);
        assert.ok(Date.now() - started < 1_000);
      } finally {
        await stranger.stop();
      }
    });
  });

  describe('broker nodes (D23)', () => {
    it('when the first node AMQP_URL lists does not answer, then the service connects to the next', async () => {
      const prefix = uniqueName('t');
      prefixes.push(prefix);
      const broker = new Broker({ url: `amqp://guest:guest@127.0.0.1:1,${amqpUrl}`, prefix, log });
      await broker.start();
      try {
        assert.equal(broker.connected, true);
      } finally {
        await broker.stop();
      }
    });

    it('when the nodes AMQP_URL lists name different users, then it refuses to start', () => {
      assert.throws(() => new Broker({ url: 'amqp://gw.session:a@10.0.0.1:5672,amqp://gw.refund:b@10.0.0.2:5672', prefix: 't', log }), /same user/);
    });
  });

  describe('command lanes', () => {
    let server: Broker;
    let client: Broker;
    let rpc: RpcClient;
    let refundsStarted = 0;
    const release: (() => void)[] = [];
    const refundRequest = () => ({ refund_id: newId('re'), attempt_id: newId('pa'), merchant_id: MERCHANT, livemode: false, amount: '1.000', whole: true });

    before(async () => {
      server = newBroker('acquirer-adapter');
      await server.start();
      // payment.refund waits on the acquirer (slow lane); terminal.check answers at once (fast lane).
      const handlers: CommandHandlers = {
        'payment.refund': async () => {
          refundsStarted += 1;
          await new Promise<void>((resolve) => release.push(resolve));
          return { body: { outcome: 'refunded', operation: 'reverse', message: '' } };
        },
        'terminal.check': async () => ({ body: { status: 'active' } }),
      };
      await server.register(new CommandServer(server, { service: 'acquirer-adapter', handlers, log, prefetch: { fast: 1, slow: 2 } }));
      client = new Broker({ url: amqpUrl, prefix: server.prefix, log });
      await client.start();
      rpc = await client.register(new RpcClient(client, 5_000));
    });
    after(async () => {
      for (const resolve of release.splice(0)) resolve();
      await client?.stop();
      await server?.stop();
    });

    it('when slow commands fill their lane and more wait behind them, then a fast command is still answered at once', async () => {
      const refunds = Array.from({ length: 5 }, () => rpc.call('payment.refund', refundRequest(), { timeoutMs: 20_000 }));
      await pollUntil(() => refundsStarted === 2, 5_000, 'two refunds under way');
      const started = Date.now();
      const { body } = await rpc.call('terminal.check', { merchant_id: MERCHANT }, { timeoutMs: 2_000 });
      assert.deepEqual(body, { status: 'active' });
      assert.ok(Date.now() - started < 1_000, `terminal.check took ${Date.now() - started} ms`);
      // The slow lane's prefetch holds: two at a time, the others wait in its own queue.
      assert.equal(refundsStarted, 2);
      while (refundsStarted < 5 || release.length > 0) {
        release.shift()?.();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const answers = await Promise.all(refunds);
      assert.deepEqual(
        answers.map((a) => a.body.outcome),
        ['refunded', 'refunded', 'refunded', 'refunded', 'refunded'],
      );
    });

    it("when a slow command is put on the fast lane's queue (a caller of an older version, during a rolling deploy), then it is run once and answered, not refused", async () => {
      const before = refundsStarted;
      const envelope = { id: newId('cmd'), type: 'payment.refund', version: 1, occurred_at: new Date().toISOString(), correlation_id: 'c', data: refundRequest() };
      // The queue every command of the adapter went to before lanes: what an older refund service still sends to.
      const answered = await sendRaw(amqpUrl, server.names.commandQueue('acquirer-adapter', 'fast'), envelope, {
        meanwhile: async () => {
          await pollUntil(() => refundsStarted === before + 1, 5_000, 'the refund handler ran');
          release.shift()?.();
        },
      });
      const reply = answered as { ok: boolean; body: { outcome: string } };
      assert.deepEqual([reply.ok, reply.body.outcome], [true, 'refunded']);
      assert.equal(refundsStarted, before + 1);
      const metrics = (await renderMetrics()).body;
      assert.match(metrics, /gateway_rpc_commands_on_other_lane_total\{command="payment.refund",lane="fast"\} 1/);
    });
  });

  describe('outbox, and changes applied once', () => {
    let broker: Broker;
    let relay: OutboxRelay;
    let capture: EventCapture;

    before(async () => {
      broker = newBroker();
      capture = await EventCapture.start(broker.prefix, ['session.*']);
      await broker.start();
      relay = await broker.register(new OutboxRelay(broker, { pool, log, pollMs: 200 }));
    });
    after(async () => {
      await capture?.stop();
      await broker?.stop();
    });

    it('when the transaction commits, then the event is published once and its row removed; when it rolls back, never', async () => {
      const committed = canceledEvent();
      const rolledBack = canceledEvent();
      await withTransaction(pool, (tx) => enqueue(tx, [committed]));
      await assert.rejects(
        withTransaction(pool, async (tx) => {
          await enqueue(tx, [rolledBack]);
          throw new Error('abort');
        }),
      );
      relay.wake();
      await capture.waitFor('session.canceled', (e) => e.id === committed.id);
      await until(async () => (await pool.query('SELECT 1 FROM outbox')).rowCount === 0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(capture.of('session.canceled', (e) => e.id === committed.id).length, 1);
      assert.equal(capture.of('session.canceled', (e) => e.id === rolledBack.id).length, 0);
      const [published] = capture.of('session.canceled', (e) => e.id === committed.id);
      assert.deepEqual(published, JSON.parse(JSON.stringify(committed)));
    });

    it('when commits come at a trickle, then each leaves at once; within gatherMs of a round, they wait and leave together in the next', async () => {
      const spacedBroker = new Broker({ url: amqpUrl, prefix: broker.prefix, log });
      const spaced = new OutboxRelay(spacedBroker, { pool, log, pollMs: 60_000, gatherMs: 600 });
      await relay.pause();
      try {
        await spacedBroker.start();
        await spacedBroker.register(spaced);
        // The round its attach ran is long past.
        await new Promise((resolve) => setTimeout(resolve, 700));
        const arrival = async (id: string) => {
          await capture.waitFor('session.canceled', (e) => e.id === id);
          return performance.now();
        };
        const commit = async () => {
          const event = canceledEvent();
          await withTransaction(pool, (tx) => enqueue(tx, [event]));
          spaced.wake();
          return event;
        };

        const alone = performance.now();
        const first = await commit();
        const firstAt = await arrival(first.id);
        assert.ok(firstAt - alone < 300, `a lone commit left after ${Math.round(firstAt - alone)} ms`);

        const second = await commit();
        const third = await commit();
        const [secondAt, thirdAt] = await Promise.all([arrival(second.id), arrival(third.id)]);
        assert.ok(secondAt - alone >= 550, `the next round started ${Math.round(secondAt - alone)} ms after the first`);
        assert.ok(Math.abs(thirdAt - secondAt) < 150, 'commits of one gathering leave together');
      } finally {
        await spacedBroker.stop();
        relay.resume();
      }
    });

    it('when commits keep coming, then each round is one statement that also deletes what the round before published, and every event leaves once', async () => {
      const chainedBroker = new Broker({ url: amqpUrl, prefix: broker.prefix, log });
      const relayPool = createPool({ url: db.adminUrl, schema: 'probe', max: 2 });
      const statements: { name?: string; text: string; values?: unknown[] }[] = [];
      relayPool.on('connect', (client) => {
        const query = client.query.bind(client) as (text: unknown, ...rest: unknown[]) => unknown;
        (client as unknown as { query: typeof query }).query = (text: unknown, ...rest: unknown[]) => {
          if (typeof text === 'string') statements.push({ text });
          else if (text && typeof text === 'object' && 'text' in text) statements.push(text as { name?: string; text: string; values?: unknown[] });
          return query(text, ...rest);
        };
      });
      const chained = new OutboxRelay(chainedBroker, { pool: relayPool, log, pollMs: 60_000, gatherMs: 150 });
      await relay.pause();
      try {
        await chainedBroker.start();
        await chainedBroker.register(chained);
        await new Promise((resolve) => setTimeout(resolve, 300));
        statements.length = 0;
        const events = [];
        for (let i = 0; i < 30; i += 1) {
          const event = canceledEvent();
          await withTransaction(pool, (tx) => enqueue(tx, [event]));
          chained.wake();
          events.push(event);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        for (const event of events) await capture.waitFor('session.canceled', (e) => e.id === event.id);
        // The last round's rows go with the next round (here woken; else the backstop poll's).
        await new Promise((resolve) => setTimeout(resolve, 200));
        chained.wake();
        await until(async () => (await pool.query('SELECT 1 FROM outbox')).rowCount === 0);
        await new Promise((resolve) => setTimeout(resolve, 300));
        for (const event of events) assert.equal(capture.of('session.canceled', (e) => e.id === event.id).length, 1);

        const rounds = statements.filter((statement) => statement.name === 'outbox-round');
        const carrying = rounds.filter((statement) => (statement.values?.[0] as unknown[]).length > 0).length;
        assert.ok(rounds.length >= 3, `${rounds.length} rounds`);
        assert.equal(statements.length, rounds.length, 'a round is one statement; no other is sent');
        assert.ok(carrying >= rounds.length / 2, `${carrying} of ${rounds.length} rounds deleted what the one before published`);
        // A delete or claim lost in a crash only publishes its rows again: the rounds do not wait for the disk.
        assert.ok(rounds.every((statement) => statement.text.includes("set_config('synchronous_commit', 'off', true)")));
      } finally {
        await chainedBroker.stop();
        await relayPool.end();
        relay.resume();
      }
    });

    it("when an event is about a session made through a payment link, then it goes under its payment-link routing key: a subscription to that form alone (the checkout's) takes it and not the others; one to the type takes both", async () => {
      const linkOnly = await EventCapture.start(broker.prefix, ['session.canceled.payment_link']);
      const byType = await EventCapture.start(broker.prefix, ['session.canceled']);
      try {
        const plain = canceledEvent();
        const ofLink = canceledEvent();
        (ofLink.data.session as { payment_link?: string }).payment_link = 'pl_1';
        await withTransaction(pool, (tx) => enqueue(tx, [plain, ofLink]));
        relay.wake();
        await byType.waitFor('session.canceled', (e) => e.id === plain.id);
        await byType.waitFor('session.canceled', (e) => e.id === ofLink.id);
        await linkOnly.waitFor('session.canceled', (e) => e.id === ofLink.id);
        // Published together, in order: the plain one, had it been routed there, would be in by now.
        assert.deepEqual(linkOnly.events.map((e) => e.id), [ofLink.id]);
      } finally {
        await linkOnly.stop();
        await byType.stop();
      }
    });

    it('when the outbox holds a row of an event its service no longer publishes (an earlier version wrote it), then it is deleted unsent and the rows after it leave', async () => {
      const service = new Broker({ url: amqpUrl, prefix: broker.prefix, log, service: 'refund', sharedUser: true });
      const serviceRelay = new OutboxRelay(service, { pool, log, pollMs: 100 });
      await relay.pause();
      try {
        const foreign = canceledEvent();
        const own = { ...canceledEvent(), type: 'refund.created' };
        await withTransaction(pool, (tx) => enqueue(tx, [foreign, own as typeof foreign]));
        const refunds = await EventCapture.start(broker.prefix, ['refund.created']);
        try {
          await service.start();
          await service.register(serviceRelay);
          await refunds.waitFor('refund.created', (e) => e.id === own.id);
          await until(async () => (await pool.query('SELECT 1 FROM outbox WHERE message_id = ANY($1)', [[foreign.id, own.id]])).rowCount === 0, 5_000);
          assert.equal(capture.of('session.canceled', (e) => e.id === foreign.id).length, 0, 'published by a service that does not publish it');
        } finally {
          await refunds.stop();
        }
      } finally {
        await service.stop();
        relay.resume();
      }
    });

    it('when a row is under the claim of a relay that died, then no relay publishes it until the claim lapses; then it leaves once', async () => {
      const event = canceledEvent();
      await withTransaction(pool, (tx) => enqueue(tx, [event]));
      await pool.query(`UPDATE outbox SET claimed_until = now() + interval '1 second' WHERE message_id = $1`, [event.id]);
      const claimedAt = performance.now();
      relay.wake();
      await capture.waitFor('session.canceled', (e) => e.id === event.id, 1, 5_000);
      assert.ok(performance.now() - claimedAt >= 900, `published ${Math.round(performance.now() - claimedAt)} ms into another relay's claim`);
      await until(async () => (await pool.query('SELECT 1 FROM outbox WHERE message_id = $1', [event.id])).rowCount === 0);
      assert.equal(capture.of('session.canceled', (e) => e.id === event.id).length, 1);
    });

    it('when the broker is away, then rows wait in the outbox and leave once it is back, by the backstop poll alone', async () => {
      const waiting = new Broker({ url: amqpUrl, prefix: broker.prefix, log });
      const lateRelay = new OutboxRelay(waiting, { pool, log, pollMs: 100 });
      const event = canceledEvent();
      // The running relay paused first: its backstop poll would otherwise publish the row.
      await relay.pause();
      await withTransaction(pool, (tx) => enqueue(tx, [event]));
      try {
        // Nobody has a connection: the row stays.
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal((await pool.query('SELECT 1 FROM outbox WHERE message_id = $1', [event.id])).rowCount, 1);
        await waiting.start();
        await waiting.register(lateRelay);
        await capture.waitFor('session.canceled', (e) => e.id === event.id);
        await until(async () => (await pool.query('SELECT 1 FROM outbox WHERE message_id = $1', [event.id])).rowCount === 0);
      } finally {
        await waiting.stop();
        relay.resume();
      }
    });

    it('when an event is delivered twice, then its change, keyed on what it changes, happens once, and the second delivery is counted unchanged', async () => {
      const consumer = newConsumer();
      await broker.register(consumer);
      const event = canceledEvent();
      const unchangedBefore = await changesCounted('event', 'unchanged');
      await publishRaw(broker.prefix, event);
      await publishRaw(broker.prefix, event);
      await until(async () => (await changesCounted('event', 'unchanged')) === unchangedBefore + 1);
      await consumer.drain();
      assert.equal((await pool.query('SELECT 1 FROM effects WHERE message_id = $1', [event.id])).rowCount, 1);
    });

    it('when the change came first by its reply, then its event changes nothing more, and neither path needs an inbox', async () => {
      const consumer = newConsumer();
      await broker.register(consumer);
      const event = canceledEvent();
      const change = probeChange();
      assert.equal(await applyOnce(change, 'reply', event.id, { correlationId: 'corr-1', at: new Date() }), true);
      const unchangedBefore = await changesCounted('event', 'unchanged');
      await publishRaw(broker.prefix, event);
      await until(async () => (await changesCounted('event', 'unchanged')) === unchangedBefore + 1);
      await consumer.drain();
      assert.equal((await pool.query('SELECT 1 FROM effects WHERE message_id = $1', [event.id])).rowCount, 1);
      assert.equal((await pool.query<{ inbox: string | null }>("SELECT to_regclass('inbox') AS inbox")).rows[0]?.inbox, null, 'no inbox table');
    });

    it('when the database is away for a moment, then the change is tried again in process, unacked, and applied once without a redelivery', async () => {
      let failures = 0;
      const consumer = newConsumer(async () => {
        if (failures === 0) {
          failures += 1;
          throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
        }
      });
      await broker.register(consumer);
      const event = canceledEvent();
      await publishRaw(broker.prefix, event);
      await until(async () => (await pool.query('SELECT 1 FROM effects WHERE message_id = $1', [event.id])).rowCount === 1);
      await consumer.drain();
      assert.equal(failures, 1);
      assert.equal(deliveries.get(event.id), 1);
    });

    it('when a change fails once for a fault of its own, then the event is handed back, redelivered and its effect happens exactly once', async () => {
      let failures = 0;
      const consumer = newConsumer(async () => {
        if (failures === 0) {
          failures += 1;
          throw new Error('a fault of its own');
        }
      });
      await broker.register(consumer);
      const event = canceledEvent();
      await publishRaw(broker.prefix, event);
      await until(async () => (await pool.query('SELECT 1 FROM effects WHERE message_id = $1', [event.id])).rowCount === 1);
      assert.equal(failures, 1);
      await consumer.drain();
    });

    it('when a change always fails, then the event is dead-lettered after the delivery limit; a malformed one at once', async () => {
      let attempts = 0;
      const consumer = newConsumer(async () => {
        attempts += 1;
        throw new Error('poison');
      });
      await broker.register(consumer);
      const poison = canceledEvent();
      await publishRaw(broker.prefix, poison);
      await publishRaw(broker.prefix, 'not json at all');
      const dead = await readDead(broker.prefix, 2);
      assert.equal(attempts, DELIVERY_LIMIT + 1);
      assert.ok(dead.some((body) => body.includes(poison.id)));
      assert.ok(dead.includes('not json at all'));
      assert.equal((await pool.query('SELECT 1 FROM effects WHERE message_id = $1', [poison.id])).rowCount, 0);
      await consumer.drain();
    });

    it('when a change cannot read an event as its input, then that event is dead-lettered and the next ones are applied', async () => {
      const unreadable = canceledEvent();
      const change = probeChange();
      const consumer = new EventConsumer(broker, {
        service: 'session',
        subscription: { queue: `${broker.prefix}.probe`, patterns: ['session.canceled'] },
        log,
        retryDelayMs: 20,
        changes: [
          {
            ...change,
            fromEvent: (data, context) => {
              if (context.event?.id === unreadable.id) throw new TypeError('unreadable');
              return change.fromEvent(data, context);
            },
          },
        ],
      });
      await broker.register(consumer);
      const next = canceledEvent();
      await publishRaw(broker.prefix, unreadable);
      await publishRaw(broker.prefix, next);
      await until(async () => (await pool.query('SELECT 1 FROM effects WHERE message_id = $1', [next.id])).rowCount === 1);
      const dead = await readDead(broker.prefix, 1);
      assert.ok(dead.some((body) => body.includes(unreadable.id)));
      assert.equal((await pool.query('SELECT 1 FROM effects WHERE message_id = $1', [unreadable.id])).rowCount, 0);
      await consumer.drain();
    });

    it('when an event is dead-lettered, then gateway_consumer_dead_letters counts it against the consumed queue until it is taken away', async () => {
      const consumer = newConsumer();
      await broker.register(consumer);
      const queue = `${broker.prefix}.probe`;
      const deadLetters = async () => {
        const line = (await renderMetrics()).body.split('\n').find((l) => l.startsWith('gateway_consumer_dead_letters{') && l.includes(`queue="${queue}"`));
        return line === undefined ? undefined : Number(line.split(' ').pop());
      };
      const before = await deadLetters();
      assert.equal(typeof before, 'number', 'no gateway_consumer_dead_letters series for the consumed queue');
      await publishRaw(broker.prefix, 'not json at all');
      await publishRaw(broker.prefix, 'not json either');
      await until(async () => (await deadLetters()) === (before ?? 0) + 2, 10_000);
      await readDead(broker.prefix, 2);
      assert.equal(await deadLetters(), before);
      await consumer.drain();
    });

    it('when the broker closes the relay’s channel with an error, then the process survives, reconnects and publishes', async () => {
      const service = newBroker('session');
      const serviceRelay = new OutboxRelay(service, { pool, log, pollMs: 100 });
      await relay.pause();
      try {
        await service.start();
        await service.register(serviceRelay);
        // Publishing to an exchange that no longer exists is a channel error (404 NOT_FOUND).
        const connection = await connect(amqpUrl);
        const channel = await connection.createChannel();
        await channel.deleteExchange(service.names.events);
        await connection.close();
        const event = canceledEvent();
        await withTransaction(pool, (tx) => enqueue(tx, [event]));
        serviceRelay.wake();
        // The reconnect declares the exchange again, and the row leaves.
        await until(async () => (await pool.query('SELECT 1 FROM outbox WHERE message_id = $1', [event.id])).rowCount === 0, 10_000);
        assert.equal(service.connected, true);
      } finally {
        await service.stop();
        relay.resume();
      }
    });

    /** How many deliveries of each event the probe's consumers took (fromEvent runs once per delivery). */
    const deliveries = new Map<string, number>();

    /** The probe's change: an effect row keyed on the event's id, after `before` (which may fail). */
    function probeChange(before?: (id: string) => Promise<unknown>): Change<'session.canceled', string, true> {
      return {
        name: 'probe-effect',
        events: ['session.canceled'],
        fromEvent: (_data, context) => {
          const id = context.event?.id ?? '';
          deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
          return id;
        },
        apply: async (id) => {
          await before?.(id);
          const inserted = await pool.query('INSERT INTO effects (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
          return inserted.rowCount === 1 ? true : undefined;
        },
      };
    }

    function newConsumer(before?: (id: string) => Promise<unknown>): EventConsumer {
      return new EventConsumer(broker, {
        service: 'session',
        subscription: { queue: `${broker.prefix}.probe`, patterns: ['session.canceled'] },
        log,
        retryDelayMs: 20,
        unavailableRetry: { first: 20, max: 100 },
        changes: [probeChange(before)],
      });
    }

    /** gateway_changes_total of the probe's change by `path` and `outcome`, in this process. */
    async function changesCounted(path: string, outcome: string): Promise<number> {
      const line = (await renderMetrics()).body
        .split('\n')
        .find((l) => l.startsWith('gateway_changes_total{') && l.includes('change="probe-effect"') && l.includes(`path="${path}"`) && l.includes(`outcome="${outcome}"`));
      return line === undefined ? 0 : Number(line.split(' ').pop());
    }
  });

  async function publishRaw(prefix: string, message: Envelope | string, routingKey = 'session.canceled'): Promise<void> {
    const connection = await connect(amqpUrl);
    try {
      const channel = await connection.createConfirmChannel();
      const body = typeof message === 'string' ? message : JSON.stringify(message);
      channel.publish(`${prefix}.events`, routingKey, Buffer.from(body), { persistent: true });
      await channel.waitForConfirms();
    } finally {
      await connection.close();
    }
  }

  async function readDead(prefix: string, count: number): Promise<string[]> {
    const connection = await connect(amqpUrl);
    const bodies: string[] = [];
    try {
      const channel = await connection.createChannel();
      await until(async () => {
        const msg = await channel.get(`${prefix}.probe.dead`, { noAck: true });
        if (msg) bodies.push(msg.content.toString());
        return bodies.length >= count;
      }, 20_000);
    } finally {
      await connection.close();
    }
    return bodies;
  }
});
