/** Which budgets a request is charged to (INTERFACE 8, D12), and their sizes for a merchant. */
import type { GatewayConfig } from '../config.js';
import type { ApiCaller, Budget, LimitOverrides } from '../db/merchant.repository.js';
import type { Bucket } from './token-buckets.js';

export type BudgetDefaults = Record<'live' | 'test', Record<Budget, number>>;

/** The budgets of each mode for a merchant with no overrides, from the configuration. */
export function budgetDefaults(config: GatewayConfig): BudgetDefaults {
  return {
    live: { account: config.liveAccountRps, create: config.liveCreateRps, refund: config.liveRefundRps },
    test: { account: config.testAccountRps, create: config.testCreateRps, refund: config.testRefundRps },
  };
}

/** The budgets in force for one mode of a merchant: its overrides, the defaults where it has none. */
export function budgetsInForce(defaults: Record<Budget, number>, overrides: LimitOverrides): Record<Budget, number> {
  return { account: overrides.account ?? defaults.account, create: overrides.create ?? defaults.create, refund: overrides.refund ?? defaults.refund };
}

/** The account budget, plus the route's own lower budget when it has one. */
export function bucketsFor(caller: Pick<ApiCaller, 'merchantId' | 'livemode' | 'overrides'>, routeBudget: Budget | undefined, defaults: BudgetDefaults, keyPrefix: string): Bucket[] {
  const mode = caller.livemode ? 'live' : 'test';
  const budgets: Budget[] = routeBudget ? ['account', routeBudget] : ['account'];
  const inForce = budgetsInForce(defaults[mode], caller.overrides);
  return budgets.map((budget) => {
    const perSecond = inForce[budget];
    // The hash tag keeps one merchant's buckets on one Redis Cluster slot.
    return { key: `${keyPrefix}:{${caller.merchantId}:${mode}}:${budget}`, capacity: perSecond, perSecond };
  });
}

/** The failed-authentication budget of one client address (D12). */
export function authFailureBucket(clientAddress: string, perMinute: number, keyPrefix: string): Bucket {
  return { key: `${keyPrefix}:auth:{${clientAddress}}`, capacity: perMinute, perSecond: perMinute / 60 };
}
