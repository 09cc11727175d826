/** finish3dsPayment.do: the issuer's paRes ends a challenge: Y approves (deposits, or holds a two-phase order), N declines. */
import { invalid, missing, wrongState, type EpgReply } from './epg-error.js';
import { approve, decline, finishRedirect, OrderStatus } from './order.js';
import { findOrder, required, SUCCESS, type CallParams, type Sandbox } from './sandbox.js';

/** Electronic Commerce Indicator of a fully authenticated payment. */
const ECI_AUTHENTICATED = '05';

/** Checks that the paRes is ours and for this order, then ends the challenge as it says. */
export function finish3ds(sandbox: Sandbox, terminal: string, params: CallParams): EpgReply {
  const order = findOrder(sandbox, terminal, required(params, 'mdOrder'));
  if (order.status !== OrderStatus.AUTHENTICATING) throw wrongState();
  const paRes = params.get('paRes');
  if (paRes === undefined) throw missing('paRes');
  const answer = sandbox.tokens.readPaRes(paRes);
  if (answer?.orderId !== order.orderId) throw invalid('paRes');

  if (answer.result === 'Y') approve(order, sandbox.now(), ECI_AUTHENTICATED);
  else decline(order, 'authentication_failed');
  return { ...SUCCESS, redirect: finishRedirect(order) };
}
