/**
 * Prometheus metrics shared by every service: one process-wide registry with
 * Node's default metrics and a `service` label on every series. Other
 * packages create their families through the helpers here, never through
 * prom-client, so there is one registry and one naming style.
 *
 * Labels take values from small closed sets only (route patterns, command and
 * event types, outcomes): never ids, card data, keys, URLs or merchants.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type { Counter, Gauge, Histogram } from 'prom-client';

/** The registry /metrics serves. */
const metricsRegistry = new Registry();
// The event loop's delay sampled every 100 ms, not prom-client's default 10 ms: its timer woke
// every process 100 times a second, 6.3 ms of CPU a second idle against 2.6 (about 0.7 ms of a
// payment's CPU across the services at 60 payments/s; BENCHMARKS.md). Blocked loops still show.
collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 100 });

/** Latency buckets in seconds, from 2 ms (a cached read) to 30 s (an acquirer timeout). */
const LATENCY_BUCKETS: readonly number[] = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Labels every series with the service's name; called once by the process entry. */
export function setMetricsService(service: string): void {
  metricsRegistry.setDefaultLabels({ service });
}

// A family is created once per process: services started twice in one test process share it.
function existing<M>(name: string, kind: string): M | undefined {
  const metric = metricsRegistry.getSingleMetric(name) as unknown as { type?: string } | undefined;
  if (metric && metric.type !== kind) throw new Error(`metric ${name} exists with another type`);
  return metric as M | undefined;
}

/** A counter (name ends in `_total`) in the shared registry. */
export function counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return existing<Counter<L>>(name, 'counter') ?? new Counter<L>({ name, help, labelNames, registers: [metricsRegistry] });
}

/** A histogram (in base units: `_seconds`) in the shared registry. */
export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[] = [], buckets: readonly number[] = LATENCY_BUCKETS): Histogram<L> {
  return existing<Histogram<L>>(name, 'histogram') ?? new Histogram<L>({ name, help, labelNames, buckets: [...buckets], registers: [metricsRegistry] });
}

/**
 * A gauge in the shared registry. With `collect`, its value is computed at
 * scrape time (`collect` sets it); only the first creation's `collect` counts.
 */
export function gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = [], collect?: (gauge: Gauge<L>) => Promise<void> | void): Gauge<L> {
  const found = existing<Gauge<L>>(name, 'gauge');
  if (found) return found;
  return new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [metricsRegistry],
    ...(collect && {
      collect(this: Gauge<L>) {
        return collect(this);
      },
    }),
  });
}

/** The whole registry in Prometheus text format, with its content type. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/** Seconds elapsed since `start` (a `process.hrtime.bigint()` reading). */
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}
