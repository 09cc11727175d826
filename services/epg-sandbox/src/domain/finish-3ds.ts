/**
 * The finishing calls of 3-D Secure: finish3dsPayment.do (3-D Secure 1: the
 * issuer's paRes, Y approves, N declines) and finish3dsVer2Payment.do (3-D
 * Secure 2: the answer the cardholder gave at the ACS, three-ds2.ts). Either
 * approves by depositing, or holding a two-phase order.
 */
import { ECI_AUTHENTICATED } from './action-codes.js';
import { approvePayment } from './approve-payment.js';
import { invalid, missing, wrongState, type CallFields } from './epg-error.js';
import { decline, finishRedirect, OrderStatus } from './order.js';
import { findOrder, required, type CallParams, type Sandbox } from './sandbox.js';
import { finishAuthenticated } from './three-ds2.js';

/** finish3dsPayment.do: checks that the paRes is ours and for this order, then ends the challenge as it says. */
export function finish3ds(sandbox: Sandbox, terminal: string, params: CallParams): CallFields {
  const order = findOrder(sandbox, terminal, required(params, 'mdOrder'));
  if (order.status !== OrderStatus.AUTHENTICATING || order.threeDS2) throw wrongState();
  const paRes = params.get('paRes');
  if (paRes === undefined) throw missing('paRes');
  const answer = sandbox.tokens.readPaRes(paRes);
  if (answer?.orderId !== order.orderId) throw invalid('paRes');

  if (answer.result === 'Y') approvePayment(sandbox, order, ECI_AUTHENTICATED);
  else decline(order, 'authentication_failed');
  return { redirect: finishRedirect(order) };
}

/** finish3dsVer2Payment.do: the order of this transaction, finished as its cardholder answered the ACS. */
export function finish3dsVer2(sandbox: Sandbox, terminal: string, params: CallParams): CallFields {
  const order = findOrder(sandbox, terminal, required(params, 'mdOrder'));
  if (order.threeDS2?.serverTransId !== required(params, 'threeDSServerTransId')) throw invalid('threeDSServerTransId');
  finishAuthenticated(sandbox, order);
  return { redirect: finishRedirect(order) };
}
