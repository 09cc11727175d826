/**
 * How PostgreSQL runs a repository's own statements: a pool that records the
 * statements it is given, and EXPLAIN (ANALYZE) of one of them summed up as a
 * test checks it (which indexes, any sequential scan or sort, how many rows
 * were read only to be filtered out).
 */
import type pg from 'pg';

export interface RecordedQuery {
  text: string;
  values: unknown[];
}

/** `pool`, recording every text query it runs into `recorded` (to EXPLAIN them afterwards). */
export function recordingPool(pool: pg.Pool, recorded: RecordedQuery[]): pg.Pool {
  return new Proxy(pool, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
      return (text: unknown, values?: unknown[]) => {
        if (typeof text === 'string') recorded.push({ text, values: values ?? [] });
        return target.query(text as string, values);
      };
    },
  });
}

interface PlanSummary {
  /** Every node type, depth first. */
  nodes: string[];
  /** The indexes scanned. */
  indexes: string[];
  /** Relations read by a sequential scan. */
  seqScans: string[];
  /** Sort nodes: an order no index gave. */
  sorts: number;
  /** Rows fed into those sorts: what not having the order cost. */
  rowsSorted: number;
  /** Rows read and then dropped by a filter, summed over the nodes (and their loops). */
  rowsRemovedByFilter: number;
  executionMs: number;
  /** The plan as text, for assertion messages. */
  text: string;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Actual Loops'?: number;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

/** Runs EXPLAIN (ANALYZE) of `query` and sums up its plan. */
export async function explainQuery(pool: Pick<pg.Pool, 'query'>, query: RecordedQuery): Promise<PlanSummary> {
  const json = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.text}`, query.values);
  const text = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${query.text}`, query.values);
  const root = json.rows[0]?.['QUERY PLAN'][0];
  if (!root) throw new Error('EXPLAIN returned no plan');
  const summary: PlanSummary = { nodes: [], indexes: [], seqScans: [], sorts: 0, rowsSorted: 0, rowsRemovedByFilter: 0, executionMs: root['Execution Time'], text: text.rows.map((row) => row['QUERY PLAN']).join('\n') };
  const visit = (node: PlanNode) => {
    summary.nodes.push(node['Node Type']);
    if (node['Index Name']) summary.indexes.push(node['Index Name']);
    if (node['Node Type'] === 'Seq Scan') summary.seqScans.push(node['Relation Name'] ?? '?');
    if (node['Node Type'] === 'Sort' || node['Node Type'] === 'Incremental Sort') {
      summary.sorts += 1;
      summary.rowsSorted += (node.Plans?.[0]?.['Actual Rows'] ?? 0) * (node.Plans?.[0]?.['Actual Loops'] ?? 1);
    }
    summary.rowsRemovedByFilter += ((node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * (node['Actual Loops'] ?? 1);
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(root.Plan);
  return summary;
}
