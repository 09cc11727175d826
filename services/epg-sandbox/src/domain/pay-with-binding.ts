/**
 * paymentOrderBinding.do: pays a registered, unpaid order of this terminal
 * with one of its saved cards (ACQUIRER.md "Saved cards (D24)"). The order
 * must be registered for the binding's client. tii F (the default) is the
 * buyer on the page: the security code is required and the card plays as
 * paymentorder.do plays it, 3-D Secure included (a challenge is finished as
 * a card payment's is; 3-D Secure 2's repeat is this call again with
 * threeDSServerTransId). tii U or R is a charge without the buyer, which
 * ends at once as recurrentPayment.do's does. The buyer's address (ip) is
 * required either way.
 */
import { cardOf } from './binding.js';
import { invalid, missing, wrongState, type CallFields } from './epg-error.js';
import { attachCard, finishedAnswer, OrderStatus } from './order.js';
import { readPayer } from './payer.js';
import { chargeOffSession, playOnSession } from './play-card.js';
import { findActiveBinding, findOrder, required, type CallParams, type Sandbox } from './sandbox.js';
import { repeatPayment } from './three-ds2.js';
import { isWebUrl } from './urls.js';

/** F: the buyer on the page; U: unscheduled, R: recurring, both started by the merchant without the buyer. */
const TRANSACTION_INITIATORS: readonly string[] = ['F', 'U', 'R'];

/** Checks the call whole, then charges the order with the binding's card. */
export async function payWithBinding(sandbox: Sandbox, terminal: string, params: CallParams): Promise<CallFields> {
  const order = findOrder(sandbox, terminal, required(params, 'mdOrder'));
  const binding = findActiveBinding(sandbox, terminal, required(params, 'bindingId'));
  const payer = readPayer(params);
  if (payer?.ip === undefined) throw missing('ip');
  const tii = params.get('tii') ?? 'F';
  if (!TRANSACTION_INITIATORS.includes(tii)) throw invalid('tii');
  const withBuyer = tii === 'F';
  const cvc = params.get('cvc');
  if (cvc === undefined && withBuyer) throw missing('cvc');
  if (cvc !== undefined && !/^[0-9]{3}$/.test(cvc)) throw invalid('cvc');
  const finishUrl = params.get('threeDSVer2FinishUrl');
  if (finishUrl !== undefined && !isWebUrl(finishUrl)) throw invalid('threeDSVer2FinishUrl');
  // A customer's card pays only that customer's orders.
  if (order.clientId !== binding.clientId) throw invalid('bindingId');
  const card = cardOf(binding, sandbox.now());

  const serverTransId = params.get('threeDSServerTransId');
  if (serverTransId !== undefined) {
    if (!withBuyer) throw invalid('tii');
    if (order.binding?.bindingId !== binding.bindingId) throw invalid('bindingId');
    return repeatPayment(sandbox, order, card, serverTransId);
  }
  if (order.status !== OrderStatus.REGISTERED) throw wrongState();
  attachCard(order, card);
  order.payer = payer;
  order.binding = { clientId: binding.clientId, bindingId: binding.bindingId };
  if (withBuyer) return playOnSession(sandbox, order, finishUrl);
  await chargeOffSession(sandbox, order);
  return finishedAnswer(order);
}
