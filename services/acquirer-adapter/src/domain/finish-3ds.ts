/**
 * The buyer is back from a 3-D Secure step (payment.finish_3ds, D30), and
 * the payment goes on as the return says: the 3DS Method ran (or its time
 * passed): the card goes again (repeat-after-method.ts); the ACS posted PaRes
 * (3-D Secure 1, finish3dsPayment.do) or cres (3-D Secure 2,
 * finish3dsVer2Payment.do, or, on a deployment without it, the status); the
 * browser came back by GET (browser-return.ts). As always, the outcome is
 * read from the acquirer's order status: the browser's return proves nothing.
 */
import type { CommandRequest, PaymentStep, ThreeDSReturn } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import type { FinishResult, PayResult, Terminal } from '../acquirer/acquirer.js';
import type { ChallengeReturn, OrderRow } from '../db/order.repository.js';
import { returnedByBrowser } from './browser-return.js';
import { transactionOfCres } from './cres.js';
import type { AdapterDeps } from './deps.js';
import { confirmOutcome, decline, finishedStep, leaveUnknown } from './finish-order.js';
import { repeatAfterMethod } from './repeat-after-method.js';
import { resolveTerminal } from './terminals.js';

const AUTHENTICATION_FAILED = { code: 'authentication_failed', message: '3-D Secure authentication failed.' };

/** payment.finish_3ds: the buyer is back from a 3-D Secure step; the payment goes on as the return says. */
export async function finish3dsPayment(deps: AdapterDeps, request: CommandRequest<'payment.finish_3ds'>, correlationId: string): Promise<PaymentStep> {
  const order = await deps.orders.find(request.attempt_id);
  if (!order || order.session_id !== request.session_id) throw new AppError('not-found', 'No payment attempt with this id awaits 3-D Secure.');
  const returned: ThreeDSReturn = request.returned;
  switch (returned.kind) {
    case 'method':
      return repeatAfterMethod(deps, order, returned.completed, correlationId);
    case 'pa_res':
      return finishChallenge(deps, order, 'pa_res', correlationId, (terminal, orderId) => deps.acquirer.finish3ds(terminal, orderId, returned.pa_res));
    case 'cres':
      if (!sameTransaction(deps, order, returned.cres)) throw new AppError('invalid-state', 'This 3-D Secure result is not for this payment.');
      return finishChallenge(deps, order, 'cres', correlationId, (terminal, orderId) =>
        order.three_ds_server_trans_id ? deps.acquirer.finish3ds2(terminal, orderId, order.three_ds_server_trans_id) : Promise.resolve<FinishResult>({ kind: 'absent' }),
      );
    case 'return':
      return returnedByBrowser(deps, order, correlationId);
    default:
      return unreachable(returned);
  }
}

/**
 * Finishes a challenge whose return brings what it awaits. Taking the order
 * makes this the one finish sent: a second post of the buyer's page, a
 * replayed result, or a finish after reconciliation gave up on the challenge,
 * sends nothing and answers where the order stands.
 */
async function finishChallenge(
  deps: AdapterDeps,
  order: OrderRow,
  returns: ChallengeReturn,
  correlationId: string,
  finish: (terminal: Terminal, acquirerOrderId: string) => Promise<PayResult | FinishResult>,
): Promise<PaymentStep> {
  const acquirerOrderId = order.acquirer_order_id;
  // A challenge recorded before 3-D Secure 2 was 3-D Secure 1.
  if (order.status !== 'CHALLENGED' || !acquirerOrderId || (order.challenge_return ?? 'pa_res') !== returns) return finishedStep(order);
  if (!(await deps.threeDS.takeChallenged(order.attempt_id))) return finishedStep((await deps.orders.find(order.attempt_id)) ?? order);
  const challenged = { ...order, acquirer_order_id: acquirerOrderId };
  const resolved = await resolveTerminal(deps, order.merchant_id, order.livemode);
  if (resolved.status !== 'active') return decline(deps, order, 'processing_error', 'This merchant cannot take card payments at the moment; nothing was charged.', correlationId);
  let finished;
  try {
    finished = await finish(resolved.terminal, acquirerOrderId);
  } catch (err) {
    return leaveUnknown(deps, order, err);
  }
  if (finished.kind === 'absent') deps.log.info({ attemptId: order.attempt_id }, 'acquirer has no finish3dsVer2Payment.do; its order status decides');
  if (finished.kind !== 'refused') return confirmOutcome(deps, challenged, resolved.terminal, correlationId);
  deps.log.info({ attemptId: order.attempt_id, reason: finished.message }, '3-D Secure finish refused by the acquirer');
  return confirmOutcome(deps, challenged, resolved.terminal, correlationId, AUTHENTICATION_FAILED);
}

/** Whether a cres may finish this order: one naming another 3-D Secure 2 transaction may not (one that names none is the acquirer's to judge). */
function sameTransaction(deps: AdapterDeps, order: OrderRow, cres: string): boolean {
  const named = transactionOfCres(cres);
  if (named === undefined || order.three_ds_server_trans_id === null || named === order.three_ds_server_trans_id) return true;
  deps.log.warn({ attemptId: order.attempt_id }, '3-D Secure result of another transaction turned away');
  return false;
}

function unreachable(returned: never): never {
  throw new Error(`unknown 3-D Secure return ${JSON.stringify(returned)}`);
}
