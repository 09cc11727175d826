/**
 * One webhook delivery attempt: a POST to the merchant's URL over keep-alive connections.
 *
 * D11 at connect time: unless WEBHOOK_ALLOW_PRIVATE, an IP-literal host is checked before anything
 * is sent, and a host name is resolved by our own lookup, which refuses the connection when any
 * address it resolves to is loopback, private, link-local, CGNAT, unique-local or metadata.
 * Redirects are not followed: a 3xx is a failed attempt. One timer bounds the whole attempt (DNS,
 * connect, waiting for the response and reading it). `post` never rejects.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isForbiddenAddress, isIpLiteral } from '@gateway/contracts';

export interface DeliveryRequest {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
}

export interface DeliveryOutcome {
  /** True only for a 2xx response read to its end (or to the drain limit). */
  ok: boolean;
  /** Set whenever a response arrived, failed attempts included. */
  statusCode?: number;
  /** From the start of the attempt to the end of the response or the failure, rounded. */
  responseTimeMs: number;
  /** Why the attempt failed: short, and never the body or headers. */
  error?: string;
  /**
   * The start of the response body as received (at most RESPONSE_BODY_KEPT_BYTES,
   * decoded as UTF-8), whenever a response arrived: the merchant's own words,
   * shown in the dashboard as untrusted text.
   */
  responseBody?: string;
}

/** Resolves a host name to all its addresses. */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface WebhookHttpClientOptions {
  /** Bounds the whole attempt: DNS, connect, waiting for the headers and reading the response. */
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: no address check at all. */
  allowPrivate: boolean;
  /** Connections at once to one host and port. */
  maxSocketsPerHost: number;
  /** DNS, injectable for tests; default node:dns/promises lookup with `all: true`. */
  lookup?: HostResolver;
}

/** Response bytes read and discarded; past this the connection is dropped rather than drained. */
const MAX_DRAIN_BYTES = 64 * 1024;
/** How much of a response body is kept for the delivery record (D14: the response of one attempt). */
export const RESPONSE_BODY_KEPT_BYTES = 4 * 1024;
/** An idle pooled connection is closed after this (sooner when the server's Keep-Alive hint says so). */
const FREE_SOCKET_TIMEOUT_MS = 4_000;
const MAX_FREE_SOCKETS_PER_HOST = 64;

const defaultResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true });

export class WebhookHttpClient {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly resolver: HostResolver | undefined;
  private closed = false;

  constructor(private readonly options: WebhookHttpClientOptions) {
    const agentOptions = {
      keepAlive: true,
      maxSockets: options.maxSocketsPerHost,
      maxFreeSockets: Math.max(1, Math.min(options.maxSocketsPerHost, MAX_FREE_SOCKETS_PER_HOST)),
      scheduling: 'lifo' as const,
      // Only idle pooled sockets are closed on this timeout; it also lets the agent honour a
      // shorter `Keep-Alive: timeout=N` from the server, which it ignores when no timeout is set.
      timeout: FREE_SOCKET_TIMEOUT_MS,
    };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
    // With private addresses allowed, Node's own lookup is used unless a resolver was injected.
    this.resolver = options.lookup ?? (options.allowPrivate ? undefined : defaultResolver);
  }

