/**
 * One API call with the retries INTERFACE 7.1 allows: network failures, 429,
 * 500 and 502, after the Retry-After they carry (D23) or with exponential
 * backoff and jitter when they carry none. A POST carries one Idempotency-Key
 * for all its attempts, so a retry after a lost answer replays the first
 * answer (D10) instead of paying or refunding twice.
 */
import { randomUUID } from 'node:crypto';
import { asProblem, ConnectionError, errorFor } from './errors.js';

export interface TransportOptions {
  /** The gateway's address, without /api/v1. */
  baseUrl: string;
  secretKey: string;
  maxRetries: number;
  timeoutMs: number;
  /** First backoff pause; doubled per retry, with jitter. */
  initialRetryDelayMs: number;
  /** Longest pause between attempts, Retry-After included. */
  maxRetryDelayMs: number;
  fetch: typeof fetch;
  userAgent: string;
}

export interface CallOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path under /api/v1, already filled in. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Overrides the generated key of a POST. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** INTERFACE 7.1: "Only 429, 500 and 502 are retried". */
const RETRYABLE_STATUS: ReadonlySet<number> = new Set([429, 500, 502]);

export class Transport {
  constructor(readonly options: TransportOptions) {}

  /** The URL of `path` (under /api/v1) with `query`. */
  url(path: string, query: CallOptions['query'] = {}): URL {
    const url = new URL(`${this.options.baseUrl.replace(/\/+$/, '')}/api/v1${path}`);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
    return url;
  }

  /** The authenticated headers of every call. */
  headers(): Record<string, string> {
    return { authorization: `Bearer ${this.options.secretKey}`, 'user-agent': this.options.userAgent, accept: 'application/json' };
  }

  /** Sends the call, retrying what is safe; the parsed JSON body of a 2xx, or throws a GatewayError. */
  async call(call: CallOptions): Promise<RawAnswer> {
    const { response, body } = await this.exchange(call, false);
    return { status: response.status, headers: response.headers, body };
  }

  /**
   * Sends the call as `call` does, retrying what is safe until an answer
   * arrives, and hands over a 2xx answer with its body unread (a download):
   * the attempt's deadline covers the wait for the answer's head only, and
   * reading the body is the caller's. A refusal throws its GatewayError.
   */
  async open(call: CallOptions & { accept: string }): Promise<Response> {
    return (await this.exchange(call, true)).response;
  }

  private async exchange(call: CallOptions & { accept?: string }, stream: boolean): Promise<{ response: Response; body: unknown }> {
    const headers: Record<string, string> = this.headers();
    if (call.accept !== undefined) headers['accept'] = call.accept;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.method === 'POST') headers['idempotency-key'] = call.idempotencyKey ?? randomUUID();
    const url = this.url(call.path, call.query);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);

    for (let attempt = 0; ; attempt++) {
      const retriesLeft = attempt < this.options.maxRetries;
      let response: Response;
      let parsed: unknown;
      // A download's deadline ends with the answer's head; its body may take longer (it is streamed).
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(new DOMException('The attempt timed out.', 'TimeoutError')), this.options.timeoutMs);
      try {
        const signals = [deadline.signal, ...(call.signal ? [call.signal] : [])];
        response = await this.options.fetch(url, { method: call.method, headers, body, signal: AbortSignal.any(signals), redirect: 'error' });
        // Inside the try: a body cut off mid-way is as much a lost answer as no answer.
        if (!(stream && response.ok)) parsed = await readBody(response);
      } catch (err) {
        // The caller's own abort is an answer, not a failure to retry.
        if (call.signal?.aborted) throw err;
        if (!retriesLeft) throw new ConnectionError(`No answer from ${url.origin} after ${attempt + 1} attempt(s).`, { cause: err });
        await pause(this.backoff(attempt));
        continue;
      } finally {
        clearTimeout(timer);
      }
      const requestId = response.headers.get('x-request-id') ?? undefined;
      if (response.ok) return { response, body: parsed };
      const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
      if (retriesLeft && RETRYABLE_STATUS.has(response.status)) {
        await pause(retryAfter !== undefined ? Math.min(retryAfter * 1000, this.options.maxRetryDelayMs) : this.backoff(attempt));
        continue;
      }
      throw errorFor(response.status, asProblem(parsed, response.status), requestId, retryAfter);
    }
  }

  /** Between half and all of the doubled delay, at random, so many clients retrying at once spread out. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.options.initialRetryDelayMs * 2 ** attempt, this.options.maxRetryDelayMs);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Retry-After in whole seconds (D12); the HTTP-date form is also accepted. */
function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header)) return Number(header);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
