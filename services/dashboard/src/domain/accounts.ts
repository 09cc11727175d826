/**
 * What the use cases of the people who sign in (D14, D15, D20) work with:
 * their repositories, the key that seals their second factor, the throttles'
 * Redis, the notifier that mails them, and the rules' settings; and who did
 * a change, for the audit log.
 */
import type { CommandRequest } from '@gateway/contracts';
import type { Pool } from '@gateway/db';
import type { Redis } from '@gateway/runtime';
import type { SecretBox } from '@gateway/secrets';
import type { AccountLinkRepository } from '../db/account-link.repository.js';
import type { PersonRepository } from '../db/person.repository.js';
import type { WebSessionRepository } from '../db/web-session.repository.js';

/**
 * Asks the notifier for a person's mail (D20): true once it has written it,
 * false when it could not be reached or refused it (the cause is logged).
 */
export interface PeopleMailer {
  send<C extends 'mail.invitation' | 'mail.password_reset'>(type: C, request: CommandRequest<C>): Promise<boolean>;
}

export interface AccountsDeps {
  pool: Pool;
  people: PersonRepository;
  accountLinks: AccountLinkRepository;
  sessions: WebSessionRepository;
  secrets: SecretBox;
  redis: Redis;
  publicBaseUrl: string;
  setupLinkTtlSeconds: number;
  /** D20: a reset link's lifetime, and the requests per address and per email within the window. */
  passwordResetTtlSeconds: number;
  passwordResetLimit: number;
  passwordResetWindowSeconds: number;
  /** No new reset link is mailed while the newest live one is younger than this. */
  passwordResetIntervalSeconds: number;
  mailer: PeopleMailer;
  passwordHashCost: number;
  loginFailureLimit: number;
  loginFailureWindowSeconds: number;
  /** Wrong passwords one account may take within its short window, from every address it was not signed in from lately (D29). */
  loginAccountFailureLimit: number;
  loginAccountFailureWindowSeconds: number;
  /** Wrong second-factor codes one account may take within the window, from every address together. */
  secondFactorAccountLimit: number;
  /** How long an account whose codes reached that bound takes none, right or wrong. */
  secondFactorLockoutSeconds: number;
  rateLimitKeyPrefix: string;
  afterCommit: () => void;
}

/** Who did something, for the audit log: the person, and where from. */
export interface Doer {
  type: 'user' | 'operator';
  id: string;
  email: string;
  address: string;
  /** The key a gateway-admin operator signed with. */
  keyId?: string;
}

/** An email as the accounts keep it: trimmed, lower case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
