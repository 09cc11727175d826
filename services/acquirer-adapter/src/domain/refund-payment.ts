/**
 * payment.refund, the acquirer step of a refund (D10), sent by the refund
 * service once it has reserved the amount:
 * 1. a refund id already recorded answers its recorded outcome and calls
 *    nothing (one still in flight is waited for, briefly);
 * 2. the payment must be an APPROVED order of this merchant and mode;
 * 3. the operation: reverse.do for the whole payment before settlement,
 *    refund.do otherwise (ACQUIRER.md);
 * 4. the operation is recorded, keyed on the refund id, before the acquirer
 *    is called, so no retry can ever send a second one;
 * 5. a reversal refused with 5 (no permission, say) or 7 (the window
 *    passed) goes to refund.do instead, once the order's status shows it was
 *    not reversed after all (ACQUIRER.md "Answers as deployed"); the reply
 *    says which operation was made;
 * 6. the acquirer's answer decides: 0 refunded; 5 or 6 refused, nothing
 *    refunded; 7, no answer or an unreadable one unconfirmed, for an operator.
 * A wallet payment (D26) is refunded whole through its connector, never
 * reversed; a partial refund, or one the wallet refuses or does not answer,
 * is left to an operator (unconfirmed: the refund service's manual queue).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandReply, CommandRequest } from '@gateway/contracts';
import { accountCurrency, checkAmount, compareTnd } from '@gateway/money';
import { AppError } from '@gateway/problem';
import { AcquirerUnreachable, type Connector, type OperationResult, type PaymentRef, type OrderState, type Terminal } from '../acquirer/acquirer.js';
import type { OrderRow } from '../db/order.repository.js';
import type { FinalRefundStatus, RefundOperation, RefundOperationRow, RefundOperationStatus } from '../db/refund-operation.repository.js';
import type { AdapterDeps } from './deps.js';
import { maybeSettled } from './settlement.js';
import { connectorFor, orderAccount } from './connectors.js';

type RefundRequest = CommandRequest<'payment.refund'>;
type RefundReply = CommandReply<'payment.refund'>;

const NO_ANSWER = 'no answer from the acquirer';
const IN_FLIGHT = 'The refund is being processed; its outcome is not known yet.';
const NO_ORDER_ID = "The acquirer's id of this payment is not known; the refund was not sent and an operator must make it.";
const WALLET_WHOLE_ONLY = 'Flouci refunds whole payments only; an operator must make this refund.';
/** How often a repeated command looks again at a refund still in flight. */
const POLL_MS = 100;

const OUTCOMES: Readonly<Record<RefundOperationStatus, RefundReply['outcome']>> = {
  STARTED: 'unconfirmed',
  REFUNDED: 'refunded',
  REFUSED: 'refused',
  UNCONFIRMED: 'unconfirmed',
};

const STATUSES: Readonly<Record<OperationResult['kind'], FinalRefundStatus>> = {
  done: 'REFUNDED',
  refused: 'REFUSED',
  unconfirmed: 'UNCONFIRMED',
};

