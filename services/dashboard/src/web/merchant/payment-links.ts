/**
 * Payment links (D19): the merchant's links of the mode in view, newest first,
 * each with its URL, its QR code (shown, and downloadable as SVG and PNG) and
 * its state; one link's page with the payments made through it. "Create link"
 * and "Deactivate", for developers and owners, are the API's own commands in
 * the merchant's name (its validation, its problems), audited as the API's
 * changes made from the dashboard are.
 */
import type { Request, Router } from 'express';
import type { PaymentLink } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { html, type Html } from '@gateway/runtime';
import type { DoorDeps, Viewer } from '../door.js';
import { LANGUAGE_NAMES } from '@gateway/i18n';
import type { TextKey } from '../../views/texts/catalogue.js';
import { BACK_ARROW, csrfField, FORWARD_ARROW, notice, table, when } from '../layout.js';
import { BASE, can, merchantChange, merchantView, type MerchantPage, type SectionView } from './frame.js';
import { asTheApi } from './payments.js';

const SECTION = `${BASE}/payment-links`;
/** The route of "Create link": a refused form is shown again as it was filled. */
const CREATE_ROUTE = '/payment-links';
const PAGE_SIZE = '25';
const LOCALES = ['auto', 'fr', 'en', 'ar'] as const;

function one(req: Request, name: string): string {
  const value = req.query[name];
  return typeof value === 'string' ? value.trim() : '';
}

function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** "Create link" as filled in: every field as typed, to show a refused form again. */
interface LinkDraft {
  description: string;
  pricing: 'fixed' | 'open';
  amount: string;
  currency: string;
  amount_min: string;
  amount_max: string;
  max_payments: string;
  expires_at: string;
  collect_phone: boolean;
  locale: string;
  return_url: string;
}

function draftOf(req: Request): LinkDraft {
  return {
    description: field(req, 'description'),
    pricing: field(req, 'pricing') === 'open' ? 'open' : 'fixed',
    amount: field(req, 'amount'),
    currency: field(req, 'currency'),
    amount_min: field(req, 'amount_min'),
    amount_max: field(req, 'amount_max'),
    max_payments: field(req, 'max_payments'),
    expires_at: field(req, 'expires_at'),
    collect_phone: field(req, 'collect_phone') !== '',
    locale: field(req, 'locale'),
    return_url: field(req, 'return_url'),
  };
}

/**
 * A datetime-local field (no zone) as RFC 3339, in UTC as the form says;
 * anything else as given, for the checkout service to accept or refuse.
 */
function utcTime(value: string): string {
  const local = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?$/.exec(value);
  return local ? `${local[1]}${local[2] ?? ':00'}Z` : value;
}

/**
 * The body the API's create takes, from the form: an empty optional field is
 * left out, the rest goes as typed (a whole number of payments as the integer
 * the API takes); the checkout service judges it all.
 */
function createBody(draft: LinkDraft): Record<string, unknown> {
  const body: Record<string, unknown> = { description: draft.description };
  if (draft.pricing === 'open') {
    body['open_amount'] = true;
    if (draft.amount_min !== '') body['amount_min'] = draft.amount_min;
    if (draft.amount_max !== '') body['amount_max'] = draft.amount_max;
  } else {
    if (draft.amount !== '') body['amount'] = draft.amount;
    if (draft.currency !== '') body['currency'] = draft.currency.toUpperCase();
  }
  if (draft.max_payments !== '') body['max_payments'] = /^\d{1,9}$/.test(draft.max_payments) ? Number(draft.max_payments) : draft.max_payments;
  if (draft.expires_at !== '') body['expires_at'] = utcTime(draft.expires_at);
  if (draft.collect_phone) body['collect_phone'] = true;
  if (draft.locale !== '') body['locale'] = draft.locale;
  if (draft.return_url !== '') body['return_url'] = draft.return_url;
  return body;
}

type LinkState = 'active' | 'inactive' | 'expired' | 'used up';
const STATE_NAMES: Readonly<Record<LinkState, TextKey>> = { active: 'link_active', inactive: 'link_inactive', expired: 'link_expired', 'used up': 'link_used_up' };

