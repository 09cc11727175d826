/** reverse.do: voids a deposited payment or releases a hold, once, before any refund. */
import { reversalDenied, systemError, type CallFields } from './epg-error.js';
import { reverse } from './order.js';
import { findOrder, required, type CallParams, type Sandbox } from './sandbox.js';

/**
 * Reverses the terminal's deposited or held order, unless it is D8's card
 * 5126 ("7" System error) or D30's card 6983 ("5": the terminal may not reverse).
 */
export function reverseOrder(sandbox: Sandbox, terminal: string, params: CallParams): CallFields {
  const order = findOrder(sandbox, terminal, required(params, 'orderId'));
  if (order.refundsUnconfirmed) throw systemError();
  if (order.card?.behaviour === 'approve_reverse_refused') throw reversalDenied();
  reverse(order);
  return {};
}