/** Refunds `amount` of an approved attempt at the acquirer, once per refund id. */
export async function refundPayment(deps: AdapterDeps, request: RefundRequest): Promise<RefundReply> {
  const amount = checkAmount(request.amount, accountCurrency);
  if (!amount.ok) {
    // Not recorded: the request alone decides, so a repeat gets the same answer anyway.
    deps.log.warn({ refundId: request.refund_id, attemptId: request.attempt_id, reason: amount.code }, 'refund amount refused');
    return { outcome: 'refused', operation: 'refund', message: `The refund amount ${request.amount} is not a TND amount with 3 decimals above zero.` };
  }
  const recorded = await deps.refunds.find(request.refund_id);
  if (recorded) return repeated(deps, request, recorded);

  const order = await deps.orders.find(request.attempt_id);
  if (!order || order.merchant_id !== request.merchant_id || order.livemode !== request.livemode) {
    return answerWithoutCall(deps, request, 'refund', 'REFUSED', `No payment ${request.attempt_id} of this merchant and mode is known to the acquirer adapter.`);
  }
  const operation = operationFor(deps, request, order);
  if (order.status !== 'APPROVED') {
    return answerWithoutCall(deps, request, operation, 'REFUSED', `Payment ${request.attempt_id} was not approved (${order.status}); there is nothing to refund.`);
  }
  if (compareTnd(request.amount, taken(order)) > 0) {
    return answerWithoutCall(deps, request, operation, 'REFUSED', `The refund amount ${request.amount} is more than the payment's ${taken(order)} TND.`);
  }

  const wallet = order.payment_method_type !== 'card';
  if (wallet && (!request.whole || compareTnd(request.amount, taken(order)) !== 0)) return answerWithoutCall(deps, request, operation, 'UNCONFIRMED', WALLET_WHOLE_ONLY);
  const resolved = await orderAccount(deps, order);
  if (resolved.status !== 'active') {
    // The buyer is still owed the money: an operator refunds it another way, or once the terminal is back.
    return answerWithoutCall(deps, request, operation, 'UNCONFIRMED', `The refund was not sent: the merchant's live acquirer terminal is ${resolved.status}. An operator must make it.`);
  }
  const orderId = order.acquirer_order_id;
  if (!orderId) return answerWithoutCall(deps, request, operation, 'UNCONFIRMED', NO_ORDER_ID);

  if (!(await deps.refunds.record({ ...operationOf(request, operation), status: 'STARTED', message: '' }))) {
    return repeated(deps, request, await outcomeOf(deps, request.refund_id));
  }
  const sent = { deps, request, terminal: resolved.terminal, payment: { reference: orderId, orderNumber: order.order_number }, orderId, connector: connectorFor(deps, order.payment_method_type), paymentAmount: taken(order) };
  let made = operation;
  let result = operation === 'reverse' ? await reverse(sent) : await refund(sent);
  // D26: whatever a wallet does not refund is an operator's, never a failed refund.
  if (wallet && result.kind === 'refused') result = { kind: 'unconfirmed', errorCode: result.errorCode, message: `${result.message} An operator must make this refund.` };
  if (operation === 'reverse' && reversalRefused(result) && (await notReversed(sent, result))) {
    await deps.refunds.becomeRefund(request.refund_id);
    made = 'refund';
    result = await refund(sent);
  }
  const operationMade = made;
  const message = result.kind === 'done' ? '' : result.message;
  try {
    await deps.refunds.finish(request.refund_id, STATUSES[result.kind], message);
  } catch (err) {
    // The operation stays STARTED (answered unconfirmed from now on): say what the acquirer did.
    deps.log.error({ refundId: request.refund_id, attemptId: request.attempt_id, operation: operationMade, outcome: result.kind }, 'refund outcome could not be recorded');
    throw err;
  }
  deps.log.info(
    { refundId: request.refund_id, attemptId: request.attempt_id, operation: operationMade, outcome: OUTCOMES[STATUSES[result.kind]], ...(result.kind !== 'done' && { errorCode: result.errorCode }) },
    'refund operation finished',
  );
  return { outcome: OUTCOMES[STATUSES[result.kind]], operation: operationMade, message };
}

/** A refund operation on its way to the acquirer. */
interface Sending {
  deps: AdapterDeps;
  request: RefundRequest;
  terminal: Terminal;
  orderId: string;
  /** How the connector knows the payment. */
  payment: PaymentRef;
  connector: Connector;
  /** What the payment took (TND). */
  paymentAmount: string;
}

async function reverse(sent: Sending): Promise<OperationResult> {
  return answered(sent, 'reverse', () => sent.connector.void(sent.terminal, sent.orderId));
}

async function refund(sent: Sending): Promise<OperationResult> {
  const { deps, request } = sent;
  // What the payment's other operations can have refunded: an answer that says nothing is confirmed against it.
  const refundedAtMost = await deps.refunds.refundedAtMost(request.attempt_id, request.refund_id);
  return answered(sent, 'refund', () => sent.connector.refund(sent.terminal, { reference: sent.orderId, amount: request.amount, refundedAtMost, paymentAmount: sent.paymentAmount }));
}

/** The operation's outcome; no answer at all is unconfirmed. */
async function answered(sent: Sending, operation: RefundOperation, call: () => Promise<OperationResult>): Promise<OperationResult> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof AcquirerUnreachable)) throw err;
    sent.deps.log.warn({ refundId: sent.request.refund_id, attemptId: sent.request.attempt_id, operation, reason: err.reason }, 'refund operation unanswered');
    return { kind: 'unconfirmed', errorCode: -1, message: NO_ANSWER };
  }
}

