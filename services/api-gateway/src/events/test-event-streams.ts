/**
 * The test-mode event streams behind GET /gateway/events/stream/ (`gateway
 * listen`): each open stream has its own exclusive, auto-deleted queue bound to
 * the webhook events, so the broker keeps nothing and costs nothing while no
 * developer listens, and a closed stream leaves no queue behind. Events of
 * other merchants and of live mode are dropped here: routing keys carry only
 * the event type, so the filter cannot sit in the broker.
 */
import type { Channel, ChannelModel } from 'amqplib';
import { bindingKeys, PAYMENT_METHOD_EVENTS, WEBHOOK_EVENTS, webhookBody, type Envelope, type PaymentMethodEventData, type SessionEventData } from '@gateway/contracts';
import { decodeEnvelope, fromItsPublisher, type Broker, type BrokerComponent } from '@gateway/messaging';

/** One stream's receiver of the webhook bodies of its merchant's test-mode events. */
export interface StreamSink {
  event(id: string, type: string, body: string): void;
  /** The broker connection went (or the gateway stops): the client reconnects. */
  end(): void;
}

export class TestEventStreams implements BrokerComponent {
  private connection: ChannelModel | undefined;
  private readonly open = new Set<{ channel: Channel; sink: StreamSink; merchantId: string }>();

  /** `maxPerMerchant` bounds one account's streams on this replica: each holds a channel of the gateway's one broker connection. */
  constructor(
    private readonly broker: Broker,
    private readonly maxPerMerchant: number,
  ) {}

  /** Whether `merchantId` may open one more stream here. */
  hasRoomFor(merchantId: string): boolean {
    let count = 0;
    for (const stream of this.open) if (stream.merchantId === merchantId) count++;
    return count < this.maxPerMerchant;
  }

  attach(connection: ChannelModel): Promise<void> {
    this.connection = connection;
    return Promise.resolve();
  }

  detach(): void {
    this.connection = undefined;
    this.closeAll();
  }

  /** Ends every stream, for a graceful stop: an endless answer would hold the server open. */
  closeAll(): void {
    for (const stream of this.open) stream.sink.end();
    this.open.clear();
  }

  /**
   * Subscribes `sink` to `merchantId`'s test-mode events; resolves once the
   * queue is bound, so nothing published after that is missed. The returned
   * function unsubscribes. Throws when the broker is away.
   */
  async subscribe(merchantId: string, sink: StreamSink): Promise<() => void> {
    const connection = this.connection;
    const service = this.broker.service;
    if (!connection || !service) throw new Error('the broker is not connected');
    const channel = await this.broker.createChannel(connection);
    const { queue } = await channel.assertQueue(this.broker.names.broadcastQueue(service), { exclusive: true, autoDelete: true, durable: false });
    for (const key of [...WEBHOOK_EVENTS, ...PAYMENT_METHOD_EVENTS].flatMap(bindingKeys)) await channel.bindQueue(queue, this.broker.names.events, key);
    const stream = { channel, sink, merchantId };
    await channel.consume(
      queue,
      (msg) => {
        if (!msg) return;
        let envelope: Envelope<SessionEventData | PaymentMethodEventData>;
        try {
          envelope = decodeEnvelope(msg.content) as Envelope<SessionEventData | PaymentMethodEventData>;
        } catch {
          // The webhook dispatcher dead-letters what it cannot read; a stream has nothing to add.
          return;
        }
        if (!fromItsPublisher(this.broker, msg, envelope, 'broadcast')) return;
        const livemode = 'session' in envelope.data ? envelope.data.session.livemode : envelope.data.livemode;
        if (envelope.data.merchant_id !== merchantId || livemode) return;
        sink.event(envelope.id, envelope.type, webhookBody(envelope));
      },
      { noAck: true },
    );
    this.open.add(stream);
    return () => {
      this.open.delete(stream);
      // Closing the channel cancels its consumer, and the auto-deleted queue goes with it.
      void channel.close().catch(() => undefined);
    };
  }
}
