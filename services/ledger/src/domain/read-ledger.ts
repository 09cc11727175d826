/**
 * The ledger read back (D21), each read only by the account (merchant and
 * mode) it belongs to: the balance transactions, the balance, the daily
 * report. Every answer comes from what the ledger wrote; the report reads one
 * row of totals a day, never the entries.
 */
import { BalanceTransactionListQuery, dayRangeOf, listFilterErrors, tunisDate, type ApiContext, type Balance, type BalanceTransactionList, type BalanceTransactionType, type DailyReport } from '@gateway/contracts';
import { parseListQuery, queryProblem, toPage, type FieldError } from '@gateway/problem';
import type { Account, EntryFilters, LedgerRepository } from '../db/ledger.repository.js';

export interface LedgerDeps {
  ledger: LedgerRepository;
  clock: () => Date;
  /** Whether the account has session `sessionId` (the session service's answer): a filter may only name the caller's own sessions. */
  ownsSession: (context: ApiContext, sessionId: string) => Promise<boolean>;
}

const accountOf = (context: ApiContext): Account => ({ merchantId: context.merchant_id, livemode: context.livemode });

/** A page of the account's balance transactions (INTERFACE 4.9); `pageSize` (an export's, D21) replaces the query's limit. */
export async function listTransactions(deps: LedgerDeps, context: ApiContext, query: Record<string, unknown>, pageSize?: number): Promise<BalanceTransactionList> {
  const account = accountOf(context);
  const { filters, errors } = checkFilters(query);
  if (filters.sessionId !== undefined && !errors.has('session_id')) {
    const own = (await deps.ledger.hasSession(account, filters.sessionId)) || (await deps.ownsSession(context, filters.sessionId));
    if (!own) errors.set('session_id', { field: 'session_id', code: 'invalid', message: "session_id must be the id of one of this account's sessions." });
  }
  const list = await parseListQuery(query, {
    noun: 'balance transaction',
    otherErrors: [...errors.values()],
    isOwnItem: (id) => deps.ledger.exists(account, id, filters),
    ...(pageSize !== undefined && { pageSize }),
  });
  const rows = await deps.ledger.page(account, list.limit, { before: list.startingAfter, after: list.endingBefore }, filters);
  const { items, hasMore } = toPage(rows, list);
  return {
    data: items.map((row) => ({
      id: row.id,
      type: row.type,
      session_id: row.session_id,
      source: row.source,
      amount: row.amount,
      fee: row.fee,
      net: row.net,
      currency: 'TND' as const,
      created_at: row.created_at.toISOString(),
      available_on: row.available_on,
      livemode: row.livemode,
      payment_method: row.payment_method,
    })),
    has_more: hasMore,
  };
}

/** The account's balance: available and pending, in TND. */
export async function readBalance(deps: LedgerDeps, context: ApiContext): Promise<Balance> {
  const { available, pending } = await deps.ledger.balance(accountOf(context), tunisDate(deps.clock()));
  return { available, pending, currency: 'TND', livemode: context.livemode };
}

/** The account's totals by Africa/Tunis day over a range of days (D21). */
export async function dailyReport(deps: LedgerDeps, context: ApiContext, query: Record<string, unknown>): Promise<DailyReport> {
  const checked = dayRangeOf(query);
  if ('errors' in checked) throw queryProblem(checked.errors, query);
  const { from, to } = checked.range;
  const days = await deps.ledger.days(accountOf(context), from, to);
  return { data: days.map((day) => ({ ...day, payments_count: Number(day.payments_count) })), livemode: context.livemode };
}

/** The list's filters, checked by its contract: unknown parameters and bad values each name their field. */
function checkFilters(query: Record<string, unknown>): { filters: EntryFilters; errors: Map<string, FieldError> } {
  const errors = new Map<string, FieldError>(listFilterErrors(BalanceTransactionListQuery, query).map((error) => [error.field, error]));
  const pick = (field: keyof BalanceTransactionListQuery): string | undefined => {
    const value = query[field];
    return typeof value === 'string' && !errors.has(field) ? value : undefined;
  };
  const filters: EntryFilters = {};
  const type = pick('type');
  const sessionId = pick('session_id');
  const createdGte = pick('created[gte]');
  const createdLte = pick('created[lte]');
  if (type !== undefined) filters.type = type as BalanceTransactionType;
  if (sessionId !== undefined) filters.sessionId = sessionId;
  if (createdGte !== undefined) filters.createdGte = createdGte;
  if (createdLte !== undefined) filters.createdLte = createdLte;
  if (createdGte !== undefined && createdLte !== undefined && Date.parse(createdGte) > Date.parse(createdLte)) {
    errors.set('created[gte]', { field: 'created[gte]', code: 'invalid', message: 'created[gte] must not be after created[lte].' });
  }
  return { filters, errors };
}
