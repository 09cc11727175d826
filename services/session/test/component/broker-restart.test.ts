/**
 * An event committed while the broker goes away is not lost: RabbitMQ is
 * restarted between a session's cancel and the outbox relay's publish, and
 * a durable consumer whose change is keyed on the event's id still applies
 * session.canceled exactly once.
 */
import assert from 'node:assert/strict';
import { connect } from 'amqplib';
import type { EventData, SessionDetail } from '@gateway/contracts';
import { createPool, migrate, type Pool } from '@gateway/db';
import { Broker, EventConsumer, messagingMigrations, RpcClient, type ChangeContext } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import { createTestDatabase, deleteBrokerObjects, linkKeys, operatorKeys, sessionRequest, testEnvironment, uniqueName, type TestDatabase } from '@gateway/testkit';
import { loadSessionConfig, startSessionService, type SessionService } from '../../src/service.js';

const log = createLogger({ service: 'test', level: 'silent' });
const MERCHANT = `mer_${'r'.repeat(24)}`;

describe('session.canceled across a broker restart', function () {
  this.timeout(180_000);
  let db: TestDatabase;
  let probePool: Pool;
  let service: SessionService;
  let client: Broker;
  let consumerBroker: Broker;
  const prefix = uniqueName('t');
  /** Deliveries of session.canceled the probe consumer took. */
  let deliveriesTaken = 0;

  before(async () => {
    const env = await testEnvironment();
    db = await createTestDatabase(['session']);
    await db.query('CREATE SCHEMA probe');
    await migrate(db.adminUrl, 'probe', [messagingMigrations]);
    await db.query('CREATE TABLE probe.received (message_id text PRIMARY KEY, session_id text NOT NULL)');
    probePool = createPool({ url: db.adminUrl, schema: 'probe' });

    const config = loadSessionConfig({
      DATABASE_URL: db.urlFor('session'),
      AMQP_URL: env.amqpUrl,
      BROKER_SHARED_USER: 'true',
      BROKER_PREFIX: prefix,
      PORT: '0',
      LINK_SIGNING_KEY: linkKeys().privateJwk,
      OPERATOR_PUBLIC_KEYS: operatorKeys('op').publicJwk,
    });
    service = await startSessionService(config, log);

    consumerBroker = new Broker({ url: env.amqpUrl, prefix, log, reconnectMaxMs: 500 });
    await consumerBroker.start();
    await consumerBroker.register(
      new EventConsumer(consumerBroker, {
        service: 'session',
        subscription: { queue: `${prefix}.probe`, patterns: ['session.canceled'] },
        log,
        changes: [
          {
            name: 'probe-received',
            events: ['session.canceled'],
            fromEvent: (data: EventData<'session.canceled'>, context: ChangeContext) => ({ messageId: context.event?.id ?? '', sessionId: data.session.id }),
            apply: async (received: { messageId: string; sessionId: string }) => {
              deliveriesTaken += 1;
              const inserted = await probePool.query('INSERT INTO received (message_id, session_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [received.messageId, received.sessionId]);
              return inserted.rowCount === 1 ? true : undefined;
            },
          },
        ],
      }),
    );
    client = new Broker({ url: env.amqpUrl, prefix, log, reconnectMaxMs: 500 });
    await client.start();
  });

  after(async () => {
    await client?.stop();
    await consumerBroker?.stop();
    await service?.stop();
    await probePool?.end();
    await db?.drop();
    await deleteBrokerObjects(prefix, [`${prefix}.probe`, `${prefix}.probe.dead`]);
  });

  it('when RabbitMQ restarts before the relay publishes, then the event arrives once, and a second publish changes nothing', async () => {
    const rpc = await client.register(new RpcClient(client, 5_000));
    const context = { merchant_id: MERCHANT, livemode: false, order_prefix: 'TST', merchant_name: 'Test shop', request_id: 'req-restart' };
    const created = await rpc.call('session.create', { context, body: sessionRequest() });
    assert.equal(created.status, 201);
    const session = created.body as SessionDetail;
    await service.relay.pause();
    await rpc.call('session.cancel', { context, session_id: session.id });
    const outbox = await db.query<{ message_id: string; body: string }>('SELECT message_id, body FROM session.outbox');
    assert.equal(outbox.length, 1);

    const env = await testEnvironment();
    await env.restartBroker();
    assert.ok(await consumerBroker.waitForConnection(30_000), 'the consumer reconnected');
    service.relay.resume();

    await waitFor(async () => (await probePool.query('SELECT 1 FROM received WHERE session_id = $1', [session.id])).rowCount === 1, 30_000);
    await waitFor(async () => (await db.query('SELECT 1 FROM session.outbox')).length === 0, 10_000);

    // The broker may deliver a message again (an unconfirmed publish repeated by the relay): simulate it.
    const taken = deliveriesTaken;
    const connection = await connect(env.amqpUrl);
    const channel = await connection.createConfirmChannel();
    channel.publish(`${prefix}.events`, 'session.canceled', Buffer.from(outbox[0]?.body ?? ''), { persistent: true });
    await channel.waitForConfirms();
    await connection.close();
    await waitFor(async () => deliveriesTaken > taken, 5_000);

    const received = await probePool.query('SELECT message_id FROM received WHERE session_id = $1', [session.id]);
    assert.equal(received.rowCount, 1);
    assert.equal(received.rows[0]?.message_id, outbox[0]?.message_id);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
