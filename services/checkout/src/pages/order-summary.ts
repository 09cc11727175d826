import { escapeHtml } from './html.js';
import type { OrderView } from './views.js';

/** "12.500" → "12.500 TND": the charged amount as the buyer reads it. */
export function formatTnd(amount: string): string {
  return `${amount} TND`;
}

/** The short order recap of the status pages: merchant, amount, order number. */
export function renderOrderSummary(order: OrderView): string {
  const testTag = order.livemode ? '' : '\n<p class="test-tag">Test mode: no real money moved.</p>';
  return `<dl class="summary">
<div><dt>Merchant</dt><dd>${escapeHtml(order.merchantName)}</dd></div>
<div><dt>Amount</dt><dd>${escapeHtml(formatTnd(order.amount))}</dd></div>
<div><dt>Order number</dt><dd>${escapeHtml(order.orderNumber)}</dd></div>
</dl>${testTag}`;
}
