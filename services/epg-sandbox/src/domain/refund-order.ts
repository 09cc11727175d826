/** refund.do: gives back part or all of what is left of a deposited payment; repeatable. */
import { parseMillimes } from './amount.js';
import { EpgError, systemError, wrongState, type CallFields } from './epg-error.js';
import { OrderStatus, refund, refundable } from './order.js';
import { findOrder, required, type CallParams, type Sandbox } from './sandbox.js';

/** Refunds `amount` millimes of the terminal's deposited order, never more than is left. */
export function refundOrder(sandbox: Sandbox, terminal: string, params: CallParams): CallFields {
  const orderId = required(params, 'orderId');
  const amount = parseMillimes(required(params, 'amount'));
  if (amount === undefined) throw invalidAmount();
  const order = findOrder(sandbox, terminal, orderId);
  if (order.refundsUnconfirmed) throw systemError();
  if (order.status !== OrderStatus.DEPOSITED && order.status !== OrderStatus.REFUNDED) throw wrongState();
  if (amount > refundable(order)) throw invalidAmount();
  refund(order, amount);
  return {};
}

const invalidAmount = () => new EpgError('5', 'Invalid amount');
