/** What each role of a merchant's team may do (D14): owner everything, the team and the wallet's keys (D26); developer keys, webhooks, rates, payments, refunds; viewer reads. */
import type { DashboardRole } from '@gateway/contracts';

export type Permission = 'read' | 'develop' | 'team' | 'audit' | 'wallet';

const GRANTS: Readonly<Record<DashboardRole, readonly Permission[]>> = {
  owner: ['read', 'develop', 'team', 'audit', 'wallet'],
  developer: ['read', 'develop'],
  viewer: ['read'],
};

/** Whether a person with `role` (null: none) may do what `permission` covers. */
export function may(role: DashboardRole | null, permission: Permission): boolean {
  return role !== null && GRANTS[role].includes(permission);
}
