import { html, type Html } from '@gateway/runtime';
import { formatAmount, translate, type Language } from './messages/index.js';
import type { OrderView } from './views.js';

/** The charged amount (TND) as the buyer's language writes it. */
export function chargedAmount(order: OrderView, language: Language): string {
  return formatAmount(order.amount, 'TND', language);
}

/** The short order recap of the status pages: merchant, amount, order number. */
export function renderOrderSummary(order: OrderView, language: Language): Html {
  const t = (key: Parameters<typeof translate>[1]) => translate(language, key);
  const testTag = order.livemode ? '' : html`\n<p class="test-tag">${t('test_tag')}</p>`;
  return html`<dl class="summary">
<div><dt>${t('summary_merchant')}</dt><dd>${order.merchantName}</dd></div>
<div><dt>${t('summary_amount')}</dt><dd>${chargedAmount(order, language)}</dd></div>
<div><dt>${t('summary_order_number')}</dt><dd dir="ltr">${order.orderNumber}</dd></div>
</dl>${testTag}`;
}