/** Why a link takes payments or not, read from what the API answers (its `active` covers all three reasons). */
function stateOf(link: PaymentLink, now: number): LinkState {
  if (link.active) return 'active';
  if (link.max_payments !== null && link.payments_count >= link.max_payments) return 'used up';
  if (link.expires_at !== null && Date.parse(link.expires_at) <= now) return 'expired';
  return 'inactive';
}

function stateBadge(viewer: Viewer, link: PaymentLink): Html {
  const state = stateOf(link, Date.now());
  return html`<span class="badge" data-field="state" data-state="${state}">${viewer.t(STATE_NAMES[state])}</span>`;
}

function priceOf(viewer: Viewer, link: PaymentLink): Html {
  if (!link.open_amount) return html`<bdi>${link.amount ?? ''} ${link.currency}</bdi>`;
  const bounds = link.amount_min !== null || link.amount_max !== null ? html`<br><bdi class="muted">${link.amount_min ?? '…'} – ${link.amount_max ?? '…'} TND</bdi>` : '';
  return html`${viewer.t('open_amount')}${bounds}`;
}

function qrOf(viewer: Viewer, link: PaymentLink, size: number): Html {
  const { t } = viewer;
  return html`<img src="${link.qr_svg_url}" alt="${t('qr_code_of', { url: link.url })}" width="${size}" height="${size}" loading="lazy">
<br><a href="${link.qr_svg_url}" download="${link.id}.svg">${t('download_svg')}</a> · <a href="${link.url}/qr.png" download="${link.id}.png">${t('download_png')}</a>`;
}

function deactivateButton(viewer: Viewer, link: PaymentLink): Html {
  if (!can(viewer, 'develop') || !link.active) return html``;
  return html`<form method="post" action="${SECTION}/${link.id}/deactivate" class="inline" data-confirm="${viewer.t('deactivate_confirm')}">${csrfField(viewer.csrf)}<button type="submit" class="danger">${viewer.t('deactivate_button')}</button></form>`;
}

function localeName(viewer: Viewer, locale: string): string {
  return locale === 'fr' || locale === 'en' || locale === 'ar' ? LANGUAGE_NAMES[locale] : viewer.t('page_language_automatic');
}

/** "Create link", filled with `draft` when a refused one is shown again. */
function createForm(viewer: Viewer, draft: LinkDraft | undefined): Html {
  const { t } = viewer;
  const pricing = draft?.pricing ?? 'fixed';
  const radio = (value: 'fixed' | 'open', label: TextKey) =>
    html`<label class="inline"><input type="radio" name="pricing" value="${value}"${pricing === value ? html` checked` : ''}> ${t(label)}</label>`;
  const chosen = draft?.locale || 'auto';
  // No check of the fields here (novalidate: not the browser's either): the API's create judges them, and its problem is shown as it answers.
  return html`<section class="card"><h2>${t('create_link')}</h2>
<form method="post" action="${SECTION}" class="stack" novalidate>${csrfField(viewer.csrf)}
<label>${t('description')} <input name="description" value="${draft?.description ?? ''}" maxlength="500" size="48"></label>
<fieldset><legend>${t('price')}</legend>
${radio('fixed', 'fixed_price')}
<div class="row"><label>${t('amount')} <input name="amount" inputmode="decimal" value="${draft?.amount ?? ''}" placeholder="45.000"></label>
<label>${t('currency')} <input name="currency" value="${draft?.currency || 'TND'}" maxlength="3" size="4" autocapitalize="characters"></label></div>
${radio('open', 'open_amount')}
<div class="row"><label>${t('least_amount')} <input name="amount_min" inputmode="decimal" value="${draft?.amount_min ?? ''}"></label>
<label>${t('most_amount')} <input name="amount_max" inputmode="decimal" value="${draft?.amount_max ?? ''}"></label></div>
<p class="muted">${t('open_amount_note')}</p>
</fieldset>
<label>${t('payments_allowed')} <input name="max_payments" inputmode="numeric" value="${draft?.max_payments ?? ''}" size="8" aria-describedby="max-payments-hint"></label>
<span id="max-payments-hint" class="muted">${t('payments_allowed_hint')}</span>
<label>${t('expires_at')} <input type="datetime-local" name="expires_at" value="${draft?.expires_at ?? ''}" step="1"></label>
<label class="inline"><input type="checkbox" name="collect_phone" value="1"${draft?.collect_phone ? html` checked` : ''}> ${t('ask_phone')}</label>
<label>${t('page_language')} <select name="locale">${LOCALES.map((l) => html`<option value="${l}"${l === chosen ? html` selected` : ''}>${localeName(viewer, l)}</option>`)}</select></label>
<label>${t('return_url')} <input type="url" name="return_url" value="${draft?.return_url ?? ''}" size="48" placeholder="https://"></label>
<div><button type="submit">${t('create_link')}</button></div>
</form></section>`;
}

