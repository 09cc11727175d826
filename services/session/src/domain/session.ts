/**
 * The payment session as stored, and the shapes it is shown in: the API's
 * session detail and list item (INTERFACE 2.1, 2.4) and the event payload that
 * webhooks carry (INTERFACE 6.2).
 */
import type { Attempt, CaptureMethod, PaymentMethodType, Locale, Language, ReceiptFacts, SaveCard, SessionDetail, SessionEventPayload, SessionListItem, SessionStatus } from '@gateway/contracts';
import { OPEN_STATUSES } from './session-states.js';

export { OPEN_STATUSES } from './session-states.js';

/** A payment attempt as stored (INTERFACE 2.3); amounts are null until approved. */
interface AttemptRow {
  id: string;
  attempt_number: number;
  status: Attempt['status'];
  payment_method_type: PaymentMethodType;
  card_brand: string;
  card_last_four: string;
  card_country: string;
  failure_code: string;
  failure_message: string;
  fee_amount: string | null;
  net_amount: string | null;
  created_at: string;
}

export interface SessionRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  merchant_reference: string;
  order_number: string;
  order_id: string;
  amount: string;
  original_amount: string;
  original_currency: string;
  rate: string;
  description: string;
  items: SessionDetail['items'];
  metadata: Record<string, string>;
  buyer_first_name: string;
  buyer_last_name: string;
  buyer_email: string;
  buyer_phone: string;
  return_url: string;
  cancel_url: string;
  webhook_url: string;
  max_attempts: number;
  status: SessionStatus;
  expires_at: Date;
  completed_at: Date | null;
  created_at: Date;
  checkout_link_id: string;
  checkout_token: string;
  checkout_expires_at: Date;
  amount_refunded: string;
  merchant_name: string;
  attempts_count: number;
  last_failure_code: string;
  last_failure_message: string;
  locale: Locale;
  /** The language of the page the buyer last paid on ('' before any attempt): an `auto` session's receipts are in it (D20). */
  page_language?: Language | '';
  /** D22: `manual` holds an approved payment (AUTHORIZED) until it is captured. */
  capture_method: CaptureMethod;
  /** Manual sessions: what the approved payment holds, and since when (set on AUTHORIZED). */
  amount_authorized: string | null;
  authorized_at: Date | null;
  /** When an AUTHORIZED session's hold lapses (D22: AUTHORIZATION_TTL_SECONDS after it was held). */
  hold_expires_at: Date | null;
  /** Manual sessions: what the capture took (set on SUCCEEDED). */
  amount_captured: string | null;
  /** Set while a capture of this amount is under way at the acquirer: nothing else may touch the hold. */
  capturing_amount: string | null;
  /** The claim of the capture under way (or last made), as payment.capture names it. */
  capture_id: string | null;
  /** The Idempotency-Key of the capture under way or done, so its retry gets the session once captured. */
  capture_key: string | null;
  /** D19: the payment link the session was made through, if any. */
  payment_link: string | null;
  /** D24: the customer the session is for, and whether its card is to be saved. */
  customer_id: string | null;
  save_card: SaveCard;
  /** D24: the saved card a charge without the buyer charges; null for a session paid on the page. */
  payment_method_id: string | null;
  /** D26: how it was paid (its approved attempt's method); '' until then. */
  paid_with: '' | PaymentMethodType;
  /** Present when read for a detail: the attempts, oldest first. */
  attempts?: AttemptRow[];
}

/** A session's capture fields before any hold (D22): what a new session, manual or not, starts with. */
export const NOT_HELD = {
  amount_authorized: null,
  authorized_at: null,
  hold_expires_at: null,
  amount_captured: null,
  capturing_amount: null,
  capture_id: null,
  capture_key: null,
} as const satisfies Partial<SessionRow>;

/**
 * The status a caller sees. An open session past its lifetime is EXPIRED even
 * before the expiry sweep records it, so no answer ever treats it as payable;
 * so is a hold past its lapse with no capture under way (D22), which can no
 * longer be captured or voided (the sweep releases it).
 */
