/**
 * The SQL of a cursor-paginated list (INTERFACE 4.6): its filters as
 * conditions on numbered parameters, and one page keyed on (created_at, id),
 * newest first, so rows sharing a timestamp are neither skipped nor repeated.
 * Every service's list reads its pages here.
 */
import type { Queryable } from './index.js';

/** A filter: a condition with one `?` for its value; left out when the value is undefined. */
export type Filter = readonly [condition: string, value: unknown];

/** ` AND <condition>` for each filter with a value, its value pushed onto `params` as the `?`. */
function filterConditions(filters: readonly Filter[], params: unknown[]): string {
  let where = '';
  for (const [condition, value] of filters) {
    if (value === undefined) continue;
    params.push(value);
    where += ` AND ${condition.replace('?', `$${params.length}`)}`;
  }
  return where;
}

export interface PageQuery {
  /** The table, and the columns read from it. */
  readonly table: string;
  readonly columns: string;
  /** Conditions on the account (merchant_id = $1 AND livemode = $2) are added here; these are the list's own. */
  readonly merchantId: string;
  readonly livemode: boolean;
  readonly filters: readonly Filter[];
  readonly limit: number;
  /** `before`: rows older than that one; `after`: the nearest newer ones. */
  readonly cursor: { readonly before?: string | undefined; readonly after?: string | undefined };
}

/**
 * Up to limit + 1 rows of the account matching the filters (so the caller can
 * tell whether more remain): newest first, or oldest first after an `after`
 * cursor (nearest the cursor first; toPage turns them round).
 */
export async function readPage<R extends object>(db: Queryable, query: PageQuery): Promise<R[]> {
  const params: unknown[] = [query.merchantId, query.livemode, query.limit + 1];
  let where = filterConditions(query.filters, params);
  let order = 'DESC';
  const anchor = query.cursor.before ?? query.cursor.after;
  if (anchor !== undefined) {
    params.push(anchor);
    const op = query.cursor.before !== undefined ? '<' : '>';
    where += ` AND (created_at, id) ${op} (SELECT created_at, id FROM ${query.table} WHERE id = $${params.length} AND merchant_id = $1 AND livemode = $2)`;
    if (query.cursor.after !== undefined) order = 'ASC';
  }
  const result = await db.query<R>(
    `SELECT ${query.columns} FROM ${query.table} WHERE merchant_id = $1 AND livemode = $2${where} ORDER BY created_at ${order}, id ${order} LIMIT $3`,
    params,
  );
  return result.rows;
}

/** Whether `id` is a row of the account matching the filters: a list's cursor must be. */
export async function isOwnRow(db: Queryable, table: string, merchantId: string, livemode: boolean, id: string, filters: readonly Filter[]): Promise<boolean> {
  const params: unknown[] = [id, merchantId, livemode];
  const result = await db.query(`SELECT 1 FROM ${table} WHERE id = $1 AND merchant_id = $2 AND livemode = $3${filterConditions(filters, params)}`, params);
  return result.rowCount === 1;
}