/** A reversal the acquirer will not make: 5 (no permission, or refused) or 7 (wrong state: the window passed). */
function reversalRefused(result: OperationResult): boolean {
  return result.kind !== 'done' && (result.errorCode === 5 || result.errorCode === 7);
}

/**
 * Whether the order stands deposited and not reversed, so that refund.do
 * may go instead; a refused answer may still have reversed it, and then
 * nothing more is sent. Unreadable, it stays as the reversal's answer left it.
 */
async function notReversed(sent: Sending, refused: OperationResult): Promise<boolean> {
  const { deps, request } = sent;
  let state: OrderState;
  try {
    state = await sent.connector.status(sent.terminal, sent.payment);
  } catch (err) {
    if (!(err instanceof AcquirerUnreachable)) throw err;
    return false;
  }
  const code = refused.kind === 'done' ? 0 : refused.errorCode;
  deps.log.info({ refundId: request.refund_id, attemptId: request.attempt_id, errorCode: code, order: state.kind }, 'reversal refused; order status read');
  return state.kind === 'paid';
}

/**
 * reverse.do only for the whole payment, and only while it is certainly
 * unsettled: the deposit came after the order was recorded (or captured), so
 * an order recorded (or captured) today, Tunis time, was deposited today.
 */
function operationFor(deps: AdapterDeps, request: RefundRequest, order: OrderRow): RefundOperation {
  if (!request.whole || order.payment_method_type !== 'card') return 'refund';
  if (compareTnd(request.amount, taken(order)) !== 0) {
    // A reversal gives back the whole payment, whatever was asked: never more than asked.
    deps.log.warn({ refundId: request.refund_id, attemptId: request.attempt_id }, 'whole refund of another amount than the payment; refunded as a partial');
    return 'refund';
  }
  // A held order was deposited at its capture; any other, after it was recorded.
  return maybeSettled(order.captured_at ?? order.created_at, deps.clock()) ? 'refund' : 'reverse';
}

/** What the payment took: a two-phase order's captured amount (D22), else the whole order. */
function taken(order: OrderRow): string {
  return order.captured_amount ?? order.amount;
}

/** Records an outcome reached without calling the acquirer, so that a repeat answers it too. */
async function answerWithoutCall(deps: AdapterDeps, request: RefundRequest, operation: RefundOperation, status: FinalRefundStatus, message: string): Promise<RefundReply> {
  if (!(await deps.refunds.record({ ...operationOf(request, operation), status, message }))) {
    return repeated(deps, request, await outcomeOf(deps, request.refund_id));
  }
  deps.log.info({ refundId: request.refund_id, attemptId: request.attempt_id, operation, outcome: OUTCOMES[status], reason: message }, 'refund answered without the acquirer');
  return { outcome: OUTCOMES[status], operation, message };
}

function operationOf(request: RefundRequest, operation: RefundOperation) {
  return { refund_id: request.refund_id, attempt_id: request.attempt_id, amount: request.amount, operation };
}

/**
 * The refund's operation once it is no longer in flight, or as it stands
 * after the longest a call can take (its replica died mid-call: it stays
 * STARTED, and only an operator can tell what the acquirer did).
 */
async function outcomeOf(deps: AdapterDeps, refundId: string): Promise<RefundOperationRow> {
  for (;;) {
    const row = await deps.refunds.find(refundId);
    if (!row) throw new Error('refund operation vanished after a conflicting insert');
    if (row.status !== 'STARTED' || row.age_ms >= deps.refundInFlightMs) return row;
    await sleep(POLL_MS);
  }
}

/** A refund id seen before: its recorded outcome, waited for while it is in flight. */
async function repeated(deps: AdapterDeps, request: RefundRequest, recorded: RefundOperationRow): Promise<RefundReply> {
  if (recorded.attempt_id !== request.attempt_id || compareTnd(recorded.amount, request.amount) !== 0) {
    throw new AppError('conflict', `Refund ${request.refund_id} was already sent for another payment or amount.`);
  }
  const row = recorded.status === 'STARTED' ? await outcomeOf(deps, request.refund_id) : recorded;
  deps.log.info({ refundId: request.refund_id, attemptId: request.attempt_id, operation: row.operation, outcome: OUTCOMES[row.status] }, 'refund repeated; recorded outcome answered');
  return { outcome: OUTCOMES[row.status], operation: row.operation, message: row.status === 'STARTED' ? IN_FLIGHT : row.message };
}
