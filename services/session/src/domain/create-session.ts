/**
 * Creating a session (INTERFACE 4.1; DECISIONS D3, D5, D6): validate, convert
 * at the merchant's rate, insert idempotently on (merchant, mode,
 * merchant_reference) with the first checkout link. No event announces it:
 * nothing consumes a session's creation. A replay answers the stored session.
 */
import { CUSTOMER_ID, newId, orderNumberSuffix, type ApiContext, type SessionDetail } from '@gateway/contracts';
import { convertToAccountCurrency } from '@gateway/money';
import { AppError, validationError, type FieldError } from '@gateway/problem';
import { accountOf, type Account } from './accounts.js';
import { checkoutLinkExpiry } from './checkout-links.js';
import { rateFor } from './exchange-rates.js';
import { effectiveStatus, NOT_HELD, OPEN_STATUSES, toDetail, type SessionRow } from './session.js';
import { amountError, checkCreateRequest, type CheckedRequest } from './validate-create-request.js';
import { chargeOffSession, offSessionCard, type OffSessionCard } from './charge-off-session.js';
import type { CustomerRow } from '../db/customer.repository.js';
import { cardExpired } from './customers.js';
import type { SessionDeps } from './deps.js';

export interface CreateResult {
  status: 200 | 201;
  body: SessionDetail;
}

/** Order numbers are random; a clash with an existing one is retried this many times. */
const ORDER_NUMBER_TRIES = 5;

/** `paymentLink`: the payment link (D19) the session is made through, when checkout asks for it on a buyer's behalf. */
export async function createSession(deps: SessionDeps, context: ApiContext, body: unknown, paymentLink?: string): Promise<CreateResult> {
  const check = checkCreateRequest(body, context.livemode, { allowPrivateWebhooks: deps.allowPrivateWebhooks, forPaymentLink: paymentLink !== undefined });
  if (!check.ok) throw validationError(check.errors);
  const request = check.request;
  const account = accountOf(context);
  let offSession: OffSessionCard | undefined;
  try {
    const customer = request.body.customer === undefined ? undefined : await customerOf(deps, account, request.body.customer);
    offSession = customer && request.body.off_session === true ? await offSessionCard(deps, customer, request.body.payment_method ?? '', deps.clock()) : undefined;
  } catch (err) {
    // A replay answers its session, charged already, even once its customer or card is gone (D3).
    const existing = err instanceof AppError ? await deps.sessions.findByReference(account, request.body.merchant_reference) : undefined;
    if (existing) return replay(deps, context, existing, request, paymentLink);
    throw err;
  }
  // A buyer on a payment link's page (D19) comes through no API key: a suspended merchant's page makes no session, as its keys make none.
  if (paymentLink !== undefined && (await deps.sessions.merchantSuspended(context.merchant_id))) {
    throw new AppError('forbidden', 'This merchant account is suspended: it takes no payment.');
  }

  // A rate that is missing or changed must not break the replay of a session created before (D3).
  const conversion = await convert(deps, account, request);
  if (!conversion.ok) {
    const existing = await deps.sessions.findByReference(account, request.body.merchant_reference);
    if (existing) return replay(deps, context, existing, request, paymentLink);
    throw validationError([conversion.error]);
  }

  if (context.livemode) {
    // Live sessions need a terminal that can take them; a replay answers regardless.
    const existing = await deps.sessions.findByReference(account, request.body.merchant_reference);
    if (existing) return replay(deps, context, existing, request, paymentLink);
    await assertTerminalUsable(deps, context.merchant_id);
  }

  for (let attempt = 0; attempt < ORDER_NUMBER_TRIES; attempt += 1) {
    const now = deps.clock();
    const row = await newSessionRow(deps, context, request, conversion, now, paymentLink, offSession);
    if (await deps.sessions.insertNew(row)) {
      // D24: a charge without the buyer is charged at once, and answered as it then stands.
      const answered = offSession ? await chargeOffSession(deps, row, offSession.card, context) : row;
      return { status: 201, body: toDetail(answered, deps.clock(), deps.publicBaseUrl) };
    }
    const existing = await deps.sessions.findByReference(account, request.body.merchant_reference);
    if (existing) return replay(deps, context, existing, request, paymentLink);
    // Not our reference: the random order number was taken. Draw another.
  }
  throw new Error('no free order number after several tries');
}

