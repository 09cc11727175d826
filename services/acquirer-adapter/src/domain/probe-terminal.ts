/**
 * terminal.probe: before a merchant goes live, an operator asks the
 * merchant's live terminal about an order they know (getOrderStatusExtended.do,
 * a read) and learns how that deployment writes its answers (ACQUIRER.md
 * "Answers as deployed"). Nothing is charged and nothing is stored: not even
 * a refusal of the credentials, which only a payment's register.do records.
 */
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import { AppError, validationError } from '@gateway/problem';
import { AcquirerUnreachable } from '../acquirer/acquirer.js';
import type { AdapterDeps } from './deps.js';

/** The order the operator named: exactly one of its acquirer order number and its acquirer order id. */
function orderOf(request: CommandRequest<'terminal.probe'>): { orderId: string } | { orderNumber: string } {
  if ((request.order_number === undefined) === (request.order_id === undefined)) {
    throw validationError([{ field: 'order_number', code: 'invalid', message: 'Name the order by exactly one of order_number and order_id.' }]);
  }
  return request.order_id !== undefined ? { orderId: request.order_id } : { orderNumber: request.order_number ?? '' };
}

/** terminal.probe: the shape of the live terminal's answer about one order. */
export async function probeTerminal(deps: AdapterDeps, request: CommandRequest<'terminal.probe'>): Promise<CommandReply<'terminal.probe'>> {
  // 1. The order, named once.
  const order = orderOf(request);

  // 2. The merchant's live terminal, active or not, refused before or not: an operator probes it
  //    before switching it on, and after the acquirer refused it. Test mode has the sandbox.
  const terminal = await deps.terminals.find(request.merchant_id, true);
  if (!terminal) {
    throw new AppError('no-terminal-configured', 'The merchant has no live terminal to probe (test mode pays through the built-in sandbox): set one with `terminal set` first.');
  }

  // 3. One read at the live acquirer.
  let answer;
  try {
    answer = await deps.acquirer.probeOrderStatus({ baseUrl: deps.liveUrl, userName: terminal.user_name, password: terminal.password }, order);
  } catch (err) {
    // The reason names the failure only (a timeout, an HTTP status, an unreadable answer), never the request.
    if (err instanceof AcquirerUnreachable) throw new AppError('processor-unavailable', `The live acquirer gave no usable answer to ${err.call}: ${err.reason}.`);
    throw err;
  }
  deps.log.info(
    { merchantId: request.merchant_id, by: 'orderId' in order ? 'order_id' : 'order_number', credentials: answer.credentials, orderStatus: answer.order_status },
    'live terminal probed',
  );
  return {
    merchant_id: request.merchant_id,
    terminal: { user_name: terminal.user_name, active: terminal.active, rejected: terminal.rejected_at !== null },
    acquirer_url: deps.liveUrl,
    ...answer,
  };
}
