/**
 * What the operations console reads of merchants (D15): the list it searches
 * and pages, and one merchant with the budgets in force.
 */
import type { CommandReply, CommandRequest, MerchantSummary } from '@gateway/contracts';
import { AppError, validationError } from '@gateway/problem';
import type { MerchantSummaryRow } from '../db/merchant.repository.js';
import { budgetsInForce } from '../limits/budgets.js';
import type { AdminDeps } from './deps.js';

const DEFAULT_PAGE = 20;

/** Merchants newest first: part of the name (any case) or a whole id, a status, a page after `starting_after`. */
export async function listMerchants(deps: AdminDeps, command: CommandRequest<'merchant.list'>): Promise<CommandReply<'merchant.list'>> {
  const limit = command.limit ?? DEFAULT_PAGE;
  if (command.starting_after !== undefined && !(await deps.merchants.findMerchant(command.starting_after))) {
    throw validationError([{ field: 'starting_after', code: 'invalid', message: 'starting_after must be the id of a merchant of the previous page.' }]);
  }
  const search = command.search?.trim();
  const rows = await deps.merchants.listMerchants({
    limit,
    ...(search && { search }),
    ...(command.status && { status: command.status }),
    ...(command.starting_after !== undefined && { after: command.starting_after }),
  });
  return { data: rows.slice(0, limit).map(summaryOf), has_more: rows.length > limit };
}

/** One merchant with the budgets in force per mode: its overrides, the defaults elsewhere (D12). */
export async function getMerchant(deps: AdminDeps, command: CommandRequest<'merchant.get'>): Promise<CommandReply<'merchant.get'>> {
  const merchant = await deps.merchants.findMerchant(command.merchant_id);
  if (!merchant) throw new AppError('not-found', 'No such merchant.');
  const overrides = await deps.merchants.findLimits(merchant.id);
  return {
    ...summaryOf(merchant),
    limits: { test: budgetsInForce(deps.budgets.test, overrides.test), live: budgetsInForce(deps.budgets.live, overrides.live) },
  };
}

function summaryOf(row: MerchantSummaryRow): MerchantSummary {
  return {
    merchant_id: row.id,
    name: row.name,
    order_prefix: row.order_prefix,
    status: row.status,
    kyb_approved_at: row.kyb_approved_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}
