/**
 * A merchant's webhook endpoint for tests: a real HTTP server on 127.0.0.1
 * that records every request (raw body bytes, headers, arrival time) and
 * answers as the test tells it: a status, a redirect, or never (a hang).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  /** Arrival time, epoch ms. */
  at: number;
  path: string;
  headers: IncomingMessage['headers'];
  raw: Buffer;
  /** The body parsed as JSON. */
  body: { id: string; event: string; created_at: string; data: Record<string, unknown> };
  eventId: string;
  signature: string;
}

/** What to answer: a status (with an optional Location and body, after an optional delay), or 'hang' to never answer. */
type Answer = { status: number; location?: string; delayMs?: number; body?: string } | 'hang';

/** Chooses the answer to the n-th request (0-based). */
export type Responder = (request: ReceivedWebhook, index: number) => Answer;

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly held = new Set<ServerResponse>();
  private waiters: { test: () => boolean; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    public answer: Responder,
  ) {}

  static async start(answer: Responder = () => ({ status: 200 })): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server, answer);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => receiver.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The receiver's URL, on `path`. */
  url(path = '/hooks'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests that carried event `eventId`. */
  forEvent(eventId: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.eventId === eventId);
  }

  /** Resolves once `test` holds over what was received; rejects after `timeoutMs`. */
  async waitFor(test: (received: readonly ReceivedWebhook[]) => boolean, timeoutMs = 10_000): Promise<void> {
    if (test(this.received)) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`webhook receiver: condition not met within ${timeoutMs} ms (${this.received.length} received)`));
      }, timeoutMs);
      const waiter = {
        test: () => test(this.received),
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Answers every held (hanging) request with `status`. */
  release(status = 200): void {
    for (const res of this.held) if (!res.destroyed) res.writeHead(status).end();
    this.held.clear();
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.held.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: ReceivedWebhook['body'];
      try {
        body = JSON.parse(raw.toString('utf8')) as ReceivedWebhook['body'];
      } catch {
        body = { id: '', event: '', created_at: '', data: {} };
      }
      const request: ReceivedWebhook = {
        at: Date.now(),
        path: req.url ?? '',
        headers: req.headers,
        raw,
        body,
        eventId: String(req.headers['x-service-webhook-id'] ?? ''),
        signature: String(req.headers['x-service-signature'] ?? ''),
      };
      const index = this.received.length;
      this.received.push(request);
      const answer = this.answer(request, index);
      if (answer === 'hang') this.held.add(res);
      else if (answer.delayMs) {
        // A slow receiver: held like a hanging one (close() ends it), answered after the delay.
        this.held.add(res);
        setTimeout(() => {
          if (!this.held.delete(res) || res.destroyed) return;
          res.writeHead(answer.status, answer.location ? { location: answer.location } : {}).end(answer.body);
        }, answer.delayMs);
      } else res.writeHead(answer.status, answer.location ? { location: answer.location } : {}).end(answer.body);
      this.waiters = this.waiters.filter((w) => {
        if (!w.test()) return true;
        w.resolve();
        return false;
      });
    });
  }
}

/** The receivers one test file starts, closed together when it ends. */
export class WebhookReceivers {
  private readonly started: WebhookReceiver[] = [];

  async start(answer?: Responder): Promise<WebhookReceiver> {
    const receiver = await WebhookReceiver.start(answer);
    this.started.push(receiver);
    return receiver;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.started.splice(0).map((receiver) => receiver.close()));
  }
}
