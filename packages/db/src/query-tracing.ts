/**
 * Spans for the queries a pool runs, when tracing is on: one client span per
 * statement, the child of the work that issued it (a request, a command, an
 * event). Statements no traced work issued (sweeps, the relay's polling,
 * readiness probes) make none. A span names the prepared statement or the SQL
 * verb and records the parameterised text, never the values.
 */
import type pg from 'pg';
import { openSpan, SpanKind } from '@gateway/observability';

type Query = (...args: unknown[]) => unknown;

const VERB = /^\s*([A-Za-z]+)/;

/** Wraps the promise-returning form of `query`; callbacks and submittables (cursors) pass through untouched. */
function tracedQuery(query: Query, database: string): Query {
  return function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: unknown; name?: unknown; submit?: unknown } | undefined;
    // pg-pool's own query calls the client's with a callback: that one is the pool's span.
    if (typeof args.at(-1) === 'function' || (typeof first === 'object' && typeof first?.submit === 'function')) return query.apply(this, args);
    const text = typeof first === 'string' ? first : typeof first?.text === 'string' ? first.text : '';
    const verb = (VERB.exec(text)?.[1] ?? 'query').toUpperCase();
    const name = typeof first === 'object' && typeof first.name === 'string' ? first.name : undefined;
    const span = openSpan(name ?? verb, {
      kind: SpanKind.CLIENT,
      childOnly: true,
      attributes: { 'db.system.name': 'postgresql', 'db.namespace': database, 'db.operation.name': verb, 'db.query.text': text, ...(name && { 'db.query.summary': name }) },
    });
    if (!span) return query.apply(this, args);
    return span.endWhenSettled(query.apply(this, args) as Promise<unknown>);
  };
}

/** Traces the queries of `pool`: those it runs itself and those of the clients it hands out. */
export function traceQueries(pool: pg.Pool, database: string): void {
  const target = pool as unknown as { query: Query };
  target.query = tracedQuery(target.query.bind(pool), database);
  pool.on('connect', (client) => {
    const own = client as unknown as { query: Query };
    own.query = tracedQuery(own.query.bind(client), database);
  });
}
