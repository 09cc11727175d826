/**
 * W3C trace context across the broker: the sender's span travels in the AMQP
 * message headers (`traceparent`, `tracestate`) and the receiver's span
 * continues it, so one payment's HTTP, AMQP and database spans form one trace
 * through every service. An outbox row keeps the context of the transaction
 * that wrote it, and the relay's publish continues that trace however much
 * later it runs. Every function here is one check when tracing is off.
 */
import type { ConsumeMessage } from 'amqplib';
import type { Envelope } from '@gateway/contracts';
import { injectTrace, openSpan, SpanKind, storedTraceContext, traceContextToStore, traced, tracingOn, type TraceCarrier } from '@gateway/observability';

const RABBITMQ = 'rabbitmq';

/** Runs a command's round trip (`send`) in a client span whose context its headers carry (see withTraceHeaders), named by its correlation id. */
export function traceCommandCall<T>(type: string, queue: () => string, correlationId: string, send: () => Promise<T>): Promise<T> {
  if (!tracingOn()) return send();
  return traced(
    `send ${type}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'messaging.system': RABBITMQ,
        'messaging.operation.type': 'send',
        'messaging.destination.name': queue(),
        'messaging.message.conversation_id': correlationId,
        'rpc.method': type,
      },
    },
    send,
  );
}

/** `headers` with the current span's propagation headers added (the command's client span, in RpcClient). */
export function withTraceHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  injectTrace(headers);
  return headers;
}

/** The trace context an outbox row keeps: its writer's span; null when tracing is off. */
export function outboxTraceContext(): string | null {
  return traceContextToStore();
}

/**
 * Publishes an outbox row's event in a producer span that continues the
 * trace the row kept; `publish` gets the headers to send (undefined when
 * tracing is off or the row kept none) and resolves once confirmed.
 */
export function tracePublish<T>(stored: string | null | undefined, exchange: string, envelope: Envelope, publish: (headers: TraceCarrier | undefined) => Promise<T>): Promise<T> {
  const from = tracingOn() ? storedTraceContext(stored) : undefined;
  const span =
    from &&
    openSpan(`publish ${envelope.type}`, {
      kind: SpanKind.PRODUCER,
      from,
      attributes: {
        'messaging.system': RABBITMQ,
        'messaging.operation.type': 'send',
        'messaging.destination.name': exchange,
        'messaging.rabbitmq.destination.routing_key': envelope.type,
        'messaging.message.id': envelope.id,
        'messaging.message.conversation_id': envelope.correlation_id,
      },
    });
  if (!span) return publish(undefined);
  const headers: TraceCarrier = {};
  span.inject(headers);
  return span.endWhenSettled(publish(headers));
}

/**
 * Runs the handling of a delivery (until it is acked or nacked) in a consumer
 * span continuing the trace its headers carry; `handle` alone when tracing is off.
 */
export function traceDelivery(msg: ConsumeMessage, queue: string, handle: () => Promise<void>): Promise<void> {
  if (!tracingOn()) return handle();
  const type = typeof msg.properties.type === 'string' ? msg.properties.type : 'message';
  // A message that carries no trace context starts a trace of its own.
  const headers = (msg.properties.headers ?? {}) as TraceCarrier;
  return traced(
    `process ${type}`,
    {
      kind: SpanKind.CONSUMER,
      from: headers,
      attributes: {
        'messaging.system': RABBITMQ,
        'messaging.operation.type': 'process',
        'messaging.destination.name': queue,
        ...(typeof msg.properties.messageId === 'string' && { 'messaging.message.id': msg.properties.messageId }),
        ...(msg.fields.redelivered && { 'messaging.rabbitmq.redelivered': true }),
      },
    },
    handle,
  );
}
