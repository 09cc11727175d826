/**
 * Listing sessions (INTERFACE 4.6, D6): newest first, cursor pagination in
 * both directions over (created_at, id), narrowed by the filters of issue 19.
 * A cursor is a session id; it must itself match the filters it comes with,
 * so a cursor from one filtered list cannot silently page through another.
 */
import { listFilterErrors, SessionListQuery, type ApiContext, type SessionList } from '@gateway/contracts';
import { parseListQuery, toPage, type FieldError } from '@gateway/problem';
import type { SessionFilters } from '../db/session.repository.js';
import { accountOf } from './accounts.js';
import { toListItem } from './session.js';
import type { SessionDeps } from './deps.js';

/**
 * A page of the account's sessions; `pageSize` (an export's, D21) replaces the
 * query's limit; the dashboard's own filters (their format checked by the
 * contract) keep the sessions made through a payment link (D19) or for a customer (D24).
 */
export async function listSessions(
  deps: SessionDeps,
  context: ApiContext,
  query: Record<string, unknown>,
  pageSize?: number,
  own: { paymentLink?: string | undefined; customerId?: string | undefined } = {},
): Promise<SessionList> {
  const account = accountOf(context);
  const { filters, errors } = checkFilters(query);
  if (own.paymentLink !== undefined) filters.paymentLink = own.paymentLink;
  if (own.customerId !== undefined) filters.customerId = own.customerId;
  const list = await parseListQuery(query, {
    noun: 'session',
    otherErrors: errors,
    // An export's own cursor may have left the filters since its page (a CREATED session paid meanwhile): it need only be the account's.
    isOwnItem: (id) => deps.sessions.exists(account, id, pageSize === undefined ? filters : {}),
    ...(pageSize !== undefined && { pageSize }),
  });
  const rows = await deps.sessions.page(account, list.limit, { before: list.startingAfter, after: list.endingBefore }, filters);
  const { items, hasMore } = toPage(rows, list);
  const now = deps.clock();
  return { data: items.map((row) => toListItem(row, now)), has_more: hasMore };
}

/** The filters of a list query, checked by its contract: unknown parameters and bad values each name their field. */
function checkFilters(query: Record<string, unknown>): { filters: SessionFilters; errors: FieldError[] } {
  const errors = new Map<string, FieldError>(listFilterErrors(SessionListQuery, query).map((error) => [error.field, error]));
  const filters: SessionFilters = {};
  const pick = (field: keyof SessionListQuery): string | undefined => {
    const value = query[field];
    return typeof value === 'string' && !errors.has(field) ? value : undefined;
  };
  const status = pick('status');
  const createdGte = pick('created[gte]');
  const createdLte = pick('created[lte]');
  const reference = pick('merchant_reference');
  if (status !== undefined) filters.status = status;
  if (createdGte !== undefined) filters.createdGte = createdGte;
  if (createdLte !== undefined) filters.createdLte = createdLte;
  if (reference !== undefined) filters.merchantReference = reference;
  if (createdGte !== undefined && createdLte !== undefined && Date.parse(createdGte) > Date.parse(createdLte)) {
    errors.set('created[gte]', { field: 'created[gte]', code: 'invalid', message: 'created[gte] must not be after created[lte].' });
  }
  return { filters, errors: [...errors.values()] };
}
