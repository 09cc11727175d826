/**
 * A plain HTTP server on 127.0.0.1 for testing an outgoing client: it records
 * every request (method, target, raw headers, body bytes), counts the
 * connections it took and those closed, and answers through the test's handler.
 * Importable alone (`@gateway/testkit/recording-server`), without the rest of the testkit.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

interface RecordedRequest {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

/** Answers a request once its body is in. */
export type RecordingHandler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void;

export class RecordingServer {
  connections = 0;
  closed = 0;
  readonly requests: RecordedRequest[] = [];
  private readonly server: http.Server;

  private constructor(handler: RecordingHandler) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders, body });
        handler(req, res, body);
      });
    });
    this.server.on('connection', (socket) => {
      this.connections += 1;
      socket.on('close', () => {
        this.closed += 1;
      });
    });
  }

  /** Listens on an ephemeral port of 127.0.0.1; answers "ok" unless told otherwise. */
  static async start(handler: RecordingHandler = (_req, res) => res.end('ok')): Promise<RecordingServer> {
    const started = new RecordingServer(handler);
    await new Promise<void>((resolve) => started.server.listen(0, '127.0.0.1', resolve));
    return started;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The headers of request `index` as [name, value] pairs, names as sent. */
  headerPairs(index = 0): [string, string][] {
    const raw = this.requests[index]?.rawHeaders ?? [];
    const pairs: [string, string][] = [];
    for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i] ?? '', raw[i + 1] ?? '']);
    return pairs;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A port of 127.0.0.1 nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
