/**
 * The gateway's one outgoing HTTP client, on undici: a keep-alive pool per
 * origin, one deadline per request (connect, DNS, the headers and, for a read
 * answer, its body), a cap on the bytes read, and errors that say what failed
 * in a few words, never with the request or the answer in them. Redirects are
 * not followed. Its one specialisation is D11's address guard
 * (`refusePrivateAddresses`), which the webhook dispatcher turns on.
 */
import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { Readable } from 'node:stream';
import { Agent } from 'undici';
import { forbiddenLiteral } from '@gateway/webhook-address';
import { AddressNotAllowed, guardedLookup, systemResolver, type HostResolver } from './address-guard.js';
import { HttpClientError, toHttpClientError } from './http-client-error.js';

export interface HttpClientOptions {
  /** Connections at once to one origin (scheme, host and port). */
  connectionsPerOrigin: number;
  /** Deadline of a request that gives none; without either, undici's own idle timeouts only. */
  timeoutMs?: number;
  /** An idle kept-alive connection is closed after this (sooner when the server's Keep-Alive says so). Default 4 s. */
  keepAliveTimeoutMs?: number;
  /** D11: refuse any connection to a loopback, private, link-local, CGNAT, unique-local or metadata address. */
  refusePrivateAddresses?: boolean;
  /** DNS, injectable for tests; by default node:dns with every address when addresses are refused, else Node's own. */
  resolver?: HostResolver;
}

type HeaderValues = Record<string, string | string[] | undefined>;

export interface OutgoingRequest {
  url: string | URL;
  /**
   * The request target as given (it must start with "/"), instead of the URL's
   * path and query: a pass-through sends the client's own, unnormalised.
   */
  path?: string;
  method: string;
  /**
   * Sent as given, names' case kept, except those the client sets itself:
   * Content-Length (the body's own), Connection, Keep-Alive, Transfer-Encoding, Upgrade and Expect.
   */
  headers?: HeaderValues;
  body?: Buffer | string | Readable | null;
  /** This request's deadline, instead of the client's. */
  timeoutMs?: number;
  /** Abandons the request (its connection closed) when aborted. */
  signal?: AbortSignal;
}

export interface ReadAnswer {
  statusCode: number;
  headers: HeaderValues;
  /** The answer's body, at most `maxResponseBytes` of it. */
  body: Buffer;
  /** False when the body was longer than `maxResponseBytes`: the rest was not read and the connection was dropped. */
  complete: boolean;
}

export interface StreamedAnswer {
  statusCode: number;
  headers: HeaderValues;
  /** The body as it comes; destroying it drops the connection. */
  body: Readable;
}

