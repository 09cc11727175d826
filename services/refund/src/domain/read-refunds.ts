/**
 * Refunds read back (D16): one by id, or a session's, each only by the
 * account (merchant and mode) that made it; another account's is 404, as
 * sessions are.
 */
import { listFilterErrors, RefundListQuery, type ApiContext, type Refund, type RefundList, type RefundPage } from '@gateway/contracts';
import { AppError, parseListQuery, toPage, unlessNotFound, type FieldError } from '@gateway/problem';
import type { RefundFilters, RefundRow } from '../db/refund.repository.js';
import type { RefundDeps } from './deps.js';
import { refundOf } from './refund-view.js';

/** One of the account's refunds; another account's is not found. */
export async function getRefund(deps: RefundDeps, context: ApiContext, refundId: string): Promise<Refund> {
  const refund = await deps.refunds.findOwn(context.merchant_id, context.livemode, refundId);
  if (!refund) throw new AppError('not-found', `There is no refund ${refundId}.`);
  return refundOf(refund);
}

/** The refunds of one of the account's sessions. */
export async function listSessionRefunds(deps: RefundDeps, context: ApiContext, sessionId: string): Promise<RefundList> {
  const refunds = await deps.refunds.listOwn(context.merchant_id, context.livemode, sessionId);
  // No refunds yet: the session must still be the caller's (session.get answers 404 otherwise).
  if (refunds.length === 0) await deps.getSession(context, sessionId);
  return { data: refunds.map(refundOf) };
}

/** The statuses a merchant's refund status stands for (statusOf, read the other way). */
const STATUSES: Record<Refund['status'], RefundRow['status'][]> = { succeeded: ['SUCCEEDED'], failed: ['FAILED'], pending: ['PENDING', 'MANUAL'] };

/** Every refund of the account, newest first, narrowed by RefundListQuery's filters; `pageSize` (an export's, D21) replaces the query's limit. */
export async function listRefunds(deps: RefundDeps, context: ApiContext, query: Record<string, unknown>, pageSize?: number): Promise<RefundPage> {
  const errors = new Map<string, FieldError>(listFilterErrors(RefundListQuery, query).map((error) => [error.field, error]));
  const pick = (field: keyof RefundListQuery): string | undefined => {
    const value = query[field];
    return typeof value === 'string' && !errors.has(field) ? value : undefined;
  };
  const filters: RefundFilters = {};
  const status = pick('status') as Refund['status'] | undefined;
  const sessionId = pick('session_id');
  const createdGte = pick('created[gte]');
  const createdLte = pick('created[lte]');
  if (status !== undefined) filters.statuses = STATUSES[status];
  if (sessionId !== undefined) filters.sessionId = sessionId;
  if (createdGte !== undefined) filters.createdGte = createdGte;
  if (createdLte !== undefined) filters.createdLte = createdLte;
  if (createdGte !== undefined && createdLte !== undefined && Date.parse(createdGte) > Date.parse(createdLte)) {
    errors.set('created[gte]', { field: 'created[gte]', code: 'invalid', message: 'created[gte] must not be after created[lte].' });
  }
  if (sessionId !== undefined && !(await ownsSession(deps, context, sessionId))) {
    errors.set('session_id', { field: 'session_id', code: 'invalid', message: "session_id must be the id of one of this account's sessions." });
  }
  const list = await parseListQuery(query, {
    noun: 'refund',
    otherErrors: [...errors.values()],
    // An export's own cursor may have left the filters since its page (a pending refund resolved meanwhile): it need only be the account's.
    isOwnItem: (id) => deps.refunds.isOwn(context.merchant_id, context.livemode, id, pageSize === undefined ? filters : {}),
    ...(pageSize !== undefined && { pageSize }),
  });
  const rows = await deps.refunds.page(context.merchant_id, context.livemode, list.limit, { before: list.startingAfter, after: list.endingBefore }, filters);
  const { items, hasMore } = toPage(rows, list);
  return { data: items.map(refundOf), has_more: hasMore };
}

/** Whether the session is the caller's: one with refunds is; else the session service says (404 for another account's). */
async function ownsSession(deps: RefundDeps, context: ApiContext, sessionId: string): Promise<boolean> {
  if ((await deps.refunds.listOwn(context.merchant_id, context.livemode, sessionId)).length > 0) return true;
  return (await unlessNotFound(deps.getSession(context, sessionId))) !== undefined;
}
