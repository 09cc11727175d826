/**
 * Pass-through to a service that serves its own pages behind the gateway's
 * address. Buyers' URLs start with PUBLIC_BASE_URL (D1), which is this
 * gateway: where no ingress routes /checkout/ to checkout, or /dashboard/ and
 * /ops/ to the dashboard service (a single-entry local run), the gateway passes
 * those requests through the gateway's HTTP client (@gateway/http-client),
 * streaming both ways: cookies, Set-Cookie, redirects and form bodies
 * untouched, the client's address and scheme told in X-Forwarded-For and
 * X-Forwarded-Proto.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { HttpClient, HttpClientError } from '@gateway/http-client';
import type { Logger } from '@gateway/observability';
import { describeError, httpClientSpan } from '@gateway/observability';
import { forwardedChain, requestIdOf } from '@gateway/runtime';

/** Hop-by-hop headers, and Expect (Node has answered 100-continue already), are not passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'expect']);

const UNAVAILABLE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
};

export interface UpstreamOptions {
  /** The upstream's name, in logs and traces. */
  name: string;
  /** What the client gets, with a 502, when the upstream does not answer: never why. */
  unavailable: { contentType: string; body: string };
  /**
   * How many proxies of ours stand in front (0: the gateway is the edge). The
   * X-Forwarded-For entries they appended are kept, the peer appended after
   * them; those the client wrote are dropped. X-Forwarded-Proto and -Host are
   * kept only behind a proxy of ours.
   */
  trustedProxyHops: number;
}

/** A request handler passing requests to `upstream` (an origin); the request's path and query are kept. */
export function upstreamProxy(upstream: string, options: UpstreamOptions, log: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  const target = new URL(upstream);
  const http = new HttpClient({ connectionsPerOrigin: 256 });
  return (req, res) => {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    Object.assign(headers, forwardedHeaders(req, options.trustedProxyHops));
    // The page's work goes on under the gateway's request id: one payment, one correlation id.
    const requestId = requestIdOf(res);
    if (requestId) headers['x-request-id'] = requestId;
    // With tracing on, the page's work continues the gateway's trace of this request.
    const span = httpClientSpan(req.method ?? 'GET', target, options.name, headers);
    // A client gone before the answer came abandons the upstream request.
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    http.open({ url: target, path: req.url ?? '/', method: req.method ?? 'GET', headers, body: hasBody(req) ? req : null, signal: gone.signal }).then(
      (answer) => {
        const copied: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) copied[name] = value;
        // A redirect the upstream spelled with its own origin goes to the same path here.
        const location = copied['location'];
        if (typeof location === 'string' && location.startsWith(`${target.origin}/`)) copied['location'] = location.slice(target.origin.length);
        res.writeHead(answer.statusCode, copied);
        span?.set('http.response.status_code', answer.statusCode);
        res.once('close', () => span?.end(answer.statusCode >= 500 ? `HTTP ${answer.statusCode}` : undefined));
        // Either side failing ends both: a cut upstream body is a cut answer, a gone client stops the read.
        pipeline(answer.body, res, () => undefined);
      },
      (err: unknown) => {
        if (err instanceof HttpClientError && err.kind === 'aborted') return void span?.end();
        log.warn({ err: describeError(err), upstream: options.name }, 'upstream failed');
        span?.end(err);
        // A page of its own: nothing to load, nothing to frame, nothing to keep.
        if (!res.headersSent) res.writeHead(502, { 'content-type': options.unavailable.contentType, ...UNAVAILABLE_HEADERS });
        res.end(options.unavailable.body);
      },
    );
  };
}

/** Whether the client's request carries a body to pass on. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return length !== undefined ? length !== '0' : req.headers['transfer-encoding'] !== undefined;
}

/** X-Forwarded-For (what our proxies appended, then the peer), -Proto and -Host as the upstream should see them. */
function forwardedHeaders(req: IncomingMessage, trustedHops: number): Record<string, string> {
  const given = (name: string) => (trustedHops > 0 ? first(req.headers, name) : undefined);
  const proto = given('x-forwarded-proto') ?? ((req.socket as TLSSocket).encrypted ? 'https' : 'http');
  const host = given('x-forwarded-host') ?? req.headers.host;
  return { 'x-forwarded-for': forwardedChain(req, trustedHops).join(', '), 'x-forwarded-proto': proto, ...(host && { 'x-forwarded-host': host }) };
}

function joined(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value.join(', ') : (value ?? '')).trim();
}

/** The first value of a header that may list several. */
function first(headers: IncomingHttpHeaders, name: string): string | undefined {
  return joined(headers[name]).split(',')[0]?.trim() || undefined;
}
