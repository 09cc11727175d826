/**
 * Where a service's HTTP server listens (its port, on every interface or on
 * loopback only), and where its /metrics answers: beside its routes, or on a
 * loopback port of its own; and how the server closes without losing a
 * request that crosses the close.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import { renderMetrics } from '@gateway/observability';
import { markMetricsElsewhere } from './http-metrics.js';

/** What node:http calls for each request: an express app is one, as is a fastify app's `routing`. */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface Listening {
  readonly server: Server;
  readonly port: number;
  /** The port /metrics answers on when it has one of its own (Binding's metricsPort); none when it is served on `port`. */
  readonly metricsPort?: number;
  /** Stops accepting connections, lets in-flight requests finish, closes idle keep-alive sockets. */
  close(): Promise<void>;
}

/** Where a service listens: its settings `port`, `listenHost` and `metricsPort` (@gateway/config's `listening`). */
export interface Binding {
  /** 0 picks a free port. */
  readonly port: number;
  /** The address the port listens on; every interface (0.0.0.0) when not given. */
  readonly listenHost?: string;
  /** A port of its own for GET /metrics, on 127.0.0.1 only, which PORT then does not serve; none: /metrics beside the routes. */
  readonly metricsPort?: number | undefined;
}

/**
 * How long a keep-alive connection that is idle when the server closes (or
 * becomes idle after) is kept open for a request the client may already have
 * sent on it. Closing such a connection at once, as http.Server#close does
 * with closeIdleConnections, loses a request that crosses the close on the
 * wire: the client sees a reset, not an answer.
 */
const IDLE_GRACE_ON_CLOSE_MS = 1_000;

/**
 * Listens on `binding`'s port (0 picks a free one) and address (every
 * interface unless it says), and, when it gives a metrics port, serves
 * /metrics there on 127.0.0.1 alone. A bare port, and `host`, are the same
 * binding spelled out.
 */
export async function listen(app: RequestListener, binding: number | Binding, host?: string): Promise<Listening> {
  const { port, listenHost = host ?? '0.0.0.0', metricsPort } = typeof binding === 'number' ? { port: binding } : binding;
  const server = createServer();
  server.keepAliveTimeout = 65_000;
  // Requests under way on each open connection, so that a close can tell idle connections from busy ones.
  const busy = new Map<Socket, number>();
  let closing = false;
  const idleAfterClose = (socket: Socket) => {
    // The server's own timeout handler destroys a connection that times out with no request on it.
    socket.setTimeout(IDLE_GRACE_ON_CLOSE_MS);
  };
  server.on('connection', (socket: Socket) => {
    busy.set(socket, 0);
    socket.once('close', () => busy.delete(socket));
  });
  // Registered before the app, so that it runs before any answer is written.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    if (metricsPort !== undefined) markMetricsElsewhere(req);
    // Once closing, every answer says Connection: close and ends its connection.
    if (closing) res.shouldKeepAlive = false;
    res.once('close', () => {
      if (!busy.has(socket)) return;
      const left = (busy.get(socket) ?? 1) - 1;
      busy.set(socket, left);
      if (closing && left === 0) idleAfterClose(socket);
    });
  });
  server.on('request', app);
  server.on('clientError', refuseUnparsed);
  await listening(server, port, listenHost);
  // Metrics on loopback alone: what the process counts is nobody else's to read.
  const metrics = metricsPort === undefined ? undefined : createServer(answerMetrics);
  if (metrics) {
    try {
      await listening(metrics, metricsPort ?? 0, '127.0.0.1');
    } catch (err) {
      await new Promise((resolve) => server.close(resolve));
      throw err;
    }
  }
  return {
    server,
    port: (server.address() as AddressInfo).port,
    ...(metrics && { metricsPort: (metrics.address() as AddressInfo).port }),
    close: async () => {
      const stopped = new Promise<void>((resolve) => {
        closing = true;
        // Stops accepting; unlike http.Server#close, leaves idle keep-alive connections to the grace below.
        NetServer.prototype.close.call(server, () => resolve());
        for (const [socket, requests] of busy) if (requests === 0) idleAfterClose(socket);
      });
      if (metrics) await new Promise<void>((resolve) => metrics.close(() => resolve()).closeAllConnections());
      await stopped;
    },
  };
}

/** Resolves once `server` listens on `host`:`port`; rejects when it cannot (the port taken). */
function listening(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The metrics port's one route: GET /metrics (Prometheus text); anything else is 404. */
function answerMetrics(req: IncomingMessage, res: ServerResponse): void {
  if ((req.url ?? '').split('?')[0] !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  renderMetrics().then(
    ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body),
    () => res.writeHead(500).end(),
  );
}

/** Node's own answers to a request it could not parse, by its parser's error code; 400 for any other. */
const UNPARSED: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/**
 * What Node answers a request it could not parse (an unknown method, both
 * Content-Length and Transfer-Encoding, headers too large), before any app
 * sees it, as it does without a handler, but with an X-Request-Id: D1 wants
 * one on every answer. Nothing is written into an answer already under way
 * on the connection, as Node does not either.
 */
function refuseUnparsed(err: Error & { code?: string }, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const status = UNPARSED[err.code ?? ''] ?? '400 Bad Request';
    socket.write(`HTTP/1.1 ${status}\r\nX-Request-Id: ${randomUUID()}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  }
  socket.destroy(err);
}
