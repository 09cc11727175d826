-- The trace context (W3C traceparent and tracestate, as JSON) of the work that
-- wrote an outbox row, so that the relay's publish continues that trace. NULL
-- when tracing is off. Adding a nullable column rewrites nothing.
ALTER TABLE outbox ADD COLUMN trace_context text;