/** D24: a session's customer is one of the account's, not deleted; anything else is refused as the field's error. */
async function customerOf(deps: SessionDeps, account: Account, customerId: string): Promise<CustomerRow> {
  const found = CUSTOMER_ID.test(customerId) ? await deps.customers.find(account, customerId) : undefined;
  if (!found) throw validationError([{ field: 'customer', code: 'not_found', message: "customer must be the id of one of this account's customers." }]);
  return found;
}

/** A live session is refused up front when the merchant's terminal could not take its payment. */
async function assertTerminalUsable(deps: SessionDeps, merchantId: string): Promise<void> {
  const status = await deps.terminalStatus(merchantId);
  if (status === 'missing') throw new AppError('no-terminal-configured', 'The account has no live acquirer terminal; ask us to configure one.');
  if (status === 'inactive') throw new AppError('terminal-inactive', "The account's live acquirer terminal is inactive.");
  if (status === 'rejected') throw new AppError('terminal-rejected', "The acquirer rejected the live terminal's credentials; ask us to update them.");
}

type Conversion = { ok: true; amount: string; rate: string } | { ok: false; error: FieldError };

async function convert(deps: SessionDeps, account: Account, request: CheckedRequest): Promise<Conversion> {
  const found = await rateFor(deps.rates, account, request.currency.code);
  if (!found.ok) return found;
  const { rate } = found;
  if (request.currency.code === 'TND') return { ok: true, amount: request.amountText, rate };
  const converted = convertToAccountCurrency(request.amount, rate);
  if (!converted.ok) return { ok: false, error: amountError(converted.code, request.currency) };
  return { ok: true, amount: converted.amount, rate };
}

async function newSessionRow(
  deps: SessionDeps,
  context: ApiContext,
  request: CheckedRequest,
  conversion: { amount: string; rate: string },
  now: Date,
  paymentLink: string | undefined,
  offSession: OffSessionCard | undefined,
): Promise<SessionRow> {
  const body = request.body;
  const id = newId('ps');
  const expiresAt = new Date(now.getTime() + deps.sessionTtlSeconds * 1000);
  const link = await deps.signer.mint(id, paymentLink ?? null, checkoutLinkExpiry(now, deps.checkoutLinkTtlSeconds, expiresAt));
  return {
    id,
    merchant_id: context.merchant_id,
    livemode: context.livemode,
    merchant_reference: body.merchant_reference,
    order_number: `${context.order_prefix}-${orderNumberSuffix()}`,
    order_id: body.order_id ?? '',
    amount: conversion.amount,
    original_amount: request.amountText,
    original_currency: request.currency.code,
    rate: conversion.rate,
    description: body.description ?? '',
    items: body.items ?? [],
    metadata: body.metadata ?? {},
    // D24: a charge without the buyer names the buyer as its customer does, unless told otherwise.
    buyer_first_name: body.first_name ?? offSession?.buyer.firstName ?? '',
    buyer_last_name: body.last_name ?? offSession?.buyer.lastName ?? '',
    buyer_email: body.email ?? offSession?.buyer.email ?? '',
    buyer_phone: body.phone ?? '',
    return_url: body.return_url ?? '',
    cancel_url: body.cancel_url ?? '',
    webhook_url: body.webhook_url ?? '',
    // A charge without the buyer has one attempt: a decline ends it (D24).
    max_attempts: offSession ? 1 : (body.max_attempts ?? 5),
    status: 'CREATED',
    expires_at: expiresAt,
    completed_at: null,
    created_at: now,
    checkout_link_id: link.id,
    checkout_token: link.token,
    checkout_expires_at: link.expiresAt,
    amount_refunded: '0.000',
    merchant_name: context.merchant_name,
    attempts_count: 0,
    last_failure_code: '',
    last_failure_message: '',
    locale: body.locale ?? 'auto',
    capture_method: body.capture_method ?? 'automatic',
    payment_link: paymentLink ?? null,
    customer_id: body.customer ?? null,
    save_card: body.save_card ?? 'off',
    payment_method_id: offSession?.card.id ?? null,
    paid_with: '',
    ...NOT_HELD,
  };
}

