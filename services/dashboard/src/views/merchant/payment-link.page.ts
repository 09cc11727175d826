/** One payment link (D19): its facts, its QR code, Deactivate, and the payments made through it, paged. */
import type { PaymentLink, SessionList } from '@gateway/contracts';
import { html, type Html } from '@gateway/runtime';
import { BACK_ARROW, notice, table, when, type PageView, type Reader } from '../layout.js';
import { cursorPager, type Cursors } from '../pager.js';
import type { Words } from '../texts/catalogue.js';
import { deactivateButton, LINKS, localeName, priceOf, qrOf, stateBadge } from './payment-link-parts.js';
import { sessionRow } from './payments.page.js';

/** What the link's page shows. */
interface LinkView {
  link: PaymentLink;
  payments: SessionList;
  cursors: Cursors;
  /** Whether the reader may deactivate it. */
  developer: boolean;
}

/** The link's page, with the outcome of a change when there is one. */
export function paymentLinkPage(reader: Reader, view: LinkView, message?: Html): PageView {
  const { t } = reader;
  const { link, payments } = view;
  const page = (cursor: string, at: string) => `${LINKS}/${link.id}?${new URLSearchParams([[cursor, at]]).toString()}`;
  const body = html`<p><a href="${LINKS}">${BACK_ARROW} ${t('payment_links_section')}</a></p>
<h1>${link.description} ${stateBadge(t, link)}</h1>
${message ?? ''}
<div class="card"><dl class="facts">
<dt>${t('id')}</dt><dd><code>${link.id}</code></dd>
<dt>${t('url')}</dt><dd><code class="address" data-field="url">${link.url}</code></dd>
<dt>${t('price')}</dt><dd>${priceOf(t, link)}</dd>
<dt>${t('payments')}</dt><dd data-field="payments_count">${link.payments_count}</dd>
<dt>${t('payments_allowed')}</dt><dd>${link.max_payments ?? t('unlimited')}</dd>
<dt>${t('expires_at')}</dt><dd>${link.expires_at ? when(link.expires_at) : t('never')}</dd>
<dt>${t('page_language')}</dt><dd>${localeName(t, link.locale)}</dd>
<dt>${t('ask_phone')}</dt><dd>${link.collect_phone ? t('yes') : t('no')}</dd>
<dt>${t('return_url')}</dt><dd>${link.return_url ? html`<code class="address">${link.return_url}</code>` : '—'}</dd>
<dt>${t('created')}</dt><dd>${when(link.created_at)}</dd>
<dt>${t('qr_code')}</dt><dd>${qrOf(t, link, 160)}</dd>
</dl>
${deactivateButton(reader, view.developer, link)}</div>
<section class="card"><h2>${t('link_payments')}</h2>
${table([t('order'), t('reference'), t('amount'), t('status'), t('buyer'), t('created')], payments.data.map((s) => sessionRow(t, s, false)), t('no_link_payments'), [2])}
${cursorPager(t, payments, view.cursors, page)}</section>`;
  return { title: `${t('payment_links_section')} ${link.description}`, body };
}

/** A link just made: its address to share, and its page. */
export function linkCreatedNotice(t: Words, link: Pick<PaymentLink, 'id' | 'url'>): Html {
  return notice('ok', html`<p>${t('link_created')}</p><p><code class="address" id="created-link">${link.url}</code> <a href="${LINKS}/${link.id}">${t('details')}</a></p>`);
}
