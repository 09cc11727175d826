/**
 * A consumer with manual acks whose in-flight handlers are tracked, so that a
 * graceful stop can cancel the subscription and wait for what was delivered.
 */
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { gauge } from '@gateway/observability';
import type { Broker, BrokerComponent } from './broker.js';
import { traceDelivery } from './trace-context.js';

/** The consumers of this process whose queue depth the lag gauge reads at scrape time. */
const consumers = new Set<QueueConsumer>();

/**
 * The lag gauge, and the dead-letter gauge of the consumed queues that have a
 * dead-letter queue, registered by the first consumer to attach: a process
 * that consumes nothing shows none.
 */
function registerLagGauge(): void {
  gauge('gateway_consumer_messages_ready', 'Messages ready (not yet delivered) in each durable queue this process consumes, read at scrape time.', ['queue'], async (g) => {
    g.reset();
    const depths = await Promise.all([...consumers].map((consumer) => consumer.depth()));
    for (const depth of depths) if (depth) g.set({ queue: depth.queue }, depth.messages);
  });
  // Dead letters wait for an operator (kept a week): an alert on this gauge is how one learns of them.
  gauge('gateway_consumer_dead_letters', 'Messages in the dead-letter queue of each durable queue this process consumes (label: the consumed queue), read at scrape time.', ['queue'], async (g) => {
    g.reset();
    const depths = await Promise.all([...consumers].map((consumer) => consumer.deadLetterDepth()));
    for (const depth of depths) if (depth) g.set({ queue: depth.queue }, depth.messages);
  });
}

export abstract class QueueConsumer implements BrokerComponent {
  private channel: Channel | undefined;
  private consumerTag: string | undefined;
  private queue: string | undefined;
  private stopping = false;
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
      if (!msg) {
        // The broker ended the subscription: the queue was deleted, or lost with its node (D23).
        if (!this.stopping) this.broker.reconnect(`the broker cancelled the subscription to ${queue}`);
        return;
      }
      const work = traceDelivery(msg, queue, () => this.handle(channel, msg)).finally(() => this.inFlight.delete(work));
      this.inFlight.add(work);
    });
    this.channel = channel;
    this.consumerTag = consumerTag;
    this.queue = queue;
    consumers.add(this);
    registerLagGauge();
  }

  /** Messages ready in the consumed queue, asked of the broker on this consumer's channel; undefined while detached. */
  async depth(): Promise<{ queue: string; messages: number } | undefined> {
    const { channel, queue } = this;
    if (!channel || !queue) return undefined;
    try {
      const { messageCount } = await channel.checkQueue(queue);
      return { queue, messages: messageCount };
    } catch {
      return undefined;
    }
  }

  /** The dead-letter queue of the consumed queue `queue`, when it has one; none by default. */
  protected deadLetterQueue(_queue: string): string | undefined {
    return undefined;
  }

  /** Messages in the consumed queue's dead-letter queue (label: the consumed queue); undefined without one or while detached. */
  async deadLetterDepth(): Promise<{ queue: string; messages: number } | undefined> {
    const { channel, queue } = this;
    const dead = queue && this.deadLetterQueue(queue);
    if (!channel || !queue || !dead) return undefined;
    try {
      const { messageCount } = await channel.checkQueue(dead);
      return { queue, messages: messageCount };
    } catch {
      return undefined;
    }
  }

  /**
   * Whether a delivery taken on `channel` is still this consumer's to finish:
   * it still holds that channel and is not stopping. A handler that tries
   * again in process (its database away for a while) asks before each try.
   */
  protected holds(channel: Channel): boolean {
    return !this.stopping && this.channel === channel;
  }

  detach(): void {
    this.channel = undefined;
    this.consumerTag = undefined;
    consumers.delete(this);
  }

  async drain(): Promise<void> {
    this.stopping = true;
    if (this.channel && this.consumerTag) await this.channel.cancel(this.consumerTag).catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    consumers.delete(this);
  }
}

/** Acks or nacks a delivery; on a channel that closed it is moot: the broker redelivers. */
export function acknowledge(action: () => void): void {
  try {
    action();
  } catch {
    // channel closed
  }
}