/** The links of the mode in view, a page at a time, newest first. */
const showLinks: SectionView = async (view, req, message, status) => {
  const { viewer, merchant } = view;
  const { t } = viewer;
  const query: Record<string, string> = { limit: PAGE_SIZE };
  for (const cursor of ['starting_after', 'ending_before']) if (one(req, cursor)) query[cursor] = one(req, cursor);
  const list = await view.call.api(merchant, 'payment_link.list', { query });
  const livePending = viewer.mode === 'live' && merchant.kyb_approved_at === null;
  const creates = can(viewer, 'develop') && !livePending;
  // A refused "Create link" comes back as it was filled in, beside the API's problem.
  const draft = status !== undefined && req.method === 'POST' && (req.route as { path?: unknown } | undefined)?.path === CREATE_ROUTE ? draftOf(req) : undefined;
  const rows = list.data.map(
    (l) => html`<tr data-link="${l.id}"><td><a href="${SECTION}/${l.id}">${l.description}</a><br><code class="address" data-field="url">${l.url}</code></td>
<td class="num">${priceOf(viewer, l)}</td><td>${stateBadge(viewer, l)}</td><td class="num" data-field="payments_count">${l.payments_count}${l.max_payments !== null ? html` / ${l.max_payments}` : ''}</td>
<td>${qrOf(viewer, l, 96)}</td><td>${when(l.created_at)}</td><td>${deactivateButton(viewer, l)}</td></tr>`,
  );
  const backwards = one(req, 'ending_before') !== '';
  const first = list.data[0];
  const last = list.data[list.data.length - 1];
  const page = (cursor: string, id: string) => `${SECTION}?${new URLSearchParams([[cursor, id]]).toString()}`;
  return view.render(
    SECTION,
    t('payment_links_section'),
    html`<h1>${t('payment_links_section')} <span class="badge ${viewer.mode}">${viewer.mode === 'live' ? t('live_mode') : t('test_mode')}</span></h1>
${message ?? ''}
<p class="muted">${t('payment_links_intro')}</p>
${creates ? createForm(viewer, draft) : ''}
<section class="card"><h2>${t('links')}</h2>
${table([t('description'), t('price'), t('status'), t('payments'), t('qr_code'), t('created'), ''], rows, t('no_links_yet'), [1, 3])}
<nav class="pager" aria-label="${t('pages_nav')}">
${first && (backwards ? list.has_more : one(req, 'starting_after') !== '') ? html`<a href="${page('ending_before', first.id)}">${BACK_ARROW} ${t('newer_page')}</a>` : ''}
${last && (backwards ? one(req, 'ending_before') !== '' : list.has_more) ? html`<a href="${page('starting_after', last.id)}">${t('older_page')} ${FORWARD_ARROW}</a>` : ''}
</nav></section>`,
    status,
  );
};

