/**
 * paymentorder.do: the buyer's card for a registered order. The card's D8
 * behaviour decides the outcome; an approval deposits a one-phase order and
 * holds a two-phase one. Only a 3-D Secure challenge answers anything but
 * "finished, go to returnUrl", and the outcome itself is read with
 * getOrderStatusExtended.
 */
import { readCard } from './card.js';
import { wrongState, type EpgReply } from './epg-error.js';
import { approve, attachCard, decline, finishRedirect, OrderStatus, startChallenge, type Order } from './order.js';
import { findOrder, required, SUCCESS, type CallParams, type Sandbox } from './sandbox.js';

/** Checks the card, keeps only its masked form, and plays the card's D8 behaviour. */
export async function payOrder(sandbox: Sandbox, terminal: string, params: CallParams): Promise<EpgReply> {
  const order = findOrder(sandbox, terminal, required(params, 'MDORDER'));
  if (order.status !== OrderStatus.REGISTERED) throw wrongState();
  const card = readCard(
    {
      pan: params.get('$PAN'),
      cvc: params.get('$CVC'),
      year: params.get('YYYY'),
      month: params.get('MM'),
      cardholderName: params.get('TEXT'),
    },
    sandbox.now(),
  );
  attachCard(order, card);

  switch (card.behaviour) {
    case 'challenge':
      startChallenge(order);
      return {
        ...SUCCESS,
        acsUrl: `${sandbox.publicUrl}/acs`,
        paReq: sandbox.tokens.paReq(order.orderId),
        termUrl: order.returnUrl,
      };
    case 'approve':
    case 'approve_capture_refused':
    case 'approve_capture_unconfirmed':
    case 'approve_capture_silently':
      // The capture cards show what they do only when a hold is deposited (deposit.do).
      approve(order, sandbox.now());
      break;
    case 'approve_refund_unconfirmed':
      approve(order, sandbox.now());
      order.refundsUnconfirmed = true;
      break;
    case 'approve_silently':
      // Charged (or held) now, answered late: the caller times out on a payment that went through.
      approve(order, sandbox.now());
      await sandbox.wait(sandbox.slowDelayMs);
      break;
    case 'card_declined':
    case 'insufficient_funds':
    case 'expired_card':
    case 'incorrect_cvc':
    case 'processing_error':
      decline(order, card.behaviour);
      break;
    default:
      return unreachable(card.behaviour);
  }
  return finished(order);
}

/** The answer of a finished attempt, approved or not. */
function finished(order: Order): EpgReply {
  return { ...SUCCESS, info: 'Your order is proceeded, redirecting...', redirect: finishRedirect(order) };
}

function unreachable(behaviour: never): never {
  throw new Error(`unknown card behaviour ${String(behaviour)}`);
}
