/**
 * OpenTelemetry traces, exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT
 * (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, and free when it is not: the
 * SDK is then never loaded, and every helper here returns after one check of
 * a module variable, creating nothing.
 *
 * Spans are made by hand in the shared layers (HTTP entry in the runtime, the
 * broker's publish and consume points, the pool's queries, the two outgoing
 * HTTP clients), not by auto-instrumentation: the services are ES modules, which
 * require-in-the-middle cannot patch without a loader hook on every import, and
 * a few spans where work crosses a process cost less than a span per
 * middleware. What a span records is chosen here, so it never holds a card
 * field, a key, a checkout token (raw URL paths carry them: routes are
 * recorded by pattern) or a stack trace.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { describeError } from './errors.js';

export { SpanKind } from '@opentelemetry/api';

/** Set while tracing runs; undefined otherwise, which is all that the helpers check. */
let tracer: Tracer | undefined;

/** Whether spans are being recorded in this process. */
export function tracingOn(): boolean {
  return tracer !== undefined;
}

/** The endpoint traces go to, from the standard OpenTelemetry variables; undefined when tracing is off. */
function tracesEndpoint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env['OTEL_SDK_DISABLED'] === 'true' || env['OTEL_TRACES_EXPORTER'] === 'none') return undefined;
  const endpoint = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  return endpoint ? endpoint : undefined;
}

/**
 * Starts the tracing SDK for `service` when an OTLP endpoint is configured;
 * called once by the process entry, before the service opens anything.
 * Returns what flushes and stops it (a no-op when tracing is off). The
 * exporter, batching, sampler and propagators read the standard OTEL_*
 * variables; service.name is the service's own unless OTEL_SERVICE_NAME says
 * otherwise.
 */
export async function startTracing(service: string): Promise<() => Promise<void>> {
  if (!tracesEndpoint()) return async () => undefined;
  // Loaded only here: a process without an endpoint never loads the SDK.
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { defaultResource, detectResources, envDetector, resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': service, 'service.namespace': 'payment-gateway' }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  // The global provider, an AsyncLocalStorage context manager and the W3C trace-context propagator (OTEL_PROPAGATORS).
  provider.register();
  tracer = trace.getTracer('@gateway/observability');
  return async () => {
    tracer = undefined;
    await provider.shutdown().catch(() => undefined);
    trace.disable();
    context.disable();
    propagation.disable();
  };
}

/**
 * Runs `work` outside any span: work that serves many traces at once (an
 * outbox relay round, a batched statement) belongs to none of them, whichever
 * request happened to wake it.
 */
export function outsideTrace<T>(work: () => T): T {
  if (!tracer) return work();
  return context.with(ROOT_CONTEXT, work);
}

/** The trace id of the span under way, for log lines; undefined when tracing is off or no span is current. */
export function currentTraceId(): string | undefined {
  if (!tracer) return undefined;
  return trace.getSpanContext(context.active())?.traceId;
}

/** Propagation headers (W3C traceparent, tracestate) as carried by HTTP requests and AMQP messages. */
export type TraceCarrier = Record<string, unknown>;

/** Adds the current span's propagation headers to `carrier`; nothing when tracing is off or no span is current. */
export function injectTrace(carrier: TraceCarrier): void {
  if (!tracer) return;
  propagation.inject(context.active(), carrier);
}

/**
 * The current span's propagation headers as a string, to be stored with work
 * that leaves later (an outbox row); null when tracing is off or no span is current.
 */
export function traceContextToStore(): string | null {
  if (!tracer || !trace.getSpan(context.active())) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return JSON.stringify(carrier);
}

/** The propagation headers traceContextToStore wrote; undefined for none or an unreadable value. */
export function storedTraceContext(stored: string | null | undefined): TraceCarrier | undefined {
  if (!stored) return undefined;
  try {
    const carrier: unknown = JSON.parse(stored);
    return typeof carrier === 'object' && carrier !== null && !Array.isArray(carrier) ? (carrier as TraceCarrier) : undefined;
  } catch {
    return undefined;
  }
}

export interface SpanStart {
  kind: SpanKind;
  attributes?: Attributes;
  /**
   * Propagation headers to continue (an incoming request's or message's):
   * the span's parent is the span they name, or none. Without them the
   * parent is the current span.
   */
  from?: TraceCarrier;
  /** Only as the child of a current span: work that no traced work led to (a sweep, a poll) makes none. */
  childOnly?: boolean;
  /** The first span of a trace of its own, whatever span is current: work done for many traces at once. */
  root?: boolean;
  /** Spans of other traces this one works for (a batch's requests), linked to it. */
  links?: readonly OpenSpan[];
}

/** A span under way, with the context in which work becomes its children. */
export class OpenSpan {
  constructor(
    readonly span: Span,
    readonly context: Context,
  ) {}

  /** Runs `work` with this span as the current one. */
  run<T>(work: () => T): T {
    return context.with(this.context, work);
  }

  /** Propagation headers naming this span, added to `carrier` (an outgoing request's or message's). */
  inject(carrier: TraceCarrier): void {
    propagation.inject(this.context, carrier);
  }

  /** Links this span to `other`, a span of another trace it is bound up with. */
  link(other: OpenSpan): this {
    this.span.addLink({ context: other.span.spanContext() });
    return this;
  }

  set(key: string, value: string | number | boolean): this {
    this.span.setAttribute(key, value);
    return this;
  }

  /** Ends the span; with `failure`, as an error described by its class and code, never its stack. */
  end(failure?: unknown): void {
    if (failure !== undefined) this.fail(failure);
    this.span.end();
  }

  /** Ends the span when `work` settles (failed if it rejects) and passes on what `work` gives. */
  async endWhenSettled<T>(work: Promise<T>): Promise<T> {
    try {
      const result = await work;
      this.end();
      return result;
    } catch (err) {
      this.end(err);
      throw err;
    }
  }

  /** Marks the span as failed, saying `failure` (an error, or a reason) safely. */
  fail(failure: unknown): void {
    if (typeof failure === 'string') {
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
      return;
    }
    const summary = describeError(failure);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: summary.code ? `${summary.name} ${summary.code}` : summary.name });
    this.span.setAttribute('error.type', summary.code ?? summary.name);
  }
}

