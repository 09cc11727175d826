/**
 * The slots of a payment link that may be paid only max_payments times
 * (D19): a link is never paid more often than that, however many buyers pay
 * at once. A session made through such a link takes a slot of it when its
 * buyer sends a card, before the attempt starts; the slot is given back when
 * the attempt fails, and becomes one of the link's payments when the session
 * succeeds (payment-link-payments). Taking one is a single locked step on the link
 * (the repository's claimSlot), so two buyers can never both have the last.
 *
 * The slot is taken at the card, not when the link makes the session:
 * sessions live a day, and a buyer who only opened the checkout page must not
 * hold the link all that time. A slot whose attempt's answer never came back
 * here (the payment went on at the bank, the page was closed, the service
 * restarted) is looked at with the session service once the payment step's
 * deadline has passed (after it no attempt of that step can still start), and
 * given back if the session is not paying: not PROCESSING, AUTHORIZED or
 * SUCCEEDED.
 */
import type { CheckoutView, SessionStatus } from '@gateway/contracts';
import { describeError, type Logger } from '@gateway/observability';
import type { PaymentLinkRepository, SlotClaim } from '../db/payment-link.repository.js';
import type { CheckoutLinkRef } from './checkout-link-verifier.js';
import { closedReason } from './payment-links.js';

/** Statuses of a session whose payment is under way or made: its slot stays held. */
const PAYING: readonly string[] = ['PROCESSING', 'AUTHORIZED', 'SUCCEEDED'] satisfies SessionStatus[];
/** A slot found still paying is looked at again no sooner than this. */
const RECHECK_MS = 10_000;

export interface PaymentLinkSlotDeps {
  paymentLinks: PaymentLinkRepository;
  /** Beyond the payment step's deadline before a slot is looked at: the deadline runs from the call, a moment after the slot was taken, on the session service's clock. */
  checkMarginMs: number;
  /** The session as the hosted page sees it (checkout.view); undefined when the session service knows no such session. */
  viewSession: (ref: CheckoutLinkRef) => Promise<CheckoutView | undefined>;
  /** The payment step's deadline: after it, an attempt whose answer never came is either running (PROCESSING) or over. */
  paymentTimeoutMs: number;
  clock: () => Date;
  log: Logger;
}

/**
 * What a buyer's card may do on a session: pay (`notStarted` undoes the claim
 * when the session refuses the attempt), or not: its payment link is closed
 * (deactivated or expired, D29), used up, or has every payment left under way
 * for other buyers (`held`, maybe later).
 */
export type SlotAnswer = { ok: true; notStarted: () => Promise<void> } | { ok: false; reason: 'closed' | 'used' | 'held' };

const NOTHING_TO_UNDO = async (): Promise<void> => {};

export class PaymentLinkSlots {
  constructor(private readonly deps: PaymentLinkSlotDeps) {}

  /**
   * Whether the session `ref` names may start the attempt `attemptId`: a
   * session made through a payment link only while the link is open (D29: a
   * deactivated, expired or used-up link stops every session it made that has
   * not started an attempt), and with a slot of the link when it is limited.
   * `paymentLink`: the payment link as the checkout link's token states it
   * (null: the session was made through none, so nothing is read).
   */
  async claim(ref: CheckoutLinkRef, attemptId: string, paymentLink?: string | null): Promise<SlotAnswer> {
    if (paymentLink === null) return { ok: true, notStarted: NOTHING_TO_UNDO };
    const now = this.deps.clock();
    const link = await this.deps.paymentLinks.linkOfSession(ref.session_id);
    if (!link) return { ok: true, notStarted: NOTHING_TO_UNDO };
    const closed = closedReason(link, now);
    if (closed) return { ok: false, reason: closed === 'used' ? 'used' : 'closed' };
    if (link.max_payments === null) return { ok: true, notStarted: NOTHING_TO_UNDO };
    let claim = await this.deps.paymentLinks.claimSlot(ref.session_id, attemptId, ref.link_id, now);
    if (claim.outcome === 'full' && !claim.paid && (await this.freeStale(claim.linkId)) > 0) {
      claim = await this.deps.paymentLinks.claimSlot(ref.session_id, attemptId, ref.link_id, now);
    }
    if (claim.outcome === 'full') return { ok: false, reason: claim.paid ? 'used' : 'held' };
    return { ok: true, notStarted: () => this.notStarted(ref.session_id, attemptId, claim) };
  }

  /**
   * Whether a buyer could pay the limited link now: `open`, `held` (every
   * slot not paid is held by an attempt under way) or `paid` (used up).
   * Stale slots are looked at first.
   */
  async availability(link: { id: string; max_payments: number | null; payments_count: number }): Promise<'open' | 'held' | 'paid'> {
    if (link.max_payments === null) return 'open';
    if (link.payments_count >= link.max_payments) return 'paid';
    if (link.payments_count + (await this.deps.paymentLinks.heldSlots(link.id)) < link.max_payments) return 'open';
    if ((await this.freeStale(link.id)) === 0) return 'held';
    return link.payments_count + (await this.deps.paymentLinks.heldSlots(link.id)) < link.max_payments ? 'open' : 'held';
  }

  /** After a payment step of `attemptId` answered: a decline that left the session not paying gives the slot back. */
  async afterStep(sessionId: string, attemptId: string, step: { outcome: string; session?: { status: string } | undefined }): Promise<void> {
    if (step.outcome === 'declined' && step.session && !PAYING.includes(step.session.status)) await this.deps.paymentLinks.releaseSlot(sessionId, attemptId);
  }

  /** Notes a session the payment link made: its card step looks at the link, and its attempts need a slot of a limited one. */
  async recordSession(sessionId: string, link: { id: string }): Promise<void> {
    await this.deps.paymentLinks.recordSession(sessionId, link.id);
  }

  /** The attempt was refused at its start: a slot it took goes back; one it took over goes back to the attempt that held it, which may be under way still. */
  private async notStarted(sessionId: string, attemptId: string, claim: Exclude<SlotClaim, { outcome: 'full' }>): Promise<void> {
    if (claim.outcome === 'taken') await this.deps.paymentLinks.releaseSlot(sessionId, attemptId);
    else if (claim.outcome === 'kept') await this.deps.paymentLinks.restoreSlot(sessionId, attemptId, claim.previous);
  }

  /** Looks at the link's slots whose attempt outlived the payment step; gives back those whose session is not paying. How many were given back. */
  private async freeStale(linkId: string): Promise<number> {
    const now = this.deps.clock();
    const stale = await this.deps.paymentLinks.staleSlots(linkId, new Date(now.getTime() - this.deps.paymentTimeoutMs - this.deps.checkMarginMs), new Date(now.getTime() - RECHECK_MS));
    let freed = 0;
    for (const slot of stale) {
      let view: CheckoutView | undefined;
      try {
        view = await this.deps.viewSession({ session_id: slot.sessionId, link_id: slot.checkoutLinkId });
      } catch (err) {
        // Not known now: the slot stays held, and is looked at on a later visit.
        this.deps.log.warn({ err: describeError(err), session_id: slot.sessionId }, 'payment link slot could not be checked');
        continue;
      }
      if (view && PAYING.includes(view.status)) {
        await this.deps.paymentLinks.markChecked(slot.sessionId, slot.attemptId, now);
      } else if (await this.deps.paymentLinks.releaseSlot(slot.sessionId, slot.attemptId)) {
        freed += 1;
      }
    }
    return freed;
  }
}
