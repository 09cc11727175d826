/**
 * paymentorder.do: the buyer's card (and, for 3-D Secure 2, the buyer's
 * address, email or phone, and threeDSVer2FinishUrl) for a registered order.
 * The card's D8 or D30 behaviour decides the outcome (play-card.ts); an
 * approval deposits a one-phase order and holds a two-phase one. A finished
 * attempt answers "go to returnUrl", a 3-D Secure step answers what the
 * browser does next (ACQUIRER.md's four answers), and the outcome itself is
 * read with getOrderStatusExtended. The same call with threeDSServerTransId
 * is 3-D Secure 2's repeat (three-ds2.ts).
 */
import { readCard, type CardForm } from './card.js';
import { invalid, wrongState, type CallFields } from './epg-error.js';
import { attachCard, OrderStatus } from './order.js';
import { readPayer } from './payer.js';
import { playOnSession } from './play-card.js';
import { findOrder, required, type CallParams, type Sandbox } from './sandbox.js';
import { repeatPayment } from './three-ds2.js';
import { isWebUrl } from './urls.js';

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
  return playOnSession(sandbox, order, finishUrl);
}

function cardForm(params: CallParams): CardForm {
  return { pan: params.get('$PAN'), cvc: params.get('$CVC'), year: params.get('YYYY'), month: params.get('MM'), cardholderName: params.get('TEXT') };
}
