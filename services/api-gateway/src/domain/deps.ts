/** What the gateway's operator and dashboard use cases work with. */
import type { Authenticator } from '../auth/authenticator.js';
import type { MerchantRepository } from '../db/merchant.repository.js';
import type { BudgetDefaults } from '../limits/budgets.js';

export interface AdminDeps {
  merchants: MerchantRepository;
  auth: Authenticator;
  budgets: BudgetDefaults;
  /** The graces a rotated key may keep working for, in seconds (KEY_ROTATION_GRACES_SECONDS). */
  rotationGracesSeconds: readonly number[];
  /** WEBHOOK_ALLOW_PRIVATE: lifts D11's address rule for a new merchant's webhook URL (development and tests). */
  allowPrivateWebhooks: boolean;
  afterCommit: () => void;
}
