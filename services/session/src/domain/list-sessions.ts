/**
 * Listing sessions (INTERFACE 4.6, D6): newest first, cursor pagination in
 * both directions over (created_at, id).
 */
import type { ApiContext, SessionList } from '@gateway/contracts';
import { validationError, type FieldError } from '@gateway/problem';
import { toListItem } from './session.js';
import type { SessionDeps } from './deps.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export async function listSessions(deps: SessionDeps, context: ApiContext, query: Record<string, unknown>): Promise<SessionList> {
  const account = { merchantId: context.merchant_id, livemode: context.livemode };
  const errors: FieldError[] = [];
  const limit = parseLimit(query['limit'], errors);
  const startingAfter = parseCursor(query, 'starting_after', errors);
  let endingBefore = parseCursor(query, 'ending_before', errors);
  if (startingAfter !== undefined && endingBefore !== undefined) {
    errors.push({ field: 'ending_before', code: 'invalid', message: 'Give starting_after or ending_before, not both.' });
    endingBefore = undefined;
  }
  for (const [field, id] of [
    ['starting_after', startingAfter],
    ['ending_before', endingBefore],
  ] as const) {
    if (id !== undefined && !(await deps.sessions.exists(account, id))) {
      errors.push({ field, code: 'invalid', message: `${field} must be the id of one of this account's sessions.` });
    }
  }
  if (errors.length > 0) throw validationError(errors);

  const rows = await deps.sessions.page(account, limit, { before: startingAfter, after: endingBefore });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  // Pages before a cursor are read oldest first, nearest the cursor; shown newest first.
  if (endingBefore !== undefined) page.reverse();
  const now = deps.clock();
  return { data: page.map((row) => toListItem(row, now)), has_more: hasMore };
}

function parseLimit(value: unknown, errors: FieldError[]): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const text = Array.isArray(value) ? undefined : String(value);
  if (text === undefined || !/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_LIMIT) {
    errors.push({ field: 'limit', code: 'invalid', message: `limit must be an integer from 1 to ${MAX_LIMIT}.` });
    return DEFAULT_LIMIT;
  }
  return Number(text);
}

function parseCursor(query: Record<string, unknown>, field: 'starting_after' | 'ending_before', errors: FieldError[]): string | undefined {
  const value = query[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) {
    errors.push({ field, code: 'invalid', message: `${field} must be a session id.` });
    return undefined;
  }
  return value;
}
