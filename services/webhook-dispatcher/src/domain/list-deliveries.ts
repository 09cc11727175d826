/**
 * Delivery history (INTERFACE 4.7 and 4.8): attempts newest first, with the
 * session list's cursor pagination (D6), both directions. The account's list
 * takes a status filter (the dashboard's "failed only", D14); as with the
 * session list, a cursor must itself match the filter it comes with.
 */
import { listFilterErrors, SessionWebhookListQuery, WebhookListQuery, type ApiContext, type WebhookDeliveryList } from '@gateway/contracts';
import { parseListQuery, toPage, type FieldError } from '@gateway/problem';
import type { DeliveryFilters } from '../db/delivery-history.repository.js';
import { accountOf } from './accounts.js';
import { toDelivery } from './delivery-view.js';
import type { HistoryDeps } from './deps.js';

/** GET /gateway/webhooks/: the account's attempts, of one status when asked. */
export async function listDeliveries(deps: HistoryDeps, context: ApiContext, query: Record<string, unknown>): Promise<WebhookDeliveryList> {
  const account = accountOf(context);
  const { filters, errors } = checkFilters(query);
  const list = await parseListQuery(query, { noun: 'delivery', otherErrors: errors, isOwnItem: (id) => deps.history.exists(account, id, filters) });
  const rows = await deps.history.page(account, list.limit, { before: list.startingAfter, after: list.endingBefore, ...filters });
  const { items, hasMore } = toPage(rows, list);
  return { data: items.map(toDelivery), has_more: hasMore };
}

/** The filter of a list query, checked by its contract: unknown parameters and bad values each name their field. */
function checkFilters(query: Record<string, unknown>): { filters: DeliveryFilters; errors: FieldError[] } {
  const errors = listFilterErrors(WebhookListQuery, query);
  const status = query['status'];
  const filters: DeliveryFilters = typeof status === 'string' && !errors.some((error) => error.field === 'status') ? { status: status as NonNullable<DeliveryFilters['status']> } : {};
  return { filters, errors };
}

/**
 * GET /gateway/sessions/{id}/webhooks/: one session's attempts, up to 100 at
 * a time. A session the dispatcher has no event of is asked of the session
 * service, so a session of another account is 404, and one of the caller's
 * with no events yet is an empty list.
 */
export async function listSessionDeliveries(deps: HistoryDeps, context: ApiContext, sessionId: string, query: Record<string, unknown>): Promise<WebhookDeliveryList> {
  const account = accountOf(context);
  if (!(await deps.history.knowsSession(account, sessionId))) await deps.getSession(context, sessionId);
  const list = await parseListQuery(query, { noun: 'delivery', defaultLimit: 100, otherErrors: listFilterErrors(SessionWebhookListQuery, query), isOwnItem: (id) => deps.history.exists(account, id, { sessionId }) });
  const rows = await deps.history.page(account, list.limit, { before: list.startingAfter, after: list.endingBefore, sessionId });
  const { items, hasMore } = toPage(rows, list);
  return { data: items.map(toDelivery), has_more: hasMore };
}
