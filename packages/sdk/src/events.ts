/**
 * The account's test-mode events as they happen (GET /gateway/events/stream/,
 * server-sent events), each with the exact body a webhook of it carries.
 */
import { readEventStream, type StreamItem } from './server-sent-events.js';
import { asProblem, errorFor } from './errors.js';
import type { Transport } from './transport.js';

export class Events {
  constructor(private readonly gateway: { readonly transport: Transport }) {}

  /**
   * The stream's events and comments until it ends or `signal` aborts; a
   * comment "ready" says the subscription is in place. Throws the typed error
   * when the gateway refuses (403 for a live key, 429 with too many open).
   */
  async *stream(options: { signal?: AbortSignal } = {}): AsyncGenerator<StreamItem> {
    const transport = this.gateway.transport;
    const response = await transport.options.fetch(transport.url('/gateway/events/stream/'), {
      headers: { ...transport.headers(), accept: 'text/event-stream' },
      ...(options.signal && { signal: options.signal }),
    });
    if (!response.ok || !response.body) {
      let body: unknown;
      try {
        body = JSON.parse(await response.text());
      } catch {
        // Not JSON (a proxy's page): asProblem says so in a problem of its own.
      }
      const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
      throw errorFor(response.status, asProblem(body, response.status), response.headers.get('x-request-id') ?? undefined, Number.isNaN(retryAfter) ? undefined : retryAfter);
    }
    yield* readEventStream(response.body);
  }
}