/** Headers undici sets itself or refuses; a caller's Content-Length gives way to the body's length. */
const MANAGED_HEADERS = new Set(['content-length', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect']);
const FREE_SOCKET_TIMEOUT_MS = 4_000;

export class HttpClient {
  private readonly agent: Agent;
  private closed = false;

  constructor(private readonly options: HttpClientOptions) {
    const refuse = options.refusePrivateAddresses ?? false;
    // With private addresses allowed, Node's own lookup is used unless a resolver was injected.
    const resolver = options.resolver ?? (refuse ? systemResolver : undefined);
    this.agent = new Agent({
      connections: options.connectionsPerOrigin,
      pipelining: 1,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? FREE_SOCKET_TIMEOUT_MS,
      ...(options.timeoutMs !== undefined && { connectTimeout: options.timeoutMs }),
      ...(resolver && { connect: { lookup: guardedLookup(resolver, refuse) } }),
    } as Agent.Options);
  }

  /**
   * Sends a request and reads its answer, at most `maxResponseBytes` of the
   * body. Rejects with an HttpClientError only: the deadline covers reading.
   */
  async send(request: OutgoingRequest & { maxResponseBytes: number }): Promise<ReadAnswer> {
    const deadline = this.deadline(request);
    let streamed: StreamedAnswer | undefined;
    const chunks: Buffer[] = [];
    try {
      streamed = await this.dispatch(request, deadline.signal, true);
      let room = request.maxResponseBytes;
      for await (const chunk of streamed.body as AsyncIterable<Buffer>) {
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          // Enough read to know the answer: drop the connection rather than read the rest.
          streamed.body.destroy();
          return { statusCode: streamed.statusCode, headers: streamed.headers, body: Buffer.concat(chunks), complete: false };
        }
        chunks.push(chunk);
        room -= chunk.length;
      }
      // undici hands a connection back one event-loop turn after an answer ends (so that a server
      // closing it anyway is seen first): waiting that turn lets the caller's next request reuse it.
      await new Promise((resolve) => setImmediate(resolve));
      return { statusCode: streamed.statusCode, headers: streamed.headers, body: Buffer.concat(chunks), complete: true };
    } catch (err) {
      streamed?.body.destroy();
      const answer = streamed && { statusCode: streamed.statusCode, headers: streamed.headers, body: Buffer.concat(chunks) };
      throw toHttpClientError(err, { timedOut: deadline.timedOut(), aborted: request.signal?.aborted ?? false, ...(answer && { answer }) });
    } finally {
      deadline.clear();
    }
  }

  /**
   * Sends a request and answers once the headers are in, the body left to the
   * caller to stream. The deadline covers the headers; the body is bounded by
   * undici's idle timeout between chunks.
   */
  async open(request: OutgoingRequest): Promise<StreamedAnswer> {
    const deadline = this.deadline(request);
    try {
      return await this.dispatch(request, deadline.signal, false);
    } catch (err) {
      throw toHttpClientError(err, { timedOut: deadline.timedOut(), aborted: request.signal?.aborted ?? false });
    } finally {
      deadline.clear();
    }
  }

  /** Closes every pooled connection. Later requests fail as `client-closed`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.agent.destroy();
  }

  /** `whole`: the deadline covers the body too, so undici's idle timers are off. */
  private async dispatch(request: OutgoingRequest, signal: AbortSignal, whole: boolean): Promise<StreamedAnswer> {
    if (this.closed) throw new HttpClientError('client-closed', 'client closed', false);
    const target = parseTarget(request.url);
    if (this.options.refusePrivateAddresses) {
      const literal = forbiddenLiteral(target.hostname);
      if (literal !== undefined) throw new AddressNotAllowed(literal);
    }
    const path = request.path ?? `${target.pathname}${target.search}`;
    if (!path.startsWith('/')) throw new HttpClientError('invalid-request', 'invalid request target', false);
    const headers = outgoingHeaders(request.headers ?? {});
    const body = request.body ?? null;
    const ownTimers = whole && (request.timeoutMs ?? this.options.timeoutMs) !== undefined;
    const answer = await this.agent.request({
      origin: target.origin,
      path,
      method: request.method,
      headers,
      body,
      signal,
      // One deadline bounds the whole request; undici's own timers stay out of its way.
      ...(ownTimers && { headersTimeout: 0, bodyTimeout: 0 }),
    });
    return { statusCode: answer.statusCode, headers: answer.headers, body: answer.body };
  }

  /** One timer for the request's deadline, and the caller's signal, as one signal. */
  private deadline(request: OutgoingRequest): { signal: AbortSignal; clear(): void; timedOut(): HttpClientError | undefined } {
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    let timedOut: HttpClientError | undefined;
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
      timedOut = new HttpClientError('timeout', `timed out after ${timeoutMs} ms`, true);
      controller.abort(timedOut);
    }, timeoutMs);
    const onAbort = (): void => controller.abort(request.signal?.reason);
    if (request.signal?.aborted) onAbort();
    else request.signal?.addEventListener('abort', onAbort, { once: true });
    return {
      signal: controller.signal,
      clear: () => {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
      },
      timedOut: () => timedOut,
    };
  }
}

function parseTarget(url: string | URL): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new HttpClientError('invalid-url', 'invalid url', false);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new HttpClientError('invalid-url', 'url must be http or https', false);
  return target;
}

/** The caller's headers, checked as Node checks them, without those undici manages. */
function outgoingHeaders(given: HeaderValues): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  try {
    for (const [name, value] of Object.entries(given)) {
      if (value === undefined || MANAGED_HEADERS.has(name.toLowerCase())) continue;
      validateHeaderName(name);
      for (const one of Array.isArray(value) ? value : [value]) validateHeaderValue(name, one);
      headers[name] = value;
    }
  } catch {
    throw new HttpClientError('invalid-request', 'invalid request headers', false);
  }
  return headers;
}