/** A new span, or undefined when tracing is off (or `childOnly` and no span is current). */
export function openSpan(name: string, start: SpanStart): OpenSpan | undefined {
  if (!tracer) return undefined;
  const parent = start.root ? ROOT_CONTEXT : start.from ? propagation.extract(ROOT_CONTEXT, start.from) : context.active();
  if (start.childOnly && !trace.getSpan(parent)) return undefined;
  const links = start.links?.map((other) => ({ context: other.span.spanContext() }));
  const span = tracer.startSpan(name, { kind: start.kind, ...(start.attributes && { attributes: start.attributes }), ...(links && { links }) }, parent);
  return new OpenSpan(span, trace.setSpan(parent, span));
}

/** Runs `work` in a new span that ends when it settles (failed if it throws); `work` alone when tracing is off. */
export async function traced<T>(name: string, start: SpanStart, work: (span: OpenSpan | undefined) => Promise<T>): Promise<T> {
  const span = openSpan(name, start);
  if (!span) return work(undefined);
  return span.endWhenSettled(span.run(() => work(span)));
}

/**
 * A client span for an outgoing HTTP request to `target`, named by `method`
 * and `name` (the acquirer call, the upstream's role: never a raw path), with
 * its propagation headers added to `headers` when given. Undefined when
 * tracing is off or no traced work made the request.
 */
export function httpClientSpan(method: string, target: URL, name: string, headers?: TraceCarrier): OpenSpan | undefined {
  const span = openSpan(`${method} ${name}`, {
    kind: SpanKind.CLIENT,
    childOnly: true,
    attributes: { 'http.request.method': method, 'server.address': target.hostname, 'server.port': Number(target.port) || (target.protocol === 'https:' ? 443 : 80) },
  });
  if (span && headers) span.inject(headers);
  return span;
}