export function effectiveStatus(row: Pick<SessionRow, 'status' | 'expires_at'> & Partial<Pick<SessionRow, 'hold_expires_at' | 'capturing_amount'>>, now: Date): SessionStatus {
  if (OPEN_STATUSES.includes(row.status)) return row.expires_at <= now ? 'EXPIRED' : row.status;
  if (row.status === 'AUTHORIZED' && row.hold_expires_at && row.hold_expires_at <= now && !row.capturing_amount) return 'EXPIRED';
  return row.status;
}

export function checkoutUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/checkout/${token}`;
}

function original(row: SessionRow): SessionDetail['original'] {
  return { amount: row.original_amount, currency: row.original_currency, rate: row.rate };
}

/** Session list item (INTERFACE 2.4); the detail starts with the same fields. */
export function toListItem(row: SessionRow, now: Date): SessionListItem {
  const item: SessionListItem = {
    id: row.id,
    merchant_reference: row.merchant_reference,
    order_number: row.order_number,
    order_id: row.order_id,
    amount: row.amount,
    currency: 'TND',
    original: original(row),
    status: effectiveStatus(row, now),
    livemode: row.livemode,
    buyer_first_name: row.buyer_first_name,
    buyer_last_name: row.buyer_last_name,
    buyer_email: row.buyer_email,
    created_at: row.created_at.toISOString(),
    customer: row.customer_id,
    payment_method: row.paid_with,
  };
  if (row.payment_link) item.payment_link = row.payment_link;
  return item;
}

/** Session detail (INTERFACE 2.1, D2): checkout_url is the newest link, absent once EXPIRED and for a charge without the buyer. */
export function toDetail(row: SessionRow, now: Date, publicBaseUrl: string): SessionDetail {
  // Object.assign, not a spread into a literal: V8 built that literal (and JSON.stringify then read it) tens of
  // µs slower per detail, a fifth of the session service's own time per create (BENCHMARKS.md, issue 18).
  const detail: SessionDetail = Object.assign(toListItem(row, now), {
    description: row.description,
    items: row.items,
    buyer_phone: row.buyer_phone,
    metadata: row.metadata,
    return_url: row.return_url,
    cancel_url: row.cancel_url,
    webhook_url: row.webhook_url,
    max_attempts: row.max_attempts,
    locale: row.locale,
    expires_at: row.expires_at.toISOString(),
    completed_at: row.completed_at ? row.completed_at.toISOString() : null,
    attempts: (row.attempts ?? []).map(toAttempt),
    amount_refunded: row.amount_refunded,
    capture_method: row.capture_method,
    amount_authorized: amountAuthorized(row),
    amount_captured: amountCaptured(row),
  });
  // A charge without the buyer (D24) has no page to send anyone to.
  if (detail.status !== 'EXPIRED' && row.payment_method_id === null) detail.checkout_url = checkoutUrl(publicBaseUrl, row.checkout_token);
  return detail;
}

/** D22: what the approved payment held or charged; an automatic payment is captured whole, so both are its amount. Empty until known (D2). */
function amountAuthorized(row: Pick<SessionRow, 'capture_method' | 'status' | 'amount' | 'amount_authorized'>): string {
  if (row.capture_method === 'manual') return row.amount_authorized ?? '';
  return row.status === 'SUCCEEDED' ? row.amount : '';
}

/** D22: what was captured, the most refunds may give back; empty until captured (D2). */
function amountCaptured(row: Pick<SessionRow, 'capture_method' | 'status' | 'amount' | 'amount_captured'>): string {
  if (row.capture_method === 'manual') return row.amount_captured ?? '';
  return row.status === 'SUCCEEDED' ? row.amount : '';
}

/** What an approved attempt tells of the card and the money (INTERFACE 6.2 `payment`). */
export type PaidAttempt = Pick<AttemptRow, 'payment_method_type' | 'card_brand' | 'card_last_four' | 'card_country' | 'fee_amount' | 'net_amount'>;

/** What a payment.* event tells of the approved attempt's card or wallet, and, once taken, of the fee. */
export function paidAttempt(
  data: { payment_method_type?: PaymentMethodType; card_brand: string; card_last_four: string; card_country: string },
  fee?: { fee_amount: string; net_amount: string },
): PaidAttempt {
  return {
    payment_method_type: data.payment_method_type ?? 'card',
    card_brand: data.card_brand,
    card_last_four: data.card_last_four,
    card_country: data.card_country,
    fee_amount: fee?.fee_amount ?? null,
    net_amount: fee?.net_amount ?? null,
  };
}

/**
 * What the buyer's receipts need beside the payload (D20): the shop's name and
 * the session's language (D18): the one it was created with, or for `auto`
 * the one of the page the buyer paid on.
 */
export function receiptFacts(row: SessionRow): ReceiptFacts {
  return { merchant_name: row.merchant_name, locale: row.locale === 'auto' && row.page_language ? row.page_language : row.locale };
}

/**
 * The session as webhooks carry it (INTERFACE 6.2 with D11's livemode): every
 * session event, and the refund events through session.get_for_event. Once
 * paid, with `paid_at` and the `payment` of the approved attempt (`paid`, by
 * default the row's SUCCEEDED attempt). A manual session (D22) also carries
 * its capture method and amounts; unless SUCCEEDED (held, or the hold
 * voided or lapsed), `payment` has no fee or net (they are taken on what is
 * captured) and there is no `paid_at`: `authorized_at` says when it was held.
 */
export function toEventPayload(row: SessionRow, paid: PaidAttempt | undefined = row.attempts?.find((a) => a.status === 'SUCCEEDED')): SessionEventPayload {
  const payload = basePayload(row, paid);
  if (row.capture_method !== 'manual') return payload;
  payload.capture_method = 'manual';
  if (row.authorized_at) payload.authorized_at = row.authorized_at.toISOString();
  if (row.amount_authorized !== null) payload.amount_authorized = row.amount_authorized;
  if (row.amount_captured !== null) payload.amount_captured = row.amount_captured;
  if (paid && row.status !== 'SUCCEEDED') {
    // Held, or a hold voided or lapsed: the card, no fee or net, nothing taken (no paid_at).
    payload.payment = { method: paid.payment_method_type, card_brand: paid.card_brand, card_last_four: paid.card_last_four, card_country: paid.card_country };
  }
  return payload;
}

function basePayload(row: SessionRow, paid: PaidAttempt | undefined): SessionEventPayload {
  return {
    id: row.id,
    order_number: row.order_number,
    merchant_reference: row.merchant_reference,
    order_id: row.order_id,
    amount: row.amount,
    currency: 'TND',
    description: row.description,
    status: row.status,
    livemode: row.livemode,
    buyer: { first_name: row.buyer_first_name, last_name: row.buyer_last_name, email: row.buyer_email, phone: row.buyer_phone },
    items: row.items,
    metadata: row.metadata,
    original: original(row),
    // Only a SUCCEEDED session was paid: a manual one's voided or lapsed hold also ends with an approved attempt, but nothing taken.
    ...(paid && row.completed_at && row.status === 'SUCCEEDED' && { paid_at: row.completed_at.toISOString(), payment: paymentOf(paid) }),
    ...(row.payment_link && { payment_link: row.payment_link }),
  };
}

function paymentOf(paid: PaidAttempt): NonNullable<SessionEventPayload['payment']> {
  return {
    method: paid.payment_method_type,
    card_brand: paid.card_brand,
    card_last_four: paid.card_last_four,
    card_country: paid.card_country,
    fee_amount: paid.fee_amount ?? '',
    net_amount: paid.net_amount ?? '',
  };
}

/** An attempt as the API shows it (D2: values not known yet are empty strings). */
function toAttempt(attempt: AttemptRow): Attempt {
  return {
    id: attempt.id,
    attempt_number: attempt.attempt_number,
    status: attempt.status,
    // Attempts recorded before wallets were card attempts.
    payment_method_type: attempt.payment_method_type ?? 'card',
    card_brand: attempt.card_brand,
    card_last_four: attempt.card_last_four,
    failure_code: attempt.failure_code,
    fee_amount: attempt.fee_amount ?? '',
    net_amount: attempt.net_amount ?? '',
    created_at: attempt.created_at,
  };
}
