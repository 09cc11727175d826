/**
 * paymentorder.do: the buyer's card (and, for 3-D Secure 2, the buyer's
 * address, email or phone, and threeDSVer2FinishUrl) for a registered order.
 * The card's D8 or D30 behaviour decides the outcome; an approval deposits a
 * one-phase order and holds a two-phase one. A finished attempt answers "go
 * to returnUrl", a 3-D Secure step answers what the browser does next
 * (ACQUIRER.md's four answers), and the outcome itself is read with
 * getOrderStatusExtended. The same call with threeDSServerTransId is 3-D
 * Secure 2's repeat (three-ds2.ts).
 */
import { approvePayment } from './approve-payment.js';
import { readCard, type CardForm } from './card.js';
import { invalid, wrongState, type CallFields } from './epg-error.js';
import { attachCard, decline, finishedAnswer, OrderStatus, startChallenge } from './order.js';
import { readPayer } from './payer.js';
import { findOrder, required, type CallParams, type Sandbox } from './sandbox.js';
import { repeatPayment, startThreeDS2 } from './three-ds2.js';
import { isWebUrl } from './urls.js';

/** The real gateway's own 3-D Secure 1 return, which it answers as termUrl; the merchant posts its own TermUrl instead (ACQUIRER.md). */
const GATEWAY_TERM_PATH = '/payment/rest/finish3ds.do';

/** Checks the card, keeps only its masked form and fingerprint, and plays the card's behaviour. */
export async function payOrder(sandbox: Sandbox, terminal: string, params: CallParams): Promise<CallFields> {
  const order = findOrder(sandbox, terminal, required(params, 'MDORDER'));
  const serverTransId = params.get('threeDSServerTransId');
  if (serverTransId !== undefined) return repeatPayment(sandbox, order, readCard(cardForm(params), sandbox.now(), sandbox.cardKey), serverTransId);
  if (order.status !== OrderStatus.REGISTERED) throw wrongState();
  const card = readCard(cardForm(params), sandbox.now(), sandbox.cardKey);
  const payer = readPayer(params);
  const finishUrl = params.get('threeDSVer2FinishUrl');
  if (finishUrl !== undefined && !isWebUrl(finishUrl)) throw invalid('threeDSVer2FinishUrl');
  attachCard(order, card);
  if (payer) order.payer = payer;

  switch (card.behaviour) {
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
      decline(order, card.behaviour);
      break;
    default:
      return unreachable(card.behaviour);
  }
  return finishedAnswer(order);
}

function cardForm(params: CallParams): CardForm {
  return { pan: params.get('$PAN'), cvc: params.get('$CVC'), year: params.get('YYYY'), month: params.get('MM'), cardholderName: params.get('TEXT') };
}

function unreachable(behaviour: never): never {
  throw new Error(`unknown card behaviour ${String(behaviour)}`);
}
