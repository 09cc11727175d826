/**
 * deposit.do: completes a held two-phase order, once, for all of the hold or
 * part of it. The card's D8 behaviour may refuse the capture, leave it
 * unconfirmed, or make it and answer late.
 */
import { parseMillimesOrZero } from './amount.js';
import { captureRefused, invalid, systemError, wrongState, type CallFields } from './epg-error.js';
import { deposit, OrderStatus } from './order.js';
import { findOrder, required, type CallParams, type Sandbox } from './sandbox.js';

/** Deposits `amount` millimes (0: the whole hold) of the terminal's held order, never more than the hold. */
export async function depositOrder(sandbox: Sandbox, terminal: string, params: CallParams): Promise<CallFields> {
  const orderId = required(params, 'orderId');
  const amount = parseMillimesOrZero(required(params, 'amount'));
  if (amount === undefined) throw invalid('amount');
  const order = findOrder(sandbox, terminal, orderId);
  if (order.status !== OrderStatus.HELD) throw wrongState();
  if (amount > order.approvedAmount) throw invalid('amount');

  const behaviour = order.card?.behaviour;
  if (behaviour === 'approve_capture_refused') throw captureRefused();
  if (behaviour === 'approve_capture_unconfirmed') throw systemError();
  deposit(order, amount, sandbox.now());
  // Deposited now, answered late: the caller times out on a capture that went through.
  if (behaviour === 'approve_capture_silently') await sandbox.wait(sandbox.slowDelayMs);
  return {};
}