  /** Sends one attempt. Never rejects: every failure is `{ ok: false, error }`. */
  post(request: DeliveryRequest): Promise<DeliveryOutcome> {
    const started = performance.now();
    return new Promise<DeliveryOutcome>((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined = undefined; // set once the request exists; finish may run before
      let statusCode: number | undefined;
      const kept: Buffer[] = [];
      let keptBytes = 0;
      let refusedAddress: string | undefined;
      let dnsFailed = false;

      const finish = (error?: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const outcome: DeliveryOutcome = { ok: error === undefined, responseTimeMs: Math.round(performance.now() - started) };
        if (statusCode !== undefined) {
          outcome.statusCode = statusCode;
          outcome.responseBody = responseText(kept);
        }
        if (error !== undefined) outcome.error = error;
        resolve(outcome);
      };

      if (this.closed) return finish('client closed');
      let target: URL;
      try {
        target = new URL(request.url);
      } catch {
        return finish('invalid url');
      }
      const secure = target.protocol === 'https:';
      if (!secure && target.protocol !== 'http:') return finish('url must be http or https');
      const host = unbracket(target.hostname);
      // Node skips the lookup for an IP literal, so a literal is judged here, before connecting.
      if (!this.options.allowPrivate && isIpLiteral(host) && isForbiddenAddress(host)) return finish(notAllowed(host));

      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (name.toLowerCase() !== 'content-length') headers[name] = value;
      }
      headers['Content-Length'] = String(request.body.length);

      const lookup = this.resolver === undefined ? undefined : this.guardedLookup(this.resolver, {
        refused: (address) => { refusedAddress = address; },
        failed: () => { dnsFailed = true; },
      });

      let req: http.ClientRequest;
      try {
        req = (secure ? https : http).request({
          protocol: target.protocol,
          hostname: host,
          port: target.port === '' ? undefined : Number(target.port),
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          headers,
          agent: secure ? this.httpsAgent : this.httpAgent,
          ...(lookup ? { lookup } : {}),
        });
      } catch (err) {
        // Thrown synchronously for a header name or value Node refuses to send.
        return finish(requestErrorMessage(err));
      }

      timer = setTimeout(() => {
        finish(`timed out after ${this.options.timeoutMs} ms`);
        req.destroy();
      }, this.options.timeoutMs);

      // Kept for the request's whole life: errors after a timeout or a settled attempt are ignored.
      req.on('error', (err) => {
        if (refusedAddress !== undefined) finish(notAllowed(refusedAddress));
        else if (dnsFailed) finish('DNS lookup failed');
        else finish(connectionErrorMessage(err));
      });
      req.on('close', () => {
        if (statusCode === undefined) finish('connection closed before a response');
      });
      req.on('response', (res) => {
        statusCode = res.statusCode ?? 0;
        const code = statusCode;
        const settleOnStatus = (): void => {
          if (code >= 200 && code < 300) finish();
          else if (code >= 300 && code < 400) finish(`redirect (${code}) not followed`);
          else finish(`HTTP ${code}`);
        };
        let drained = 0;
        res.on('data', (chunk: Buffer) => {
          if (keptBytes < RESPONSE_BODY_KEPT_BYTES) {
            const part = chunk.subarray(0, RESPONSE_BODY_KEPT_BYTES - keptBytes);
            kept.push(part);
            keptBytes += part.length;
          }
          drained += chunk.length;
          if (drained > MAX_DRAIN_BYTES && !settled) {
            // Enough read to know the answer: drop the connection rather than read the rest.
            settleOnStatus();
            req.destroy();
          }
        });
        res.on('end', settleOnStatus);
        res.on('error', () => finish('connection lost while reading the response'));
        res.on('close', () => {
          if (!res.complete) finish('connection lost while reading the response');
        });
      });

      req.end(request.body);
    });
  }

  /** Closes pooled connections. Later posts fail with "client closed". */
  close(): void {
    this.closed = true;
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /**
   * A `lookup` for the request options: resolves every address of the name and, unless private
   * addresses are allowed, refuses when any of them is forbidden. Answers both callback shapes Node
   * uses: `(err, address, family)` and, with `all: true` (autoSelectFamily), `(err, addresses)`.
   */
  private guardedLookup(resolver: HostResolver, report: { refused(address: string): void; failed(): void }): LookupFunction {
    return (hostname, lookupOptions, callback) => {
      const family = lookupOptions.family === 4 || lookupOptions.family === 'IPv4' ? 4
        : lookupOptions.family === 6 || lookupOptions.family === 'IPv6' ? 6 : 0;
      // The callback runs outside the promise chain, so nothing it throws becomes a rejection.
      const answer = (...args: Parameters<typeof callback>): void => process.nextTick(() => callback(...args));
      let resolving: Promise<{ address: string; family: number }[]>;
      try {
        resolving = resolver(hostname);
      } catch (err) {
        resolving = Promise.reject(err);
      }
      resolving.then(
        (resolved) => {
          const all = Array.isArray(resolved) ? resolved : [];
          if (!this.options.allowPrivate) {
            const forbidden = all.find((entry) => !isAllowedResolvedAddress(entry.address));
            if (forbidden !== undefined) {
              report.refused(String(forbidden.address));
              return answer(lookupError('EADDRNOTAVAIL', `address ${String(forbidden.address)} is not allowed`, hostname), '');
            }
          }
          const usable = all.filter((entry) => isIpLiteral(entry.address) && (family === 0 || entry.family === family));
          const first = usable[0];
          if (first === undefined) {
            report.failed();
            return answer(lookupError('ENOTFOUND', 'no address', hostname), '');
          }
          if (lookupOptions.all) return answer(null, usable.map(({ address, family: f }) => ({ address, family: f })));
          return answer(null, first.address, first.family);
        },
        () => {
          report.failed();
          answer(lookupError('ENOTFOUND', 'DNS lookup failed', hostname), '');
        },
      );
    };
  }
}

/**
 * The kept start of a response body as text: UTF-8, a character cut by the
 * size limit left out, bytes that are not UTF-8 and NUL (which PostgreSQL text
 * cannot hold) as U+FFFD.
 */
export function responseText(chunks: readonly Buffer[]): string {
  // stream: true holds back an incomplete last character instead of replacing it.
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks), { stream: true }).replaceAll('\u0000', '\uFFFD');
}

/** An address from DNS may be used only when it is an IP address that is not forbidden. */
function isAllowedResolvedAddress(address: unknown): boolean {
  return typeof address === 'string' && isIpLiteral(address) && !isForbiddenAddress(address);
}

function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function notAllowed(address: string): string {
  return `address ${address} is not allowed (private, loopback or link-local)`;
}

function lookupError(code: string, message: string, hostname: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`${message}: ${hostname}`);
  err.code = code;
  return err;
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function requestErrorMessage(err: unknown): string {
  const code = errorCode(err);
  if (code === 'ERR_INVALID_CHAR' || code === 'ERR_INVALID_HTTP_TOKEN' || code === 'ERR_HTTP_INVALID_HEADER_VALUE') return 'invalid request headers';
  return code ? `request not sent (${code})` : 'request not sent';
}

const CONNECTION_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EHOSTDOWN: 'host unreachable',
  EADDRNOTAVAIL: 'address not available',
  ENOTFOUND: 'DNS lookup failed',
  EAI_AGAIN: 'DNS lookup failed',
  EAI_FAIL: 'DNS lookup failed',
  EAI_NODATA: 'DNS lookup failed',
  EAI_NONAME: 'DNS lookup failed',
};

/** A short message for a request error; never the error's own text, which may carry details. */
function connectionErrorMessage(err: unknown): string {
  const code = errorCode(err);
  if (code === 'ECONNRESET' && (err as Error).message === 'socket hang up') return 'connection closed before a response';
  if (code === undefined) return 'connection error';
  const known = CONNECTION_ERRORS[code];
  if (known) return known;
  if (code.startsWith('HPE_')) return `invalid HTTP response (${code})`;
  if (code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_') || code.includes('CERT') || code.includes('SIGNATURE')) return `TLS error (${code})`;
  return `connection error (${code})`;
}
