/**
 * Trace context through the outbox and the broker, against real PostgreSQL and
 * RabbitMQ: with tracing off nothing is stored or sent; with it on, an outbox
 * row keeps the span of the transaction that wrote it, and the relay publishes
 * it in a producer span of that trace whose traceparent the message carries.
 */
import assert from 'node:assert/strict';
import { connect, type ChannelModel, type ConsumeMessage } from 'amqplib';
import { newId } from '@gateway/contracts';
import { createPool, migrate, withTransaction, type Pool } from '@gateway/db';
import { Broker, enqueue, eventEnvelope, messagingMigrations, namesFor, OutboxRelay } from '@gateway/messaging';
import { createLogger, currentTraceId, SpanKind, startTracing, traced, tracingOn } from '@gateway/observability';
import { createTestDatabase, deleteBrokerObjects, OTLP_SPAN_KIND, OtlpReceiver, testEnvironment, uniqueName, type TestDatabase } from '@gateway/testkit';

const log = createLogger({ service: 'trace-context-test', level: 'silent' });

function canceledEvent() {
  return eventEnvelope(
    'session.canceled',
    {
      merchant_id: `mer_${'a'.repeat(24)}`,
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
    'corr-trace',
  );
}

async function until<T>(check: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('trace context through the outbox and the broker', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let amqpUrl: string;
  const prefixes: string[] = [];

  before(async () => {
    amqpUrl = (await testEnvironment()).amqpUrl;
    db = await createTestDatabase([]);
    await db.query('CREATE SCHEMA probe');
    await migrate(db.adminUrl, 'probe', [messagingMigrations]);
  });
  after(async () => {
    await db?.drop();
    for (const prefix of prefixes) await deleteBrokerObjects(prefix, []);
  });

  /** A relay on its own prefix, held paused, and every message published on that prefix's events exchange. */
  async function relayAndCapture(pool: Pool): Promise<{ relay: OutboxRelay; messages: ConsumeMessage[]; close: () => Promise<void> }> {
    const prefix = uniqueName('t');
    prefixes.push(prefix);
    const broker = new Broker({ url: amqpUrl, prefix, log });
    const connection: ChannelModel = await connect(amqpUrl);
    const channel = await connection.createChannel();
    await channel.assertExchange(namesFor(prefix).events, 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    await channel.bindQueue(queue, namesFor(prefix).events, '#');
    const messages: ConsumeMessage[] = [];
    await channel.consume(queue, (msg) => msg && messages.push(msg), { noAck: true });
    await broker.start();
    const relay = new OutboxRelay(broker, { pool, log, pollMs: 60_000 });
    await relay.pause();
    await broker.register(relay);
    return {
      relay,
      messages,
      close: async () => {
        await broker.stop();
        await connection.close();
      },
    };
  }

  it('when tracing is off, then an outbox row keeps no trace context and its message carries no traceparent', async () => {
    assert.equal(tracingOn(), false);
    const pool = createPool({ url: db.adminUrl, schema: 'probe' });
    const { relay, messages, close } = await relayAndCapture(pool);
    try {
      const event = canceledEvent();
      await withTransaction(pool, (tx) => enqueue(tx, [event]));
      const { rows } = await pool.query<{ trace_context: string | null }>('SELECT trace_context FROM outbox WHERE message_id = $1', [event.id]);
      assert.deepEqual(rows, [{ trace_context: null }]);
      relay.resume();
      const message = await until(() => messages.find((m) => m.properties.messageId === event.id));
      assert.equal(message.properties.headers?.['traceparent'], undefined);
      assert.equal(currentTraceId(), undefined);
    } finally {
      await close();
      await pool.end();
    }
  });

  it('when tracing is on, then the row keeps the writing span, and the relay publishes it in a producer span of that trace whose traceparent the message carries', async () => {
    const otlp = await OtlpReceiver.start();
    process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] = otlp.endpoint();
    process.env['OTEL_BSP_SCHEDULE_DELAY'] = '50';
    const stopTracing = await startTracing('trace-context-test');
    delete process.env['OTEL_EXPORTER_OTLP_ENDPOINT'];
    delete process.env['OTEL_BSP_SCHEDULE_DELAY'];
    // Created while tracing is on: its statements are traced.
    const pool = createPool({ url: db.adminUrl, schema: 'probe' });
    const { relay, messages, close } = await relayAndCapture(pool);
    try {
      assert.equal(tracingOn(), true);
      const event = canceledEvent();
      const writer = await traced('POST /test', { kind: SpanKind.SERVER }, async (span) => {
        await withTransaction(pool, (tx) => enqueue(tx, [event]));
        return { traceId: currentTraceId(), spanId: span?.span.spanContext().spanId };
      });
      assert.match(writer.traceId ?? '', /^[0-9a-f]{32}$/);
      // Outside any span: the relay's own work starts no trace.
      assert.equal(currentTraceId(), undefined);

      const { rows } = await pool.query<{ trace_context: string }>('SELECT trace_context FROM outbox WHERE message_id = $1', [event.id]);
      const stored = JSON.parse(rows[0]?.trace_context ?? '{}') as Record<string, string>;
      assert.equal(stored['traceparent'], `00-${writer.traceId}-${writer.spanId}-01`);

      relay.resume();
      const message = await until(() => messages.find((m) => m.properties.messageId === event.id));
      const traceparent = String(message.properties.headers?.['traceparent'] ?? '');
      const [, traceId, producerSpanId] = traceparent.split('-');
      assert.equal(traceId, writer.traceId);

      await stopTracing();
      const spans = otlp.trace(writer.traceId ?? '');
      const producer = spans.find((s) => s.spanId === producerSpanId);
      assert.equal(producer?.kind, OTLP_SPAN_KIND.producer);
      assert.equal(producer?.name, 'publish session.canceled');
      assert.equal(producer?.parentSpanId, writer.spanId);
      assert.equal(producer?.attributes['messaging.rabbitmq.destination.routing_key'], 'session.canceled');
      assert.equal(producer?.attributes['messaging.message.id'], event.id);
      // The transaction's statements are children of the writing span; the relay's claim, under no span, is not traced.
      const statements = spans.filter((s) => s.attributes['db.system.name'] === 'postgresql');
      assert.deepEqual(statements.map((s) => s.name), ['BEGIN', 'outbox-enqueue', 'COMMIT']);
      assert.ok(statements.every((s) => s.parentSpanId === writer.spanId));
      assert.ok(!otlp.spans.some((s) => String(s.attributes['db.query.text']).includes('claimed_until')));
    } finally {
      await stopTracing();
      await close();
      await pool.end();
      await otlp.close();
    }
    assert.equal(tracingOn(), false);
  });
});
