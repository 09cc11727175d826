/** What the session use cases need from the outside world. */
import type { TerminalStatus } from '@gateway/contracts';
import type { RpcClient } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import type { AttemptRepository } from '../db/attempt.repository.js';
import type { CustomerRepository } from '../db/customer.repository.js';
import type { CheckoutLinkRepository } from '../db/checkout-link.repository.js';
import type { ExchangeRateRepository } from '../db/exchange-rate.repository.js';
import type { HoldRepository } from '../db/hold.repository.js';
import type { RefundRecordRepository } from '../db/refund-record.repository.js';
import type { SessionStatsRepository } from '../db/session-stats.repository.js';
import type { SessionRepository } from '../db/session.repository.js';
import type { CaptureOutcomeChange } from './capture-outcome.js';
import type { CheckoutLinkSigner } from './checkout-links.js';
import type { PaymentOutcomeChange } from './payment-outcome.js';
import type { StepsUnderway } from './steps-underway.js';

export interface SessionDeps {
  /** The payment steps this process is recording the outcomes of. */
  underway: StepsUnderway;
  sessions: SessionRepository;
  attempts: AttemptRepository;
  checkoutLinks: CheckoutLinkRepository;
  holds: HoldRepository;
  refundRecords: RefundRecordRepository;
  rates: ExchangeRateRepository;
  stats: SessionStatsRepository;
  /** Customers and their saved cards (D24). */
  customers: CustomerRepository;
  signer: CheckoutLinkSigner;
  /** The current time; tests pass their own. */
  clock: () => Date;
  publicBaseUrl: string;
  sessionTtlSeconds: number;
  checkoutLinkTtlSeconds: number;
  /** D11's address rule lifted for webhook_url (WEBHOOK_ALLOW_PRIVATE). */
  allowPrivateWebhooks: boolean;
  /** The merchant's live terminal, as the acquirer adapter knows it. */
  terminalStatus: (merchantId: string) => Promise<TerminalStatus>;
  /** Commands to the acquirer adapter (a payment's steps). */
  adapter: Pick<RpcClient, 'call'>;
  adapterTimeoutMs: number;
  log: Logger;
  /** An attempt's outcome, applied once whichever path brings it first. */
  outcomes: PaymentOutcomeChange;
  /** A capture's outcome (D22), likewise. */
  captures: CaptureOutcomeChange;
  /** How long a capture waits for the adapter's answer. */
  captureTimeoutMs: number;
  /** How long after a capture started it is asked about again if its outcome is still unknown. */
  captureCheckAfterSeconds: number;
  /** Called after a commit that enqueued events, so the outbox relay sends them now. */
  afterCommit: () => void;
}
