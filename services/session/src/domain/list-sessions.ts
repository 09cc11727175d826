/**
 * Listing sessions (INTERFACE 4.6, D6): newest first, cursor pagination in
 * both directions over (created_at, id).
 */
import type { ApiContext, SessionList } from '@gateway/contracts';
import { parseListQuery, toPage } from '@gateway/problem';
import { toListItem } from './session.js';
import type { SessionDeps } from './deps.js';

export async function listSessions(deps: SessionDeps, context: ApiContext, query: Record<string, unknown>): Promise<SessionList> {
  const account = { merchantId: context.merchant_id, livemode: context.livemode };
  const list = await parseListQuery(query, { noun: 'session', isOwnItem: (id) => deps.sessions.exists(account, id) });
  const rows = await deps.sessions.page(account, list.limit, { before: list.startingAfter, after: list.endingBefore });
  const { items, hasMore } = toPage(rows, list);
  const now = deps.clock();
  return { data: items.map((row) => toListItem(row, now)), has_more: hasMore };
}
