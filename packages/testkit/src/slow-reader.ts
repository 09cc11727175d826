/**
 * A client that asks for a download and, once the answer's head has come,
 * reads no more: the server's export then waits on it once the sockets'
 * buffers are full (a few MB on loopback), holding its export slot (D29).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { payOnPage } from './checkout.js';
import { sessionRequest, type ApiClient, type ApiResponse } from './http.js';
import type { Merchant, TestSystem } from './system.js';

export class SlowReader {
  /** The answer's status, once its head has come. */
  readonly status: Promise<number>;
  readonly closed: Promise<void>;
  /** The request's X-Request-Id, which the server's log lines about it carry. */
  readonly requestId = randomUUID();
  private readonly socket: Socket;
  private readonly received: Buffer[] = [];

  /** GET `path` (with its query) on 127.0.0.1:`port`, with `headers` (a key, a cookie). */
  constructor(port: number, path: string, headers: Record<string, string> = {}) {
    this.socket = connect(port, '127.0.0.1');
    const lines = Object.entries({ Host: '127.0.0.1', ...headers, 'X-Request-Id': this.requestId }).map(([name, value]) => `${name}: ${value}\r\n`);
    this.socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
    this.status = new Promise((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        this.received.push(chunk);
        const head = Buffer.concat(this.received).toString('latin1');
        if (!head.includes('\r\n')) return;
        this.socket.off('data', onData);
        this.socket.pause();
        resolve(Number(head.split(' ')[1]));
      };
      this.socket.on('data', onData);
      this.socket.once('error', reject);
    });
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  /** Reads what is left, until the server ends or cuts the connection; everything the answer held. */
  async drain(): Promise<string> {
    this.socket.on('data', (chunk: Buffer) => this.received.push(chunk));
    this.socket.resume();
    await this.closed;
    return Buffer.concat(this.received).toString('utf8');
  }

  /** The client goes away. */
  close(): void {
    this.socket.destroy();
  }
}

/**
 * A new merchant whose refunds export is about 11 MB of CSV, well past what
 * loopback's socket buffers (about 4 MB) and an export's own read-ahead (64
 * rows, 2 MB) take from a client that reads nothing: `sessions` paid sessions
 * and `refunds` partial refunds of full reason and metadata (~27 KB each).
 */
export async function merchantWithLargeExport(system: TestSystem, { sessions = 5, refunds = 400 } = {}): Promise<Merchant> {
  const made = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
  const api = system.api(made.testKey);
  const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`note-${String(i).padStart(2, '0')}`.padEnd(40, 'k'), 'v'.repeat(500)]));
  await Promise.all(
    Array.from({ length: sessions }, async (_, s) => {
      const created = await postOnce<{ id: string; checkout_url: string }>(api, '/gateway/sessions/', sessionRequest({ amount: '100.000' }));
      assert.equal(created.status, 201, created.text);
      await payOnPage(created.body.checkout_url, { card_number: '4242424242424242' });
      for (let r = 0; r < refunds / sessions; r += 1) {
        const refund = await postOnce(api, `/gateway/sessions/${created.body.id}/refund/`, { reason: `${s}-${r}-${'r'.repeat(490)}`, refund_type: 'PARTIAL', amount: '0.100', metadata });
        assert.equal(refund.status, 200, refund.text);
      }
    }),
  );
  return made;
}

/**
 * A POST under an Idempotency-Key of its own, sent again with that key when
 * the answer is a 5xx (a loaded machine may let a command outlive the
 * gateway's wait): it takes effect once whatever the retries.
 */
async function postOnce<T = Record<string, unknown>>(api: ApiClient, path: string, body: unknown): Promise<ApiResponse<T>> {
  const key = randomUUID();
  for (let attempt = 1; ; attempt += 1) {
    const answer = await api.post<T>(path, body, { 'Idempotency-Key': key });
    if (answer.status < 500 || attempt === 3) return answer;
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
  }
}
