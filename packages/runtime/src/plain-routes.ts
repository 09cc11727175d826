/**
 * Routes a service serves on node:http directly, in front of its express
 * app: the hot ones. Express's router, middleware and response helpers cost
 * about twice what Node's own HTTP handling of a request does (measured:
 * 225-240 against 85-90 µs of CPU per page at 1,000 requests/s on this 2-vCPU
 * machine). A plain route gets the same request id, correlation, access log
 * and metrics as the app's own routes; every other request goes to the app.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@gateway/observability';
import { timeRequest } from './http-metrics.js';
import { enterRequest } from './request-context.js';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface PlainRoute {
  /** The route pattern, for metrics and the access log (`/checkout/:token/pay`). */
  readonly route: string;
  /** Answers the request; must not throw (it answers its own failures). */
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/** The listener that serves the routes `match` picks itself and passes everything else to `app`. */
export function withPlainRoutes(app: RequestListener, log: Logger, match: (method: string, path: string) => PlainRoute | undefined): RequestListener {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const found = match(req.method ?? 'GET', path);
    if (!found) return app(req, res);
    timeRequest(req, res, () => found.route);
    enterRequest(req, res, log, () => found.route, () => found.handle(req, res));
  };
}

/** Answers `status` with `body` of `contentType`, and `headers`. */
export function answer(res: ServerResponse, status: number, contentType: string, body: string, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { ...headers, 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
