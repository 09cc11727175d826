/**
 * The issuer's approval, wherever a payment ends (paymentorder.do, the 3-D
 * Secure finishes, the saved-card charges): the order is deposited or held
 * (order.ts), and an order registered with FORCE_CREATE_BINDING saves its
 * card for its client. A declined order never reaches here, so it saves nothing.
 */
import { approve, type Order } from './order.js';
import type { Sandbox } from './sandbox.js';

/** Approves the order at the sandbox's clock (with its eci when authenticated) and saves its card when the order asked for it. */
export function approvePayment(sandbox: Sandbox, order: Order, eci?: string): void {
  approve(order, sandbox.now(), eci);
  if (order.saveCard !== true || order.clientId === undefined || !order.card) return;
  const binding = sandbox.bindings.save(order.terminal, order.clientId, order.card);
  order.binding = { clientId: binding.clientId, bindingId: binding.bindingId };
}
