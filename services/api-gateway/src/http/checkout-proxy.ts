/**
 * Buyers' URLs start with PUBLIC_BASE_URL (D1), which is this gateway; the
 * hosted pages are the checkout service's. Where no ingress routes
 * /checkout/ to checkout directly (a single-entry local run), the gateway
 * passes those requests through, streaming both ways, untouched.
 */
import { Agent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from '@gateway/observability';
import { describeError, httpClientSpan } from '@gateway/observability';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

export function checkoutProxy(upstream: string, log: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  return (req, res) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
    // The page's work goes on under the gateway's request id: one payment, one correlation id.
    const requestId = (res as ServerResponse & { locals?: Record<string, unknown> }).locals?.['requestId'];
    if (typeof requestId === 'string') headers['x-request-id'] = requestId;
    // With tracing on, the page's work continues the gateway's trace of this request.
    const span = httpClientSpan(req.method ?? 'GET', target, 'checkout', headers);
    const outgoing = httpRequest(
      { protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        const copied: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) copied[name] = value;
        res.writeHead(answer.statusCode ?? 502, copied);
        span?.set('http.response.status_code', answer.statusCode ?? 502);
        res.once('close', () => span?.end((answer.statusCode ?? 502) >= 500 ? `HTTP ${answer.statusCode ?? 502}` : undefined));
        answer.pipe(res);
      },
    );
    outgoing.on('error', (err) => {
      log.warn({ err: describeError(err) }, 'checkout upstream failed');
      span?.end(err);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('The payment page is unavailable; please try again.');
    });
    req.pipe(outgoing);
  };
}
