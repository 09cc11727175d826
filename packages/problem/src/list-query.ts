/**
 * The query of a cursor-paginated list endpoint (INTERFACE 4.6 and 4.8, D6):
 * `limit`, and at most one of `starting_after` / `ending_before`. Every
 * endpoint that lists pages this way reads its query here, so they all refuse
 * the same things with the same words.
 */
import { validationError, type AppError, type FieldError } from './index.js';

const MAX_PAGE_SIZE = 100;

export interface ListQuery {
  limit: number;
  /** The items created before this id (forward). */
  startingAfter?: string;
  /** The items created after this id (backward). */
  endingBefore?: string;
}

export interface ListQueryRules {
  /** What a cursor names, for messages: "session", "delivery". */
  noun: string;
  defaultLimit?: number;
  /** Whether `id` is one of the caller's items (same account and mode). */
  isOwnItem: (id: string) => Promise<boolean>;
  /** Problems the endpoint found in its own parameters (filters), reported in the same problem as the paging ones. */
  otherErrors?: readonly FieldError[];
  /** An export's page size (D21), set by the gateway or the dashboard, never by a merchant: it replaces `limit`. */
  pageSize?: number;
}

/** Parses and checks a list query; throws one validation problem naming every bad field. */
export async function parseListQuery(query: Record<string, unknown>, rules: ListQueryRules): Promise<ListQuery> {
  const errors: FieldError[] = [...(rules.otherErrors ?? [])];
  const limit = parseLimit(query['limit'], rules.defaultLimit ?? 20, errors);
  const startingAfter = parseCursor(query, 'starting_after', rules.noun, errors);
  let endingBefore = parseCursor(query, 'ending_before', rules.noun, errors);
  if (startingAfter !== undefined && endingBefore !== undefined) {
    errors.push({ field: 'ending_before', code: 'invalid', message: 'Give starting_after or ending_before, not both.' });
    endingBefore = undefined;
  }
  for (const [field, id] of [
    ['starting_after', startingAfter],
    ['ending_before', endingBefore],
  ] as const) {
    if (id !== undefined && !(await rules.isOwnItem(id))) {
      errors.push({ field, code: 'invalid', message: `${field} must be the id of one of this account's ${rules.noun}s.` });
    }
  }
  if (errors.length > 0) throw queryProblem(errors, query);
  return { limit: rules.pageSize ?? limit, ...(startingAfter !== undefined && { startingAfter }), ...(endingBefore !== undefined && { endingBefore }) };
}

/**
 * One page from rows read with `limit + 1`: rows read after an `ending_before`
 * cursor come oldest first (nearest the cursor) and are shown newest first.
 */
export function toPage<T>(rows: readonly T[], query: ListQuery): { items: T[]; hasMore: boolean } {
  const items = rows.slice(0, query.limit);
  if (query.endingBefore !== undefined) items.reverse();
  return { items, hasMore: rows.length > query.limit };
}

/** The validation problem of a query (D6): every bad parameter, in the order the request gave them. */
export function queryProblem(errors: readonly FieldError[], query: Record<string, unknown>): AppError {
  return validationError(inQueryOrder(errors, query));
}

/** D6: one entry per field in the order the request gave them (a stable sort keeps the rest as found); every query check reports its errors so. */
function inQueryOrder(errors: readonly FieldError[], query: Record<string, unknown>): FieldError[] {
  const keys = Object.keys(query);
  const position = (field: string) => {
    const at = keys.indexOf(field);
    return at === -1 ? keys.length : at;
  };
  return [...errors].sort((a, b) => position(a.field) - position(b.field));
}

function parseLimit(value: unknown, fallback: number, errors: FieldError[]): number {
  if (value === undefined) return fallback;
  const text = Array.isArray(value) ? undefined : String(value);
  if (text === undefined || !/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_PAGE_SIZE) {
    errors.push({ field: 'limit', code: 'invalid', message: `limit must be an integer from 1 to ${MAX_PAGE_SIZE}.` });
    return fallback;
  }
  return Number(text);
}

function parseCursor(query: Record<string, unknown>, field: 'starting_after' | 'ending_before', noun: string, errors: FieldError[]): string | undefined {
  const value = query[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) {
    errors.push({ field, code: 'invalid', message: `${field} must be a ${noun} id.` });
    return undefined;
  }
  return value;
}
