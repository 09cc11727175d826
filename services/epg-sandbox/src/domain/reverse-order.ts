/** reverse.do: voids a deposited payment or releases a hold, once, before any refund. */
import { systemError, type EpgReply } from './epg-error.js';
import { reverse } from './order.js';
import { findOrder, required, SUCCESS, type CallParams, type Sandbox } from './sandbox.js';

/** Reverses the terminal's deposited or held order, unless it is D8's card 5126 ("7" System error). */
export function reverseOrder(sandbox: Sandbox, terminal: string, params: CallParams): EpgReply {
  const order = findOrder(sandbox, terminal, required(params, 'orderId'));
  if (order.refundsUnconfirmed) throw systemError();
  reverse(order);
  return { ...SUCCESS };
}
