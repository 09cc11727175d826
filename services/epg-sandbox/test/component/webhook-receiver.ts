/** A merchant's webhook endpoint on a free local port: it keeps what it is posted, and answers as told. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Received {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly body: unknown;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: Received[];
  /** Resolves with the first `count` posts, failing after `timeoutMs`. */
  next(count?: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** `answer` decides each reply: a status, or 'hang' to keep the request open until close. */
export async function startWebhookReceiver(answer: () => number | 'hang' = () => 200): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const waiting: (() => void)[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text: the test says what it expected.
      }
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'], body });
      for (const wake of waiting.splice(0)) wake();
      const reply = answer();
      if (reply === 'hang') hanging.add(res);
      else res.writeHead(reply).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/flouci?token=secret-hook-token`,
    received,
    async next(count = 1, timeoutMs = 3_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${received.length} webhook(s) received, ${count} expected`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
