/**
 * A consumer with manual acks whose in-flight handlers are tracked, so that a
 * graceful stop can cancel the subscription and wait for what was delivered.
 */
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import type { Broker, BrokerComponent } from './broker.js';

export abstract class QueueConsumer implements BrokerComponent {
  private channel: Channel | undefined;
  private consumerTag: string | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    protected readonly broker: Broker,
    private readonly prefetch: number,
  ) {}

  /** Declares what the subscription needs on a fresh channel; returns the queue to consume. */
  protected abstract prepare(channel: Channel): Promise<string>;

  /** Handles one delivery; must ack or nack it on `channel`. */
  protected abstract handle(channel: Channel, msg: ConsumeMessage): Promise<void>;

  async attach(connection: ChannelModel): Promise<void> {
    const channel = await this.broker.createChannel(connection);
    const queue = await this.prepare(channel);
    await channel.prefetch(this.prefetch);
    const { consumerTag } = await channel.consume(queue, (msg) => {
      if (!msg) return;
      const work = this.handle(channel, msg).finally(() => this.inFlight.delete(work));
      this.inFlight.add(work);
    });
    this.channel = channel;
    this.consumerTag = consumerTag;
  }

  detach(): void {
    this.channel = undefined;
    this.consumerTag = undefined;
  }

  async drain(): Promise<void> {
    if (this.channel && this.consumerTag) await this.channel.cancel(this.consumerTag).catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
  }
}

/** Acks and nacks on a channel that closed are moot: the broker redelivers. */
export function settle(action: () => void): void {
  try {
    action();
  } catch {
    // channel closed
  }
}
