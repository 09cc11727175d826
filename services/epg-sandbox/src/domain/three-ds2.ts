/**
 * 3-D Secure 2 as the sandbox's issuers play it (ACQUIRER.md "3-D Secure 2",
 * D30's cards): paymentorder.do's first answer (is3DSVer2 with a 3DS Method
 * URL, or without one), the repeated paymentorder.do with
 * threeDSServerTransId (frictionless approval, refusal, or a challenge at the
 * ACS), the 3DS Method the buyer's browser posts, the cardholder's answer at
 * the ACS, and the finish: finish3dsVer2Payment.do, or the sandbox's own
 * finish endpoint when the deployment has no such call.
 */
import { randomUUID } from 'node:crypto';
import { ECI_AUTHENTICATED } from './action-codes.js';
import { approvePayment } from './approve-payment.js';
import type { CardDetails } from './card.js';
import { packCReq, packCRes, packMethodData, transactionOf } from './emv-messages.js';
import { invalid, wrongState, type CallFields } from './epg-error.js';
import { decline, finishedAnswer, OrderStatus, startChallenge, type Order, type ThreeDS2 } from './order.js';
import type { Sandbox } from './sandbox.js';

/** Where a browser posts threeDSMethodData. */
export const METHOD_PATH = '/3ds-method';
/** The sandbox's own finish, where its ACS returns the buyer when the deployment has no finish3dsVer2Payment.do. */
export const OWN_FINISH_PATH = '/payment/3ds2/finish';

/**
 * Starts 3-D Secure 2 for the order's card: answer 2 of ACQUIRER.md, with a
 * 3DS Method URL unless the card's issuer has none (D30's card 3246).
 */
export function startThreeDS2(sandbox: Sandbox, order: Order, finishUrl: string): CallFields {
  startChallenge(order);
  const auth: ThreeDS2 = { serverTransId: randomUUID(), acsTransId: randomUUID(), finishUrl, stage: 'repeat', methodRan: false };
  order.threeDS2 = auth;
  sandbox.store.trackThreeDS2(order);
  const withMethod = order.card?.behaviour !== 'authentication_refused';
  return {
    is3DSVer2: true,
    threeDSServerTransId: auth.serverTransId,
    ...(withMethod && { threeDSMethodURL: `${sandbox.publicUrl}${METHOD_PATH}`, threeDSMethodDataPacked: packMethodData(auth.serverTransId) }),
  };
}

/**
 * The repeated paymentorder.do, with the first step's threeDSServerTransId
 * and the same card: approved without a challenge (card 3238), refused by
 * the issuer (card 3246), or a challenge (card 3220, answer 3).
 */
export function repeatPayment(sandbox: Sandbox, order: Order, card: CardDetails, serverTransId: string): CallFields {
  const auth = order.threeDS2;
  if (auth?.serverTransId !== serverTransId) throw invalid('threeDSServerTransId');
  if (order.status !== OrderStatus.AUTHENTICATING || auth.stage !== 'repeat') throw wrongState();
  if (card.fingerprint !== order.card?.fingerprint || card.expiration !== order.card.expiration) throw invalid('$PAN');
  switch (order.card.behaviour) {
    case 'frictionless_3ds2':
      approvePayment(sandbox, order, ECI_AUTHENTICATED);
      return finishedAnswer(order);
    case 'challenge_3ds2':
      auth.stage = 'challenge';
      return { is3DSVer2: true, threeDSServerTransId: auth.serverTransId, acsUrl: `${sandbox.publicUrl}/acs`, packedCReq: packCReq(auth.serverTransId, auth.acsTransId) };
    case 'authentication_refused':
      decline(order, 'authentication_refused');
      return finishedAnswer(order);
    default:
      throw wrongState();
  }
}

/** Records that the buyer's browser posted the 3DS Method of a transaction; false when the data names none the sandbox knows. */
export function recordMethod(sandbox: Sandbox, threeDSMethodData: string | undefined): boolean {
  const transId = threeDSMethodData === undefined ? undefined : transactionOf(threeDSMethodData);
  const auth = transId === undefined ? undefined : sandbox.store.byServerTransId(transId)?.threeDS2;
  if (!auth) return false;
  if (auth.stage === 'repeat') auth.methodRan = true;
  return true;
}

/** The order a creq opens a challenge for, while its cardholder has not answered; undefined otherwise. */
export function challengedOrder(sandbox: Sandbox, creq: string): Order | undefined {
  const transId = transactionOf(creq, 'CReq');
  const order = transId === undefined ? undefined : sandbox.store.byServerTransId(transId);
  return order?.status === OrderStatus.AUTHENTICATING && order.threeDS2?.stage === 'challenge' ? order : undefined;
}

/**
 * The cardholder answers the ACS, once (a second answer, a double click,
 * finds the first one standing), and the cres that says so, posted to
 * threeDSVer2FinishUrl, or to the sandbox's own finish when the deployment
 * has no finish3dsVer2Payment.do. Undefined when the order no longer awaits it.
 */
export function answerChallenge(sandbox: Sandbox, order: Order, result: 'Y' | 'N'): { url: string; cres: string } | undefined {
  const auth = order.threeDS2;
  if (order.status !== OrderStatus.AUTHENTICATING || !auth || (auth.stage !== 'challenge' && auth.stage !== 'answered')) return undefined;
  if (auth.stage === 'challenge') {
    auth.stage = 'answered';
    auth.result = result;
  }
  const url = sandbox.finish3dsVer2 ? auth.finishUrl : `${sandbox.publicUrl}${OWN_FINISH_PATH}`;
  return { url, cres: packCRes(auth.serverTransId, auth.acsTransId, auth.result ?? result) };
}

/**
 * Finishes an order whose cardholder answered the ACS, as the answer was
 * recorded there: Y approves (deposits, or holds a two-phase order), N
 * declines authentication_failed. "7" when the order does not await its finish.
 */
export function finishAuthenticated(sandbox: Sandbox, order: Order): void {
  const auth = order.threeDS2;
  if (order.status !== OrderStatus.AUTHENTICATING || auth?.stage !== 'answered') throw wrongState();
  if (auth.result === 'Y') approvePayment(sandbox, order, ECI_AUTHENTICATED);
  else decline(order, 'authentication_failed');
}

/**
 * The sandbox's own finish of a deployment without finish3dsVer2Payment.do:
 * the cres names the transaction, whose recorded answer finishes the order;
 * the order finished, or undefined when the cres names none awaiting its finish
 * (unknown, forged, or replayed after the order was finished).
 */
export function finishByCres(sandbox: Sandbox, cres: string | undefined): Order | undefined {
  const transId = cres === undefined ? undefined : transactionOf(cres, 'CRes');
  const order = transId === undefined ? undefined : sandbox.store.byServerTransId(transId);
  if (order?.status !== OrderStatus.AUTHENTICATING || order.threeDS2?.stage !== 'answered') return undefined;
  finishAuthenticated(sandbox, order);
  return order;
}
