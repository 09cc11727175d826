/**
 * One webhook delivery attempt: a POST to the merchant's URL through the
 * gateway's HTTP client (@gateway/http-client), with its address guard on
 * (D11) unless WEBHOOK_ALLOW_PRIVATE. Redirects are not followed: a 3xx is a
 * failed attempt. One deadline bounds the whole attempt (DNS, connect, waiting
 * for the response and reading it). `post` never rejects.
 */
import { HttpClient, HttpClientError, type HostResolver } from '@gateway/http-client';

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

/** Response bytes read; past this the connection is dropped rather than drained. */
const MAX_DRAIN_BYTES = 64 * 1024;
/** How much of a response body is kept for the delivery record (D14: the response of one attempt). */
const RESPONSE_BODY_KEPT_BYTES = 4 * 1024;

export class WebhookHttpClient {
  private readonly http: HttpClient;

  constructor(options: WebhookHttpClientOptions) {
    this.http = new HttpClient({
      connectionsPerOrigin: options.maxSocketsPerHost,
      timeoutMs: options.timeoutMs,
      refusePrivateAddresses: !options.allowPrivate,
      ...(options.lookup && { resolver: options.lookup }),
    });
  }

  /** Sends one attempt. Never rejects: every failure is `{ ok: false, error }`. */
  async post(request: DeliveryRequest): Promise<DeliveryOutcome> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    try {
      const answer = await this.http.send({ url: request.url, method: 'POST', headers: request.headers, body: request.body, maxResponseBytes: MAX_DRAIN_BYTES });
      const { statusCode } = answer;
      const outcome: DeliveryOutcome = { ok: statusCode >= 200 && statusCode < 300, statusCode, responseTimeMs: elapsed(), responseBody: keptText(answer.body) };
      if (statusCode >= 300 && statusCode < 400) outcome.error = `redirect (${statusCode}) not followed`;
      else if (!outcome.ok) outcome.error = `HTTP ${statusCode}`;
      return outcome;
    } catch (err) {
      const failure = err instanceof HttpClientError ? err : undefined;
      const outcome: DeliveryOutcome = { ok: false, responseTimeMs: elapsed(), error: failure?.message ?? 'connection error' };
      if (failure?.answer) {
        outcome.statusCode = failure.answer.statusCode;
        outcome.responseBody = keptText(failure.answer.body);
      }
      return outcome;
    }
  }

  /** Closes pooled connections. Later posts fail with "client closed". */
  async close(): Promise<void> {
    await this.http.close();
  }
}

/**
 * The kept start of a response body as text: at most RESPONSE_BODY_KEPT_BYTES
 * of UTF-8, a character cut by that limit left out, bytes that are not UTF-8
 * and NUL (which PostgreSQL text cannot hold) as U+FFFD.
 */
function keptText(body: Buffer): string {
  // stream: true holds back an incomplete last character instead of replacing it.
  return new TextDecoder('utf-8').decode(body.subarray(0, RESPONSE_BODY_KEPT_BYTES), { stream: true }).replaceAll('\u0000', '\uFFFD');
}