/**
 * The answer to a repeated merchant_reference (D3): the stored session, with a
 * fresh checkout link when the newest one lapsed while the session is still open; a
 * different amount or currency is a conflict, and so is a session made
 * through another payment link than the request's, or through none (D19).
 */
async function replay(deps: SessionDeps, context: ApiContext, existing: SessionRow, request: CheckedRequest, paymentLink: string | undefined): Promise<CreateResult> {
  if ((existing.payment_link ?? undefined) !== paymentLink) {
    throw new AppError(
      'conflict',
      paymentLink === undefined
        ? 'A session with this merchant_reference was made through a payment link. Use a new merchant_reference for a new payment.'
        : 'A session with this merchant_reference exists and was not made through this payment link.',
      { existing_session_id: existing.id },
    );
  }
  if (!sameAmount(existing, request)) {
    throw new AppError(
      'conflict',
      'A session with this merchant_reference already exists with a different amount or currency. Use a new merchant_reference for a new payment.',
      { existing_session_id: existing.id },
    );
  }
  const now = deps.clock();
  // D24: a charge without the buyer whose first request stopped before charging is charged by its replay (once: the attempt starts once).
  if (existing.payment_method_id !== null && existing.status === 'CREATED') {
    const card = existing.customer_id === null ? undefined : await deps.customers.paymentMethod(existing.customer_id, existing.payment_method_id);
    const charged = card && !cardExpired(card, now) ? await chargeOffSession(deps, existing, card, context) : existing;
    return { status: 200, body: toDetail(charged, deps.clock(), deps.publicBaseUrl) };
  }
  if (!needsFreshCheckoutLink(existing, now)) return { status: 200, body: toDetail(existing, now, deps.publicBaseUrl) };
  const account: Account = { merchantId: existing.merchant_id, livemode: existing.livemode };
  const row = await deps.sessions.withLockedSession(account, existing.id, async (locked, tx) => {
    // Another replay may have minted one meanwhile.
    if (!locked || !needsFreshCheckoutLink(locked, now)) return locked ?? existing;
    const link = await deps.signer.mint(locked.id, locked.payment_link, checkoutLinkExpiry(now, deps.checkoutLinkTtlSeconds, locked.expires_at));
    await deps.checkoutLinks.add(tx, locked.id, link, now);
    return { ...locked, checkout_link_id: link.id, checkout_token: link.token, checkout_expires_at: link.expiresAt };
  });
  return { status: 200, body: toDetail(row, now, deps.publicBaseUrl) };
}

/** D3: a replay must ask for the same amount, as written, in the same currency (its code already upper case); other fields are ignored. */
export function sameAmount(existing: Pick<SessionRow, 'original_amount' | 'original_currency'>, request: Pick<CheckedRequest, 'amountText' | 'currency'>): boolean {
  return existing.original_currency === request.currency.code && existing.original_amount === request.amountText;
}

/** D3: a replay mints a fresh checkout link only while the session can still be paid and its newest one has lapsed. */
export function needsFreshCheckoutLink(row: Pick<SessionRow, 'status' | 'expires_at' | 'checkout_expires_at'>, now: Date): boolean {
  return OPEN_STATUSES.includes(effectiveStatus(row, now)) && row.checkout_expires_at <= now;
}
