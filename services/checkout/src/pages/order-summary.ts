/** The order as the status pages recap it, and the charged amount every page writes the same way. */
import { formatAmount } from '@gateway/i18n';
import { html, type Html } from '@gateway/runtime';
import type { PageTranslate } from './catalogue/index.js';
import type { OrderView } from './views.js';

/** The charged amount (TND) as the page's language writes it. */
export function chargedAmount(t: PageTranslate, order: OrderView): string {
  return formatAmount(order.amount, 'TND', t.language);
}

/** The short order recap of the status pages: merchant, amount, order number. */
export function renderOrderSummary(t: PageTranslate, order: OrderView): Html {
  const testTag = order.livemode ? '' : html`\n<p class="test-tag">${t('test_tag')}</p>`;
  return html`<dl class="summary">
<div><dt>${t('summary_merchant')}</dt><dd>${order.merchantName}</dd></div>
<div><dt>${t('summary_amount')}</dt><dd>${chargedAmount(t, order)}</dd></div>
<div><dt>${t('summary_order_number')}</dt><dd dir="ltr">${order.orderNumber}</dd></div>
</dl>${testTag}`;
}
