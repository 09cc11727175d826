/**
 * recurrentPayment.do: a new order of this terminal, charged at once with one
 * of its saved cards and without the buyer (ACQUIRER.md "Saved cards (D24)";
 * tii U unscheduled, R a subscription's charge). The answer is the orderId
 * whatever the issuer said; the outcome is read with getOrderStatusExtended.do.
 * A refused call registers nothing, so its orderNumber stays free.
 */
import { randomUUID } from 'node:crypto';
import { parseMillimes } from './amount.js';
import { cardOf } from './binding.js';
import { duplicateOrderNumber, invalid, unknownCurrency, type CallFields } from './epg-error.js';
import { attachCard, MAX_ORDER_NUMBER_LENGTH, registeredOrder, TND } from './order.js';
import { chargeOffSession } from './play-card.js';
import { findActiveBinding, required, type CallParams, type Sandbox } from './sandbox.js';

/** Registers a one-phase order for the binding's client and charges the saved card. */
export async function recurrentPayment(sandbox: Sandbox, terminal: string, params: CallParams): Promise<CallFields> {
  const orderNumber = required(params, 'orderNumber');
  const bindingId = required(params, 'bindingId');
  const amountDigits = required(params, 'amount');
  const tii = required(params, 'tii');
  if (orderNumber.length > MAX_ORDER_NUMBER_LENGTH) throw invalid('orderNumber');
  const amount = parseMillimes(amountDigits);
  if (amount === undefined) throw invalid('amount');
  if ((params.get('currency') ?? TND) !== TND) throw unknownCurrency();
  // F is the buyer on the page: never this call's.
  if (tii !== 'U' && tii !== 'R') throw invalid('tii');
  const binding = findActiveBinding(sandbox, terminal, bindingId);
  // description is accepted and ignored, as register.do's is.

  const order = registeredOrder({
    orderId: randomUUID(),
    terminal,
    orderNumber,
    amount,
    returnUrl: undefined,
    failUrl: undefined,
    language: 'fr',
    registeredAt: sandbox.now().getTime(),
    twoPhase: false,
    clientId: binding.clientId,
  });
  if (!sandbox.store.add(order)) throw duplicateOrderNumber();
  attachCard(order, cardOf(binding, sandbox.now()));
  order.binding = { clientId: binding.clientId, bindingId: binding.bindingId };
  await chargeOffSession(sandbox, order);
  return { orderId: order.orderId };
}