/** One link: its facts, its QR code, and the payments made through it (the session service's list, filtered by the link). */
async function showLink(view: MerchantPage, req: Request, message?: Html, status?: number) {
  const { viewer, merchant } = view;
  const { t } = viewer;
  const id = String(req.params['id']);
  const link = await view.call.api(merchant, 'payment_link.get', { payment_link_id: id });
  const query: Record<string, string> = { limit: PAGE_SIZE };
  for (const cursor of ['starting_after', 'ending_before']) if (one(req, cursor)) query[cursor] = one(req, cursor);
  const payments = await view.call.api(merchant, 'session.list', { query, payment_link: link.id });
  const rows = payments.data.map(
    (s) => html`<tr><td><a href="${BASE}/payments/${s.id}">${s.order_number || s.id}</a></td><td>${s.merchant_reference}</td>
<td class="num"><bdi>${s.amount} TND</bdi>${s.original.currency !== 'TND' ? html`<br><bdi class="muted">${s.original.amount} ${s.original.currency}</bdi>` : ''}</td>
<td>${s.status}</td><td>${[s.buyer_first_name, s.buyer_last_name].filter(Boolean).join(' ')}</td><td>${when(s.created_at)}</td></tr>`,
  );
  const backwards = one(req, 'ending_before') !== '';
  const first = payments.data[0];
  const last = payments.data[payments.data.length - 1];
  const page = (cursor: string, at: string) => `${SECTION}/${link.id}?${new URLSearchParams([[cursor, at]]).toString()}`;
  return view.render(
    SECTION,
    `${t('payment_links_section')} ${link.description}`,
    html`<p><a href="${SECTION}">${BACK_ARROW} ${t('payment_links_section')}</a></p>
<h1>${link.description} ${stateBadge(viewer, link)}</h1>
${message ?? ''}
<div class="card"><dl class="facts">
<dt>${t('id')}</dt><dd><code>${link.id}</code></dd>
<dt>${t('url')}</dt><dd><code class="address" data-field="url">${link.url}</code></dd>
<dt>${t('price')}</dt><dd>${priceOf(viewer, link)}</dd>
<dt>${t('payments')}</dt><dd data-field="payments_count">${link.payments_count}</dd>
<dt>${t('payments_allowed')}</dt><dd>${link.max_payments ?? t('unlimited')}</dd>
<dt>${t('expires_at')}</dt><dd>${link.expires_at ? when(link.expires_at) : t('never')}</dd>
<dt>${t('page_language')}</dt><dd>${localeName(viewer, link.locale)}</dd>
<dt>${t('ask_phone')}</dt><dd>${link.collect_phone ? t('yes') : t('no')}</dd>
<dt>${t('return_url')}</dt><dd>${link.return_url ? html`<code class="address">${link.return_url}</code>` : '—'}</dd>
<dt>${t('created')}</dt><dd>${when(link.created_at)}</dd>
<dt>${t('qr_code')}</dt><dd>${qrOf(viewer, link, 160)}</dd>
</dl>
${deactivateButton(viewer, link)}</div>
<section class="card"><h2>${t('link_payments')}</h2>
${table([t('order'), t('reference'), t('amount'), t('status'), t('buyer'), t('created')], rows, t('no_link_payments'), [2])}
<nav class="pager" aria-label="${t('pages_nav')}">
${first && (backwards ? payments.has_more : one(req, 'starting_after') !== '') ? html`<a href="${page('ending_before', first.id)}">${BACK_ARROW} ${t('newer_page')}</a>` : ''}
${last && (backwards ? one(req, 'ending_before') !== '' : payments.has_more) ? html`<a href="${page('starting_after', last.id)}">${t('older_page')} ${FORWARD_ARROW}</a>` : ''}
</nav></section>`,
    status,
  );
}

export function paymentLinkRoutes(deps: DoorDeps, router: Router): void {
  router.get('/payment-links', merchantView(deps, 'read', showLinks));

  router.post(
    CREATE_ROUTE,
    ...merchantChange(deps, 'develop', showLinks, async (req, view) => {
      const body = createBody(draftOf(req));
      // Live mode opens with the business's verification (D14): no live key before it, so no live link either.
      if (view.viewer.mode === 'live' && view.merchant.kyb_approved_at === null) throw new AppError('forbidden', 'Live payments open once your business is verified.');
      const created = await asTheApi(deps, view, { action: 'payment_link.create', target: null, detail: body }, () => view.call.api(view.merchant, 'payment_link.create', { body }));
      const { t } = view.viewer;
      return notice('ok', html`<p>${t('link_created')}</p><p><code class="address" id="created-link">${created.url}</code> <a href="${SECTION}/${created.id}">${t('details')}</a></p>`);
    }),
  );

  // Another account's link, or none, is the checkout service's not-found (D2), shown as a page.
  router.get('/payment-links/:id', merchantView(deps, 'read', showLink));

  router.post(
    '/payment-links/:id/deactivate',
    ...merchantChange(deps, 'develop', showLink, async (req, view) => {
      const id = String(req.params['id']);
      await asTheApi(deps, view, { action: 'payment_link.deactivate', target: id, detail: {} }, () => view.call.api(view.merchant, 'payment_link.deactivate', { payment_link_id: id }));
      return notice('ok', view.viewer.t('link_deactivated'));
    }),
  );
}
