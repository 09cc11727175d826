/**
 * The session service's events: each change its event consumer applies, the
 * events that announce it, and what each event carries of it; the use case
 * that applies it is in domain/. The same changes also come by other paths
 * (a payment step's answer, a check, the refund service's command):
 * apply-once (packages/messaging) applies each once, whichever comes first.
 */
import type { EventData } from '@gateway/contracts';
import type { AnyChange } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import type { CustomerRepository } from '../db/customer.repository.js';
import type { AttemptRepository } from '../db/attempt.repository.js';
import type { HoldRepository } from '../db/hold.repository.js';
import type { MerchantStandingRepository } from '../db/merchant-standing.repository.js';
import type { MerchantWalletRepository } from '../db/merchant-wallet.repository.js';
import type { RefundRecordRepository } from '../db/refund-record.repository.js';
import { applyCaptureOutcome, type CaptureOutcomeChange } from '../domain/capture-outcome.js';
import { recordStanding, type MerchantStandingChange } from '../domain/merchant-standing.js';
import { recordWallet, type MerchantWalletChange } from '../domain/merchant-wallet.js';
import { applyPaymentOutcome, type PaymentOutcome, type PaymentOutcomeChange } from '../domain/payment-outcome.js';
import { countRefund, type RefundRecordChange } from '../domain/record-refund.js';
import type { StepsUnderway } from '../domain/steps-underway.js';

export interface SessionChanges {
  /** An attempt's outcome (payment.approved, payment.authorized, payment.declined). */
  outcomes: PaymentOutcomeChange;
  /** A capture's outcome (payment.captured, payment.capture_failed, D22). */
  captures: CaptureOutcomeChange;
  /** A refund counted in amount_refunded (refund.created, refund.updated, D16). */
  refunds: RefundRecordChange;
  /** A merchant suspended or reactivated. */
  standing: MerchantStandingChange;
  /** A merchant's live Flouci connected or removed (D26). */
  wallets: MerchantWalletChange;
}

export interface SessionChangeDeps {
  attempts: AttemptRepository;
  customers: CustomerRepository;
  holds: HoldRepository;
  refundRecords: RefundRecordRepository;
  standings: MerchantStandingRepository;
  wallets: MerchantWalletRepository;
  log: Logger;
  /** D22: how long a held payment stays capturable. */
  authorizationTtlSeconds: number;
  /** The payment steps this process is recording the outcomes of (their events then wait for them). */
  underway: StepsUnderway;
}

/** The session service's changes, each with the events that announce it. */
export function sessionChanges(deps: SessionChangeDeps): SessionChanges {
  return {
    outcomes: {
      name: 'payment-outcome',
      events: ['payment.approved', 'payment.authorized', 'payment.declined'],
      fromEvent: (data, context) => {
        switch (context.event?.type) {
          case 'payment.approved':
            return { approved: data as EventData<'payment.approved'> };
          case 'payment.authorized':
            return { authorized: data as EventData<'payment.authorized'> };
          default:
            return { declined: data as EventData<'payment.declined'> };
        }
      },
      // An outcome this process's own payment step recorded is the same change: nothing more to do.
      apply: async (outcome, context) => (context.event && (await deps.underway.recorded(attemptOf(outcome))) ? undefined : applyPaymentOutcome(deps, outcome, context)),
    },
    captures: {
      name: 'capture-outcome',
      events: ['payment.captured', 'payment.capture_failed'],
      fromEvent: (data, context) =>
        context.event?.type === 'payment.captured' ? { captured: data as EventData<'payment.captured'> } : { failed: data as EventData<'payment.capture_failed'> },
      apply: (outcome, context) => applyCaptureOutcome(deps, outcome, context),
    },
    refunds: {
      name: 'refund-record',
      events: ['refund.created', 'refund.updated'],
      fromEvent: (data: EventData<'refund.created' | 'refund.updated'>) => {
        const refund = data.session.refund;
        return refund && { sessionId: data.session.id, refundId: refund.refund_id, amount: refund.amount, outcome: refund.status === 'failed' ? 'failed' : 'held' };
      },
      apply: (record) => countRefund(deps.refundRecords, record),
    },
    standing: {
      name: 'merchant-standing',
      events: ['merchant.suspended', 'merchant.reactivated'],
      fromEvent: (data, context) => ({ merchantId: data.merchant_id, suspended: context.event?.type === 'merchant.suspended' }),
      apply: (standing, context) => recordStanding(deps.standings, standing, context.at),
    },
    wallets: {
      name: 'merchant-wallet',
      events: ['wallet.connected'],
      fromEvent: (data) => (data.livemode ? { merchantId: data.merchant_id, flouciLive: data.connected } : undefined),
      apply: (wallet, context) => recordWallet(deps.wallets, wallet, context.at),
    },
  };
}

/** The changes the event consumer applies, whichever event of theirs arrives. */
export function sessionEvents(changes: SessionChanges): AnyChange[] {
  return [changes.outcomes, changes.captures, changes.refunds, changes.standing, changes.wallets];
}

function attemptOf(outcome: PaymentOutcome): string {
  if ('approved' in outcome) return outcome.approved.attempt_id;
  if ('authorized' in outcome) return outcome.authorized.attempt_id;
  return outcome.declined.attempt_id;
}
