/**
 * The attempts waiting to be sent, one queue per endpoint (scheme, host and
 * port), served round-robin. One endpoint holds at most `perEndpoint` of the
 * `total` sending slots, so an endpoint that hangs or crawls slows only its
 * own deliveries; every other merchant's keep flowing. Each endpoint keeps at
 * most `backlog` attempts in memory: the rest are turned away (they wait in
 * the database) and the endpoint is "full" until its queue is down to half,
 * when `onRoom` asks for more.
 */
export interface QueueLimits {
  total: number;
  perEndpoint: number;
  backlog: number;
}

interface EndpointQueue<T> {
  readonly key: string;
  readonly waiting: T[];
  active: number;
  /** Whether the endpoint is in the ready ring. */
  ready: boolean;
  /** Whether attempts were turned away since the queue was last down to half. */
  full: boolean;
}

export class DeliveryQueue<T extends { deliveryId: string; url: string }> {
  private readonly endpoints = new Map<string, EndpointQueue<T>>();
  private readonly ring: EndpointQueue<T>[] = [];
  private readonly known = new Set<string>();
  private active = 0;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(
    private readonly limits: QueueLimits,
    private readonly send: (item: T) => Promise<void>,
    /** A full endpoint has room again: its attempts waiting in the database can come. */
    private readonly onRoom: () => void = () => undefined,
  ) {}

  /** Queues `item` unless it is already queued or in flight here; false when it was turned away. */
  push(item: T): boolean {
    if (this.known.has(item.deliveryId)) return true;
    const key = endpointKey(item.url);
    let endpoint = this.endpoints.get(key);
    if (!endpoint) {
      endpoint = { key, waiting: [], active: 0, ready: false, full: false };
      this.endpoints.set(key, endpoint);
    }
    if (endpoint.waiting.length >= this.limits.backlog) {
      endpoint.full = true;
      return false;
    }
    endpoint.waiting.push(item);
    this.known.add(item.deliveryId);
    this.markReady(endpoint);
    this.pump();
    return true;
  }

  /** Attempts queued but not started, taken out of the queue (for a stop). */
  takeWaiting(): T[] {
    const taken: T[] = [];
    for (const endpoint of this.endpoints.values()) {
      for (const item of endpoint.waiting.splice(0)) {
        this.known.delete(item.deliveryId);
        taken.push(item);
      }
    }
    this.ring.length = 0;
    for (const endpoint of this.endpoints.values()) endpoint.ready = false;
    return taken;
  }

  /** The endpoints that turned attempts away and have no room yet. */
  fullEndpoints(): string[] {
    return [...this.endpoints.values()].filter((e) => e.full).map((e) => e.key);
  }

  /** Attempts in flight. */
  get inFlight(): number {
    return this.active;
  }

  /** Resolves when nothing is in flight. */
  async drained(): Promise<void> {
    if (this.active === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private markReady(endpoint: EndpointQueue<T>): void {
    if (!endpoint.ready && endpoint.waiting.length > 0 && endpoint.active < this.limits.perEndpoint) {
      endpoint.ready = true;
      this.ring.push(endpoint);
    }
  }

  private pump(): void {
    while (this.active < this.limits.total && this.ring.length > 0) {
      const endpoint = this.ring.shift() as EndpointQueue<T>;
      endpoint.ready = false;
      const item = endpoint.waiting.shift();
      if (!item) continue;
      endpoint.active += 1;
      this.active += 1;
      if (endpoint.full && endpoint.waiting.length <= this.limits.backlog / 2) {
        endpoint.full = false;
        this.onRoom();
      }
      // Back of the ring: the next slot goes to another endpoint first.
      this.markReady(endpoint);
      void this.send(item)
        .catch(() => undefined)
        .finally(() => this.finished(endpoint, item));
    }
  }

  private finished(endpoint: EndpointQueue<T>, item: T): void {
    endpoint.active -= 1;
    this.active -= 1;
    this.known.delete(item.deliveryId);
    if (endpoint.active === 0 && endpoint.waiting.length === 0) this.endpoints.delete(endpoint.key);
    else this.markReady(endpoint);
    this.pump();
    if (this.active === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}

/**
 * Attempts to one scheme, host and port share a budget: they share a server.
 * The key is the URL up to its path, lower-cased; the database computes the
 * same (ENDPOINT_KEY_SQL) to tell which waiting attempts belong to a full endpoint.
 */
export function endpointKey(url: string): string {
  return (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? url).toLowerCase();
}

/** endpointKey in SQL, over a column `url`. */
export const ENDPOINT_KEY_SQL = `lower(coalesce(substring(url from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*'), url))`;
