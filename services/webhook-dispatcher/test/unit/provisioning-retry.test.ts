/**
 * merchant.created and merchant.kyb_approved at the dispatcher's event
 * consumer (EventConsumer with the dispatcher's changes), on a stand-in
 * channel: a provisioning that fails for a moment (the database restarting)
 * is tried again in process, as a webhook event's storing is, instead of going
 * back to the queue at once, where a few seconds' outage would spend the
 * event's delivery limit and dead-letter it, leaving the merchant without an
 * endpoint.
 */
import { strict as assert } from 'node:assert';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { newId, type EventData } from '@gateway/contracts';
import { Broker, EventConsumer } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import type { EventRepository } from '../../src/db/event.repository.js';
import { dispatcherEvents, type EndpointProvisioning } from '../../src/messaging/webhook-dispatcher.events.js';

const log = createLogger({ service: 'provisioning-retry-test', level: 'silent' });
const MERCHANT = `mer_${'p'.repeat(24)}`;

/** A channel that records acks and nacks and hands the consumer's callback to the test. */
class StandInChannel {
  readonly acked: ConsumeMessage[] = [];
  readonly nacked: { msg: ConsumeMessage; requeue: boolean | undefined }[] = [];
  deliver: ((msg: ConsumeMessage | null) => void) | undefined;
  on(): this {
    return this;
  }
  async assertQueue(): Promise<void> {}
  async bindQueue(): Promise<void> {}
  async prefetch(): Promise<void> {}
  async consume(_queue: string, onMessage: (msg: ConsumeMessage | null) => void): Promise<{ consumerTag: string }> {
    this.deliver = onMessage;
    return { consumerTag: 'stand-in' };
  }
  async cancel(): Promise<void> {}
  ack(msg: ConsumeMessage): void {
    this.acked.push(msg);
  }
  nack(msg: ConsumeMessage, _allUpTo?: boolean, requeue?: boolean): void {
    this.nacked.push({ msg, requeue });
  }
}

function delivery(type: 'merchant.created' | 'merchant.kyb_approved', data: Record<string, unknown>): ConsumeMessage {
  const envelope = { id: newId('evt'), type, version: 1, occurred_at: new Date().toISOString(), correlation_id: 'c', data };
  return {
    content: Buffer.from(JSON.stringify(envelope)),
    fields: { deliveryTag: 1, redelivered: false, exchange: 'x.events', routingKey: type, consumerTag: 'stand-in' },
    properties: { headers: {} },
  } as unknown as ConsumeMessage;
}

describe('webhook dispatcher: provisioning a merchant endpoint from its event', () => {
  async function consumerWith(provisioning: EndpointProvisioning): Promise<{ channel: StandInChannel; consumer: EventConsumer }> {
    // Never connected: the consumer is attached to a stand-in connection by hand.
    const broker = new Broker({ url: 'amqp://unused', prefix: 'unit', service: 'webhook-dispatcher', sharedUser: true, log });
    const channel = new StandInChannel();
    const connection = { createChannel: async () => channel as unknown as Channel } as unknown as ChannelModel;
    const consumer = new EventConsumer(broker, {
      service: 'webhook-dispatcher',
      changes: dispatcherEvents({} as EventRepository, () => undefined, provisioning),
      log,
      prefetch: 8,
      unavailableRetry: { first: 10, max: 20 },
      retryDelayMs: 10,
    });
    await consumer.attach(connection);
    return { channel, consumer };
  }

  it('when provisioning fails once (its database away for a moment), then it is tried again in process and the event acked, never handed back to the queue', async () => {
    const calls: EventData<'merchant.created'>[] = [];
    const { channel, consumer } = await consumerWith({
      created: async (created) => {
        calls.push(created);
        if (calls.length === 1) throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
        return true;
      },
      kybApproved: async () => true,
    });
    const msg = delivery('merchant.created', { merchant_id: MERCHANT, name: 'Shop', order_prefix: 'SH' });
    channel.deliver?.(msg);
    while (channel.acked.length + channel.nacked.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await consumer.drain();
    assert.equal(calls.length, 2);
    assert.deepEqual(calls[1], { merchant_id: MERCHANT, name: 'Shop', order_prefix: 'SH' });
    assert.deepEqual(channel.nacked, []);
    assert.deepEqual(channel.acked, [msg]);
  });

  it('when the consumer stops while provisioning keeps failing, then the event goes back to the queue (requeued, not dead-lettered)', async () => {
    let calls = 0;
    const { channel, consumer } = await consumerWith({
      created: async () => true,
      kybApproved: async () => {
        calls += 1;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      },
    });
    const msg = delivery('merchant.kyb_approved', { merchant_id: MERCHANT });
    channel.deliver?.(msg);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await consumer.drain();
    assert.ok(calls >= 1);
    assert.deepEqual(channel.acked, []);
    assert.deepEqual(channel.nacked, [{ msg, requeue: true }]);
  });

  it('when provisioning fails for another reason than an outage (a fault of its own), then it is not tried again in process: the event goes back to the queue, whose delivery limit dead-letters it', async () => {
    let calls = 0;
    const { channel, consumer } = await consumerWith({
      created: async () => {
        calls += 1;
        throw new TypeError('cannot read properties of undefined');
      },
      kybApproved: async () => true,
    });
    const msg = delivery('merchant.created', { merchant_id: MERCHANT, name: 'Shop', order_prefix: 'SH' });
    channel.deliver?.(msg);
    while (channel.acked.length + channel.nacked.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await consumer.drain();
    assert.equal(calls, 1);
    assert.deepEqual(channel.acked, []);
    assert.deepEqual(channel.nacked, [{ msg, requeue: true }]);
  });
});
