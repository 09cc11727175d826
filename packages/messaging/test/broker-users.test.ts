/**
 * One broker user per service (D17), against a real RabbitMQ: each service's
 * user does what its service needs and nothing of another's. The users and
 * permissions are those the definitions carry (testkit creates them for a
 * fresh prefix, as every test system does).
 */
import assert from 'node:assert/strict';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { Broker, brokerUser, CommandServer, declarationsFor, EventConsumer, namesFor, permissionsFor, RpcClient, BROKER_PRINCIPALS } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import { deleteBrokerObjects, newBrokerPrefix, type BrokerUrls } from '@gateway/testkit';

const log = createLogger({ service: 'broker-users-test', level: 'silent' });
const MERCHANT = `mer_${'a'.repeat(24)}`;

/** The AMQP reply code of a failed operation (403 ACCESS_REFUSED), or 'none' when it succeeded. */
async function replyCode(operation: Promise<unknown>): Promise<number | 'none'> {
  try {
    await operation;
    return 'none';
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

describe('broker users (D17)', function () {
  this.timeout(30_000);
  let prefix: string;
  let names: ReturnType<typeof namesFor>;
  let urls: BrokerUrls;
  const brokers: Broker[] = [];
  const connections: ChannelModel[] = [];

  /** A raw connection as `url`'s user and a channel whose server-side closing is recorded. */
  async function channelAs(url: string): Promise<{ channel: Channel; closed: () => boolean }> {
    const connection = await connect(url);
    connection.on('error', () => undefined);
    connections.push(connection);
    const channel = await connection.createChannel();
    let closed = false;
    channel.on('error', () => undefined);
    channel.on('close', () => {
      closed = true;
    });
    return { channel, closed: () => closed };
  }

  before(async () => {
    ({ prefix, urls } = await newBrokerPrefix());
    names = namesFor(prefix);
    // The acquirer adapter and the webhook dispatcher declare their own queues as their own users.
    for (const service of ['acquirer-adapter', 'webhook-dispatcher'] as const) {
      const broker = new Broker({ url: urls[service], prefix, service, log });
      brokers.push(broker);
      await broker.start();
    }
  });

  after(async () => {
    for (const connection of connections) await connection.close().catch(() => undefined);
    for (const broker of brokers) await broker.stop();
    await deleteBrokerObjects(prefix);
  });

  it("when the webhook dispatcher's user consumes either of the acquirer adapter's command queues, then the broker refuses it (403) and closes the channel", async () => {
    for (const lane of ['fast', 'slow'] as const) {
      const { channel, closed } = await channelAs(urls['webhook-dispatcher']);
      assert.equal(await replyCode(channel.consume(names.commandQueue('acquirer-adapter', lane), () => undefined)), 403, lane);
      assert.ok(closed(), `the channel stayed open (${lane})`);
      const again = await channelAs(urls['webhook-dispatcher']);
      assert.equal(await replyCode(again.channel.get(names.commandQueue('acquirer-adapter', lane))), 403, `basic.get was allowed (${lane})`);
    }
  });

  it("when a service's user declares, binds, purges or deletes another service's queue, then each is refused (403)", async () => {
    const other = names.commandQueue('acquirer-adapter');
    const attempts: Record<string, (channel: Channel) => Promise<unknown>> = {
      declare: (channel) => channel.assertQueue(other, { durable: false, arguments: { 'x-queue-type': 'classic' } }),
      'bind to the events exchange': (channel) => channel.bindQueue(other, names.events, '#'),
      purge: (channel) => channel.purgeQueue(other),
      delete: (channel) => channel.deleteQueue(other),
      'declare a queue outside its namespace': (channel) => channel.assertQueue(`${prefix}.stolen`, { exclusive: true }),
    };
    for (const [what, attempt] of Object.entries(attempts)) {
      const { channel } = await channelAs(urls['webhook-dispatcher']);
      assert.equal(await replyCode(attempt(channel)), 403, `${what} was allowed`);
    }
  });

  it('when a service binds its own queue to events it does not subscribe to, or redeclares the shared exchange, then the broker refuses (403)', async () => {
    const ownQueue = names.eventQueue('webhook-dispatcher');
    const bind = await channelAs(urls['webhook-dispatcher']);
    assert.equal(await replyCode(bind.channel.bindQueue(ownQueue, names.events, 'payment.approved')), 403, 'bound to payment.approved');
    const all = await channelAs(urls['webhook-dispatcher']);
    assert.equal(await replyCode(all.channel.bindQueue(ownQueue, names.events, '#')), 403, 'bound to every event');
    const exchange = await channelAs(urls.session);
    assert.equal(await replyCode(exchange.channel.assertExchange(names.events, 'topic', { durable: true })), 403, 'declared the events exchange');
    const remove = await channelAs(urls.session);
    assert.equal(await replyCode(remove.channel.deleteExchange(names.events)), 403, 'deleted the events exchange');
  });

  it("when the operators' user consumes or declares a queue, then the broker refuses (403); it may only send commands", async () => {
    const consume = await channelAs(urls['gateway-admin']);
    assert.equal(await replyCode(consume.channel.consume(names.eventQueue('webhook-dispatcher'), () => undefined)), 403);
    const declare = await channelAs(urls['gateway-admin']);
    assert.equal(await replyCode(declare.channel.assertQueue('', { exclusive: true })), 403);
  });

  it("when a service calls another's command as its own user, then the reply comes back over direct reply-to", async () => {
    // The adapter serves as its own user; the session, which may send terminal.check, calls as its own.
    const server = new Broker({ url: urls['acquirer-adapter'], prefix, service: 'acquirer-adapter', log });
    brokers.push(server);
    await server.start();
    await server.register(new CommandServer(server, { service: 'acquirer-adapter', log, handlers: { 'terminal.check': async () => ({ body: { status: 'active' } }) } }));
    const client = new Broker({ url: urls.session, prefix, service: 'session', log });
    brokers.push(client);
    await client.start();
    const rpc = await client.register(new RpcClient(client, 5_000));
    const { body } = await rpc.call('terminal.check', { merchant_id: MERCHANT });
    assert.deepEqual(body, { status: 'active' });
  });

  it("when the ledger runs as its own user, then it declares its event queue, asks the session service (session.get), and may neither bind to an event it does not record nor read another service's queue", async () => {
    const ledger = new Broker({ url: urls.ledger, prefix, service: 'ledger', log });
    brokers.push(ledger);
    await ledger.start();
    const session = new Broker({ url: urls.session, prefix, service: 'session', log });
    brokers.push(session);
    await session.start();
    let asked = 0;
    const handlers = {
      'session.get': async () => {
        asked += 1;
        throw new AppError('not-found');
      },
    };
    await session.register(new CommandServer(session, { service: 'session', log, handlers }));
    const rpc = await ledger.register(new RpcClient(ledger, 5_000));
    const context = { merchant_id: MERCHANT, livemode: false, order_prefix: 'T1', merchant_name: 'Test', request_id: 'req_ledger' };
    // The session's handler ran and its answer came back: the session accepts session.get from the ledger's user.
    await assert.rejects(rpc.call('session.get', { context, session_id: 'ps_x' }), (err: AppError) => err.code === 'not-found');
    assert.equal(asked, 1);
    const bind = await channelAs(urls.ledger);
    assert.equal(await replyCode(bind.channel.bindQueue(names.eventQueue('ledger'), names.events, 'session.failed')), 403, 'bound to session.failed');
    const read = await channelAs(urls.ledger);
    assert.equal(await replyCode(read.channel.consume(names.eventQueue('webhook-dispatcher'), () => undefined)), 403, "read the dispatcher's events");
  });

  it("when the notifier runs as its own user, then it declares its event queue, and may neither bind to an event it sends no mail for nor read another service's queue", async () => {
    const notifier = new Broker({ url: urls.notifier, prefix, service: 'notifier', log });
    brokers.push(notifier);
    await notifier.start();
    await notifier.register(new EventConsumer(notifier, { service: 'notifier', log, changes: [] }));
    const bind = await channelAs(urls.notifier);
    assert.equal(await replyCode(bind.channel.bindQueue(names.eventQueue('notifier'), names.events, 'session.failed')), 403, 'bound to session.failed');
    const read = await channelAs(urls.notifier);
    assert.equal(await replyCode(read.channel.consume(names.eventQueue('ledger'), () => undefined)), 403, "read the ledger's events");
  });

  it("when the permissions are derived, then each queue of the system is configured and read by its own service's user alone", () => {
    const matching = (pattern: string, name: string) => new RegExp(pattern).test(name);
    for (const queue of declarationsFor(prefix).queues) {
      const owner = queue.name.slice(prefix.length + 1).split('.')[0];
      for (const principal of BROKER_PRINCIPALS) {
        const granted = permissionsFor(prefix, principal);
        const expected = principal === owner;
        assert.equal(matching(granted.configure, queue.name), expected, `${brokerUser(prefix, principal)} configure ${queue.name}`);
        assert.equal(matching(granted.read, queue.name), expected, `${brokerUser(prefix, principal)} read ${queue.name}`);
      }
      // Another system's queue of the same service is out of reach: the prefix anchors every pattern.
      assert.equal(matching(permissionsFor(`${prefix}0`, owner as never).read, queue.name), false);
    }
  });
});
