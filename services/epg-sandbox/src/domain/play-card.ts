/**
 * What the issuer does with the card attached to a registered order, by the
 * card's behaviour (D8, D24, D30). With the buyer (paymentorder.do, and
 * paymentOrderBinding.do for a saved card used on the page): 3-D Secure 1 or
 * 2, or an answer at once, a finished attempt answering "go to returnUrl".
 * Without the buyer (recurrentPayment.do, or paymentOrderBinding.do with tii
 * U or R): nobody can be challenged, so a 3-D Secure card is approved, and
 * D24's cards fail as their issuer does off-session.
 */
import type { TestCardBehaviour } from '@gateway/test-cards';
import type { DeclineReason } from './action-codes.js';
import { approvePayment } from './approve-payment.js';
import { type CallFields, wrongState } from './epg-error.js';
import { decline, finishedAnswer, startChallenge, type Order } from './order.js';
import type { Sandbox } from './sandbox.js';
import { startThreeDS2 } from './three-ds2.js';

/** The real gateway's own 3-D Secure 1 return, which it answers as termUrl; the merchant posts its own TermUrl instead (ACQUIRER.md). */
const GATEWAY_TERM_PATH = '/payment/rest/finish3ds.do';

/** How a charge without the buyer ends. */
export type OffSessionOutcome =
  | { readonly kind: 'approve'; readonly refundsUnconfirmed: boolean; readonly answerLate: boolean }
  | { readonly kind: 'decline'; readonly reason: DeclineReason };

/** Plays the order's card with the buyer present; the answer tells the browser what comes next. `finishUrl` is threeDSVer2FinishUrl when given. */
export async function playOnSession(sandbox: Sandbox, order: Order, finishUrl: string | undefined): Promise<CallFields> {
  const behaviour = cardBehaviour(order);
  switch (behaviour) {
    case 'challenge_3ds1':
      startChallenge(order);
      return { acsUrl: `${sandbox.publicUrl}/acs`, paReq: sandbox.tokens.paReq(order.orderId), termUrl: `${sandbox.publicUrl}${GATEWAY_TERM_PATH}` };
    case 'challenge_3ds2':
    case 'frictionless_3ds2':
    case 'authentication_refused': {
      const returnTo = finishUrl ?? order.returnUrl;
      if (returnTo === undefined) throw wrongState();
      return startThreeDS2(sandbox, order, returnTo);
    }
    case 'approve':
    case 'approve_reverse_refused':
    case 'approve_capture_refused':
    case 'approve_capture_unconfirmed':
    case 'approve_capture_silently':
    case 'approve_off_session_insufficient_funds':
    case 'approve_off_session_authentication_required':
      // The capture and reversal cards show what they do only when a hold is deposited or an order reversed, D24's only when charged without the buyer.
      approvePayment(sandbox, order);
      break;
    case 'approve_refund_unconfirmed':
      approvePayment(sandbox, order);
      order.refundsUnconfirmed = true;
      break;
    case 'approve_silently':
      // Charged (or held) now, answered late: the caller times out on a payment that went through.
      approvePayment(sandbox, order);
      await sandbox.wait(sandbox.slowDelayMs);
      break;
    case 'card_declined':
    case 'insufficient_funds':
    case 'expired_card':
    case 'incorrect_cvc':
    case 'processing_error':
      decline(order, behaviour);
      break;
    default:
      return unreachable(behaviour);
  }
  return finishedAnswer(order);
}

/** Charges the order's card without the buyer; its outcome is read with getOrderStatusExtended.do. */
export async function chargeOffSession(sandbox: Sandbox, order: Order): Promise<void> {
  const outcome = offSessionOutcome(cardBehaviour(order));
  if (outcome.kind === 'decline') {
    decline(order, outcome.reason);
    return;
  }
  approvePayment(sandbox, order);
  if (outcome.refundsUnconfirmed) order.refundsUnconfirmed = true;
  if (outcome.answerLate) await sandbox.wait(sandbox.slowDelayMs);
}

/** How a card's charge without the buyer ends: as with the buyer, except 3-D Secure (no one to challenge: approved) and D24's two cards. */
export function offSessionOutcome(behaviour: TestCardBehaviour): OffSessionOutcome {
  const approved = (answer: Partial<{ refundsUnconfirmed: boolean; answerLate: boolean }> = {}): OffSessionOutcome => ({ kind: 'approve', refundsUnconfirmed: false, answerLate: false, ...answer });
  switch (behaviour) {
    case 'approve':
    case 'approve_reverse_refused':
    case 'approve_capture_refused':
    case 'approve_capture_unconfirmed':
    case 'approve_capture_silently':
    case 'challenge_3ds1':
    case 'challenge_3ds2':
    case 'frictionless_3ds2':
      return approved();
    case 'approve_refund_unconfirmed':
      return approved({ refundsUnconfirmed: true });
    case 'approve_silently':
      return approved({ answerLate: true });
    case 'approve_off_session_insufficient_funds':
      return { kind: 'decline', reason: 'insufficient_funds' };
    case 'approve_off_session_authentication_required':
      return { kind: 'decline', reason: 'authentication_required' };
    case 'card_declined':
    case 'insufficient_funds':
    case 'expired_card':
    case 'incorrect_cvc':
    case 'processing_error':
      return { kind: 'decline', reason: behaviour };
    case 'authentication_refused':
      // The issuer that refuses authentication refuses its charges as well.
      return { kind: 'decline', reason: 'authentication_refused' };
    default:
      return unreachable(behaviour);
  }
}

function cardBehaviour(order: Order): TestCardBehaviour {
  if (!order.card) throw wrongState();
  return order.card.behaviour;
}

function unreachable(behaviour: never): never {
  throw new Error(`unknown card behaviour ${String(behaviour)}`);
}
