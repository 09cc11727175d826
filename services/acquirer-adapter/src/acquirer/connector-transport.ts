/**
 * How every connector's client reaches its party (ClicToPay, Flouci): kept-
 * alive connections, a deadline on every call, the call traced and timed, and
 * an answer that is not a small JSON object in a 200 turned into
 * AcquirerUnreachable (an unknown outcome, never a failure). What a request
 * carries (a terminal's password, a wallet's private key, a card) goes into
 * its headers or body only: never into a URL, a log line or an error.
 */
import { HttpClient, HttpClientError, type ReadAnswer } from '@gateway/http-client';
import { histogram, httpClientSpan, secondsSince } from '@gateway/observability';
import { AcquirerUnreachable } from './acquirer.js';

/**
 * Every call to a connector's party, by call and outcome: `ok`, `error_code`
 * (a business refusal in an HTTP 200 answer: a decline, a refused refund, a
 * rejected terminal, Flouci's `success: false`), `timeout` (no answer within
 * the deadline) or `failed` (no connection, another HTTP status, an
 * unreadable answer).
 */
const acquirerCalls = histogram('gateway_acquirer_call_duration_seconds', 'Time from sending an acquirer call to its answer or failure, by call and outcome.', ['call', 'outcome']);

/** An answer is a small JSON object; anything larger is not one. */
const MAX_REPLY_BYTES = 64 * 1024;

/** One call as a client makes it. */
export interface ConnectorCall {
  /** The call's name, for the histogram, the trace and AcquirerUnreachable. */
  readonly call: string;
  readonly url: URL;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: Buffer | string;
  /** Whether an answer is a business refusal (counted `error_code`). */
  readonly refused: (reply: Record<string, unknown>) => boolean;
}

export class ConnectorTransport {
  private readonly http: HttpClient;

  /**
   * `timeoutMs` bounds each call: connecting, the answer and reading it, and
   * any wait for a free connection too; so `connections` (per origin) must
   * cover every call the adapter can have in flight at once.
   */
  constructor(timeoutMs: number, connections: number) {
    this.http = new HttpClient({ connectionsPerOrigin: connections, timeoutMs });
  }

  /** Closes the kept-alive connections. */
  async close(): Promise<void> {
    await this.http.close();
  }

  /** The call's answer, a JSON object; AcquirerUnreachable when none came in time or it cannot be read. */
  async send(request: ConnectorCall): Promise<Record<string, unknown>> {
    const { call, url, method } = request;
    const headers = { ...request.headers };
    const started = process.hrtime.bigint();
    // With tracing on, the call continues the payment's trace at the other party (traceparent: ids only).
    const span = httpClientSpan(method, url, call, headers);
    const fail = (reason: string, maybeDelivered: boolean, outcome: 'timeout' | 'failed' = 'failed', httpStatus?: number): never => {
      span?.end(reason);
      acquirerCalls.observe({ call, outcome }, secondsSince(started));
      throw new AcquirerUnreachable(call, reason, maybeDelivered, httpStatus);
    };
    let answer: ReadAnswer;
    try {
      answer = await this.http.send({ url, method, headers, ...(request.body !== undefined && { body: request.body }), maxResponseBytes: MAX_REPLY_BYTES });
    } catch (err) {
      if (!(err instanceof HttpClientError)) throw err;
      if (err.kind === 'timeout') return fail('timed out', true, 'timeout');
      if (err.kind === 'interrupted') return fail('answer interrupted', true);
      // Only the error's code: its message could quote the request.
      return fail(`connection failed (${err.code ?? 'error'})`, err.mayHaveReached);
    }
    if (!answer.complete) return fail('answer too large', true);
    if (answer.statusCode !== 200) return fail(`HTTP ${answer.statusCode}`, true, 'failed', answer.statusCode);
    let reply: unknown;
    try {
      reply = JSON.parse(answer.body.toString('utf8'));
    } catch {
      reply = undefined;
    }
    if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) return fail('unreadable answer', true);
    span?.set('http.response.status_code', 200).end();
    const object = reply as Record<string, unknown>;
    acquirerCalls.observe({ call, outcome: request.refused(object) ? 'error_code' : 'ok' }, secondsSince(started));
    return object;
  }
}
