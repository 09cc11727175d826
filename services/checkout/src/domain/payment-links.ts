/**
 * Payment links (D19), as the API (and the dashboard) manage them: create,
 * read, list, deactivate, each only by the account (merchant and mode) that
 * made the link. A link is open while active, before its expiry and until
 * max_payments sessions succeeded through it.
 */
import { newId, PaymentLinkListQuery, listFilterErrors, randomString, type ApiContext, type PaymentLink, type PaymentLinkList } from '@gateway/contracts';
import { findCurrency } from '@gateway/money';
import { AppError, parseListQuery, toPage, validationError } from '@gateway/problem';
import type { Account, PaymentLinkRepository, PaymentLinkRow } from '../db/payment-link.repository.js';
import { checkLinkRequest } from './payment-link-request.js';

export interface PaymentLinkDeps {
  paymentLinks: PaymentLinkRepository;
  /** The session service's session.cancel_for_payment_link: the link's open sessions canceled (D29). */
  cancelOpenSessions: (context: ApiContext, linkId: string) => Promise<void>;
  /** The session service's rate.check: refuses (422 currency_unsupported) a currency the account has no rate for, as session.create does (D29). */
  checkCurrency: (context: ApiContext, currency: string) => Promise<void>;
  publicBaseUrl: string;
  clock: () => Date;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 16 base62 characters (about 95 bits): a page's code cannot be guessed. */
const CODE_LENGTH = 16;
/** A clash of random codes is retried this many times. */
const CODE_TRIES = 5;

const accountOf = (context: ApiContext): Account => ({ merchantId: context.merchant_id, livemode: context.livemode });

/** A payment link's id: anything else (a NUL, a stray character) names no link and is never looked up. */
const PAYMENT_LINK_ID = /^pl_[0-9A-Za-z]{20,}$/;

/** Why a link takes no more payments, or undefined while it is open. */
export function closedReason(link: Pick<PaymentLinkRow, 'active' | 'expires_at' | 'max_payments' | 'payments_count'>, now: Date): 'deactivated' | 'expired' | 'used' | undefined {
  if (!link.active) return 'deactivated';
  if (link.expires_at !== null && link.expires_at <= now) return 'expired';
  if (link.max_payments !== null && link.payments_count >= link.max_payments) return 'used';
  return undefined;
}

/** The public page of a link. */
export function linkUrl(publicBaseUrl: string, code: string): string {
  return `${publicBaseUrl}/pay/${code}`;
}

/**
 * A fixed price as its currency writes it: numeric(12,3) reads back with 3
 * decimals, and the price was checked at the currency's precision, so the
 * digits dropped are zeros.
 */
export function priceText(amount: string, currency: string): string {
  const minorUnits = findCurrency(currency)?.minorUnits ?? 3;
  const [whole = '0', fraction = ''] = amount.split('.');
  return minorUnits === 0 ? whole : `${whole}.${fraction.padEnd(minorUnits, '0').slice(0, minorUnits)}`;
}

/** A link as the API shows it (D19). */
function toPaymentLink(row: PaymentLinkRow, publicBaseUrl: string, now: Date): PaymentLink {
  const url = linkUrl(publicBaseUrl, row.code);
  return {
    id: row.id,
    url,
    qr_svg_url: `${url}/qr.svg`,
    active: closedReason(row, now) === undefined,
    payments_count: row.payments_count,
    description: row.description,
    amount: row.amount === null ? null : priceText(row.amount, row.currency),
    currency: row.currency,
    open_amount: row.open_amount,
    amount_min: row.amount_min,
    amount_max: row.amount_max,
    items: row.items,
    metadata: row.metadata,
    return_url: row.return_url,
    locale: row.locale,
    collect_phone: row.collect_phone,
    max_payments: row.max_payments,
    expires_at: row.expires_at === null ? null : row.expires_at.toISOString(),
    livemode: row.livemode,
    created_at: row.created_at.toISOString(),
  };
}

/** POST /gateway/payment_links/: validates (every error at once, then the currency's rate) and stores the link. */
export async function createPaymentLink(deps: PaymentLinkDeps, context: ApiContext, body: unknown): Promise<PaymentLink> {
  const now = deps.clock();
  const check = checkLinkRequest(body, context.livemode, now);
  if (!check.ok) throw validationError(check.errors);
  const { link } = check;
  const request = link.body;
  // A fixed price in a currency the merchant has no rate for could never be paid: refused now, by session.create's own rule.
  if (link.price) await deps.checkCurrency(context, link.price.currency.code);
  for (let attempt = 0; attempt < CODE_TRIES; attempt += 1) {
    const row: PaymentLinkRow = {
      id: newId('pl'),
      merchant_id: context.merchant_id,
      livemode: context.livemode,
      code: randomString(BASE62, CODE_LENGTH),
      merchant_name: context.merchant_name,
      order_prefix: context.order_prefix,
      description: request.description,
      amount: link.price?.text ?? null,
      currency: link.price?.currency.code ?? 'TND',
      open_amount: request.open_amount === true,
      amount_min: link.min ?? null,
      amount_max: link.max ?? null,
      items: request.items ?? [],
      metadata: request.metadata ?? {},
      return_url: request.return_url ?? '',
      locale: request.locale ?? 'auto',
      collect_phone: request.collect_phone ?? false,
      max_payments: request.max_payments ?? null,
      expires_at: link.expiresAt ?? null,
      active: true,
      payments_count: 0,
      created_at: now,
    };
    if (await deps.paymentLinks.insert(row)) return toPaymentLink(row, deps.publicBaseUrl, now);
  }
  throw new Error('no free payment link code after several tries');
}

/** GET /gateway/payment_links/{id}/: another account's link is not found (D2). */
export async function getPaymentLink(deps: PaymentLinkDeps, context: ApiContext, id: string): Promise<PaymentLink> {
  if (!PAYMENT_LINK_ID.test(id)) throw notFound();
  const row = await deps.paymentLinks.find(accountOf(context), id);
  if (!row) throw notFound();
  return toPaymentLink(row, deps.publicBaseUrl, deps.clock());
}

/** GET /gateway/payment_links/: newest first, cursors as every list (4.6, D6). */
export async function listPaymentLinks(deps: PaymentLinkDeps, context: ApiContext, query: Record<string, unknown>): Promise<PaymentLinkList> {
  const account = accountOf(context);
  const list = await parseListQuery(query, {
    noun: 'payment link',
    otherErrors: listFilterErrors(PaymentLinkListQuery, query),
    isOwnItem: async (id) => PAYMENT_LINK_ID.test(id) && deps.paymentLinks.exists(account, id),
  });
  const rows = await deps.paymentLinks.page(account, list.limit, { before: list.startingAfter, after: list.endingBefore });
  const { items, hasMore } = toPage(rows, list);
  const now = deps.clock();
  return { data: items.map((row) => toPaymentLink(row, deps.publicBaseUrl, now)), has_more: hasMore };
}

/**
 * POST /gateway/payment_links/{id}/deactivate/: the link takes no more
 * payments, and its open sessions are canceled by the session service
 * (D29: session.canceled; one whose attempt is under way finishes).
 * Deactivating twice answers the same, and cancels what a first call left.
 */
export async function deactivatePaymentLink(deps: PaymentLinkDeps, context: ApiContext, id: string): Promise<PaymentLink> {
  if (!PAYMENT_LINK_ID.test(id)) throw notFound();
  const row = await deps.paymentLinks.deactivate(accountOf(context), id);
  if (!row) throw notFound();
  await deps.cancelOpenSessions(context, row.id);
  await deps.paymentLinks.markSessionsClosed(row.id);
  return toPaymentLink(row, deps.publicBaseUrl, deps.clock());
}

/** Links whose open sessions one sweep cancels at most. */
const CLOSING_BATCH = 50;

/**
 * The sweep of closed links (D29): a link closed by its expiry or its last
 * payment (or deactivated, when the deactivation's own cancel did not get
 * through) has its open sessions canceled by the session service
 * (session.canceled; one whose attempt is under way finishes), then is noted
 * as done. Canceling twice cancels nothing more, so replicas may sweep side
 * by side, and a sweep cut short is done again by the next. How many links
 * it closed. It also forgets the link pages' and QR codes' request counts of
 * past minutes.
 */
export async function cancelSessionsOfClosedLinks(deps: Pick<PaymentLinkDeps, 'paymentLinks' | 'cancelOpenSessions' | 'clock'>, requestId: string): Promise<number> {
  // The per-minute request counts of earlier minutes go too: no limit reads them, and an address that never comes back would keep its rows.
  await deps.paymentLinks.forgetRequestsBefore(new Date(deps.clock().getTime() - 2 * 60_000));
  const links = await deps.paymentLinks.closedWithOpenSessions(CLOSING_BATCH);
  for (const link of links) {
    await deps.cancelOpenSessions(linkContext(link, requestId), link.id);
    await deps.paymentLinks.markSessionsClosed(link.id);
  }
  return links.length;
}

/** The merchant's context the link was made in: its sessions are the merchant's, in the link's mode. */
export function linkContext(link: PaymentLinkRow, requestId: string): ApiContext {
  return { merchant_id: link.merchant_id, livemode: link.livemode, order_prefix: link.order_prefix, merchant_name: link.merchant_name, request_id: requestId };
}

function notFound(): AppError {
  return new AppError('not-found', 'No such payment link.');
}
