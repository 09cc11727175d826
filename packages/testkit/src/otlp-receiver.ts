/**
 * An OTLP/HTTP trace receiver for tests and benchmarks: a real HTTP server on
 * 127.0.0.1 that takes what the services' exporters POST to /v1/traces (JSON
 * encoding, as @opentelemetry/exporter-trace-otlp-http sends it) and keeps
 * each span with its service's name, or, with `discard`, only counts the
 * requests (the benchmark's collector that costs the services nothing more
 * than the export).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** OTLP span kinds (the protocol's numbers). */
export const OTLP_SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

type SpanAttributeValue = string | number | boolean;

/** One received span, flattened: its service and attributes as plain values. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, SpanAttributeValue>;
  /** The span's status code: 0 unset, 1 ok, 2 error. */
  status: number;
  /** The spans of other traces it is linked to. */
  links: { traceId: string; spanId: string }[];
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value?: OtlpValue;
}
interface OtlpSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  attributes?: OtlpAttribute[];
  status?: { code?: number };
  links?: { traceId?: string; spanId?: string }[];
}
interface OtlpExport {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function plain(value: OtlpValue | undefined): SpanAttributeValue {
  if (!value) return '';
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return '';
}

function attributes(list: OtlpAttribute[] | undefined): Record<string, SpanAttributeValue> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));
}

/** The spans of one OTLP/JSON export request. */
function spansOfExport(body: OtlpExport): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of body.resourceSpans ?? []) {
    const service = String(attributes(resourceSpans.resource?.attributes)['service.name'] ?? '');
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        spans.push({
          service,
          traceId: span.traceId ?? '',
          spanId: span.spanId ?? '',
          parentSpanId: span.parentSpanId ?? '',
          name: span.name ?? '',
          kind: span.kind ?? 0,
          attributes: attributes(span.attributes),
          status: span.status?.code ?? 0,
          links: (span.links ?? []).map((link) => ({ traceId: link.traceId ?? '', spanId: link.spanId ?? '' })),
        });
      }
    }
  }
  return spans;
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Export requests taken, and those that could not be read. */
  requests = 0;
  unreadable = 0;

  private constructor(
    private readonly server: Server,
    private readonly discard: boolean,
  ) {}

  /** Listens on 127.0.0.1 (`port` 0 picks a free one). */
  static async start(options: { port?: number; discard?: boolean } = {}): Promise<OtlpReceiver> {
    const server = createServer();
    const receiver = new OtlpReceiver(server, options.discard ?? false);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => receiver.handle(req, res));
    await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The value of OTEL_EXPORTER_OTLP_ENDPOINT for the services (the exporter adds /v1/traces). */
  endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The spans of trace `traceId`. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  /** Resolves with the first span matching `test`, once received; rejects after `timeoutMs`. */
  async waitForSpan(test: (span: ReceivedSpan) => boolean, timeoutMs = 10_000): Promise<ReceivedSpan> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.spans.find(test);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no such span within ${timeoutMs} ms (${this.spans.length} received)`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      if (!this.discard) chunks.push(chunk);
    });
    req.on('end', () => {
      this.requests += 1;
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      if (!this.discard) {
        try {
          this.spans.push(...spansOfExport(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport));
        } catch {
          this.unreadable += 1;
          res.writeHead(400).end();
          return;
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
