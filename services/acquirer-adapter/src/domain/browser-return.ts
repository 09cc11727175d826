/**
 * The browser came back by GET to the attempt's return URL (register.do's
 * returnUrl), D30: the acquirer may have finished the order itself (a
 * deployment without finish3dsVer2Payment.do does so); or back from a
 * wallet's page, or the wallet sent its notice (D26). The connector's status decides,
 * whatever state the order is in here, through the one path every outcome
 * is recorded by, so a payment already recorded is never recorded twice.
 * A status that says nothing yet changes nothing: the step under way (a 3DS
 * Method, a challenge) goes on, and reconciliation looks as before.
 */
import type { PaymentStep } from '@gateway/contracts';
import { AcquirerUnreachable, type OrderState } from '../acquirer/acquirer.js';
import type { OrderRow } from '../db/order.repository.js';
import type { AdapterDeps } from './deps.js';
import { declineOrder, finishApproved, finishedStep } from './finish-order.js';
import { connectorFor, orderAccount } from './connectors.js';

const FINAL = new Set(['AUTHORIZED', 'APPROVED', 'DECLINED']);

/** The order's outcome as the acquirer's status tells it, recorded once; where it stands otherwise. */
export async function returnedByBrowser(deps: AdapterDeps, order: OrderRow, correlationId: string): Promise<PaymentStep> {
  if (FINAL.has(order.status) || !order.acquirer_order_id) return finishedStep(order);
  const resolved = await orderAccount(deps, order);
  if (resolved.status !== 'active') return finishedStep(order);
  let state: OrderState;
  try {
    state = await connectorFor(deps, order.payment_method_type).status(resolved.terminal, { reference: order.acquirer_order_id, orderNumber: order.order_number });
  } catch (err) {
    if (!(err instanceof AcquirerUnreachable)) throw err;
    return finishedStep(order);
  }
  if (state.kind === 'paid' || state.kind === 'held') return (await finishApproved(deps, order, state, correlationId)).step;
  if (state.kind === 'declined') return (await declineOrder(deps, order, state.failureCode, state.failureMessage, correlationId)).step;
  return finishedStep(order);
}
