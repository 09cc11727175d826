/**
 * JSON Schemas of the public API (INTERFACE 2 and 4, with DECISIONS D2-D6):
 * the request bodies merchants send and the bodies we answer with. The same
 * schemas validate requests, check replies and build /api/v1/openapi.json.
 */
import { Type, type Static } from '@sinclair/typebox';

const DateTime = Type.String({ format: 'date-time' });
const Decimal = (description: string) => Type.String({ pattern: '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$', description });
const Id = (prefix: string) => Type.String({ pattern: `^${prefix}_[0-9A-Za-z]{20,}$` });

/** A line item; unknown members are allowed (INTERFACE 4.1). */
export const Item = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    quantity: Type.Integer({ minimum: 1 }),
    unit_price: Type.Optional(Decimal('Unit price, a decimal string.')),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: true },
);

/** At most 50 string keys of at most 40 characters, string values of at most 500 (D6). */
/** D6: at most 50 keys of at most 40 characters, string values of at most 500. */
export const Metadata = Type.Record(Type.String(), Type.String({ maxLength: 500 }), {
  maxProperties: 50,
  propertyNames: { maxLength: 40 },
  description: 'Arbitrary key/values echoed back, for example on webhooks.',
});

export const HttpUrl = (description: string) => Type.String({ minLength: 1, maxLength: 2048, format: 'uri', description });

/** POST /gateway/sessions/ (INTERFACE 4.1). */
/** Language of the hosted page (D18): `auto` follows the buyer's Accept-Language, then French. */
const LOCALES = ['fr', 'en', 'ar', 'auto'] as const;
const LOCALE_DESCRIPTION = 'Language of the hosted page: fr, en, ar (right to left), or auto for the buyer browser language, then French.';
export const Locale = Type.Union(LOCALES.map((l) => Type.Literal(l)), { description: LOCALE_DESCRIPTION });
export type Locale = (typeof LOCALES)[number];

/** D22: `automatic` charges the card at once; `manual` holds the amount until POST .../capture/ (or its void). */
const CAPTURE_METHODS = ['automatic', 'manual'] as const;
export const CaptureMethod = Type.Union(CAPTURE_METHODS.map((m) => Type.Literal(m)), {
  description: 'automatic (default): the payment is captured at once; manual: it is authorized (held) until captured, canceled or lapsed.',
});
export type CaptureMethod = (typeof CAPTURE_METHODS)[number];

export const CreateSessionRequest = Type.Object(
  {
    amount: Type.String({ minLength: 1, description: "Decimal string at the currency's precision (TND 3, EUR 2, JPY 0)." }),
    currency: Type.Optional(Type.String({ minLength: 1, maxLength: 3, description: 'ISO 4217 code; defaults to TND.' })),
    merchant_reference: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "The merchant's reference, unique per account and mode (the create is idempotent on it). A reference shaped like a payment link's (`pl_<id>-<n>`) is refused: those are the links' own.",
    }),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    first_name: Type.String({ minLength: 1, maxLength: 100 }),
    last_name: Type.String({ minLength: 1, maxLength: 100 }),
    email: Type.String({ minLength: 1, maxLength: 255, format: 'email' }),
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
    items: Type.Optional(Type.Array(Item)),
    metadata: Type.Optional(Metadata),
    return_url: Type.Optional(HttpUrl('Buyer redirect after a successful or processing payment.')),
    cancel_url: Type.Optional(HttpUrl('Buyer redirect on payment failure or cancellation.')),
    webhook_url: Type.Optional(HttpUrl("Per-session webhook URL; the account default applies when omitted.")),
    max_attempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: 5 })),
    locale: Type.Optional(Type.Union(LOCALES.map((l) => Type.Literal(l)), { description: LOCALE_DESCRIPTION, default: 'auto' })),
    capture_method: Type.Optional(Type.Union(CAPTURE_METHODS.map((m) => Type.Literal(m)), { description: CaptureMethod.description, default: 'automatic' })),
  },
  { additionalProperties: false },
);
export type CreateSessionRequest = Static<typeof CreateSessionRequest>;

/** The request snapshot frozen at creation (INTERFACE 2.2). */
export const Original = Type.Object(
  {
    amount: Decimal("Requested amount at the requested currency's precision."),
    currency: Type.String({ minLength: 3, maxLength: 3 }),
    rate: Type.String({ pattern: '^[0-9]+\\.[0-9]{6}$', description: 'TND per unit of original.currency, six decimals.' }),
  },
  { additionalProperties: false },
);
export type Original = Static<typeof Original>;

const AttemptStatus = Type.Union(['INITIATED', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'ABANDONED'].map((s) => Type.Literal(s)));
/** INTERFACE 3.1 with D22's AUTHORIZED (a manual session's payment, held until captured); the transitions are services/session/src/domain/session-states.ts. */
export const SessionStatus = Type.Union(
  ['CREATED', 'PENDING', 'PROCESSING', 'AUTHORIZED', 'SUCCEEDED', 'FAILED', 'EXPIRED', 'CANCELED'].map((s) => Type.Literal(s)),
);
export type SessionStatus = 'CREATED' | 'PENDING' | 'PROCESSING' | 'AUTHORIZED' | 'SUCCEEDED' | 'FAILED' | 'EXPIRED' | 'CANCELED';

/** A payment attempt as the session shows it (INTERFACE 2.3; D2: unknown values are empty strings). */
export const Attempt = Type.Object({
  id: Id('pa'),
  attempt_number: Type.Integer({ minimum: 1 }),
  status: AttemptStatus,
  card_brand: Type.String(),
  card_last_four: Type.String(),
  failure_code: Type.String(),
  fee_amount: Type.String(),
  net_amount: Type.String(),
  created_at: DateTime,
});
export type Attempt = Static<typeof Attempt>;

/** Session detail (INTERFACE 2.1 plus D2's amount_refunded). */
export const SessionDetail = Type.Object({
  id: Id('ps'),
  merchant_reference: Type.String(),
  order_number: Type.String({ maxLength: 10 }),
  order_id: Type.String(),
  amount: Decimal('Amount charged, TND.'),
  currency: Type.Literal('TND'),
  original: Original,
  description: Type.String(),
  items: Type.Array(Item),
  status: SessionStatus,
  livemode: Type.Boolean(),
  buyer_first_name: Type.String(),
  buyer_last_name: Type.String(),
  buyer_email: Type.String(),
  buyer_phone: Type.String(),
  metadata: Metadata,
  return_url: Type.String(),
  cancel_url: Type.String(),
  webhook_url: Type.String(),
  max_attempts: Type.Integer(),
  locale: Locale,
  checkout_url: Type.Optional(Type.String({ description: 'Newest hosted-page link; omitted once the session is EXPIRED.' })),
  expires_at: DateTime,
  completed_at: Type.Union([DateTime, Type.Null()]),
  created_at: DateTime,
  attempts: Type.Array(Attempt),
  amount_refunded: Decimal('Sum of accepted refunds, TND.'),
  capture_method: CaptureMethod,
  amount_authorized: Type.String({ description: 'TND held or charged by the approved payment; empty until then (D22).' }),
  amount_captured: Type.String({ description: 'TND captured, what refunds are capped at; empty until captured (D22).' }),
  payment_link: Type.Optional(Type.String({ pattern: '^pl_[0-9A-Za-z]{20,}$', description: 'The payment link the session was made through (D19); absent otherwise.' })),
});
export type SessionDetail = Static<typeof SessionDetail>;

/** Session list item (INTERFACE 2.4): a projection of the detail. */
export const SessionListItem = Type.Pick(SessionDetail, [
  'id',
  'merchant_reference',
  'order_number',
  'order_id',
  'amount',
  'currency',
  'original',
  'status',
  'livemode',
  'buyer_first_name',
  'buyer_last_name',
  'buyer_email',
  'created_at',
  'payment_link',
]);
export type SessionListItem = Static<typeof SessionListItem>;

export const SessionList = Type.Object({ data: Type.Array(SessionListItem), has_more: Type.Boolean() });
export type SessionList = Static<typeof SessionList>;

/** The paging parameters of every list (4.6) as received: strings, checked by parseListQuery (D6). */
const PAGING = {
  limit: Type.Optional(Type.String()),
  starting_after: Type.Optional(Type.String()),
  ending_before: Type.Optional(Type.String()),
};

/** Query of GET /gateway/sessions/list/ as received: strings, checked by the session service (D6). */
export const ListQuery = Type.Object(
  {
    ...PAGING,
  },
  { additionalProperties: true },
);
export type ListQuery = Static<typeof ListQuery>;

/**
 * Query of GET /gateway/sessions/list/ with its filters (issue 19): closed, so a
 * misspelt filter is refused rather than silently ignored, which would list
 * everything. Paging parameters stay strings here; parseListQuery checks them.
 */
export const SessionListQuery = Type.Object(
  {
    ...PAGING,
    status: Type.Optional(SessionStatus),
    'created[gte]': Type.Optional(Type.String({ format: 'date-time' })),
    'created[lte]': Type.Optional(Type.String({ format: 'date-time' })),
    merchant_reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type SessionListQuery = Static<typeof SessionListQuery>;

/** POST /gateway/sessions/{id}/capture/ (D22): without an amount, the whole authorized amount. */
export const CaptureRequest = Type.Object(
  {
    amount: Type.Optional(Type.String({ minLength: 1, description: 'TND at 3 decimals, at most amount_authorized; less releases the rest of the hold.' })),
  },
  { additionalProperties: false },
);
export type CaptureRequest = Static<typeof CaptureRequest>;

/** Answer of POST /gateway/sessions/{id}/checkout/ (D4). */
export const CheckoutLink = Type.Object({ checkout_url: Type.String(), expires_at: DateTime });
export type CheckoutLink = Static<typeof CheckoutLink>;

/** POST /gateway/sessions/{id}/refund/ (INTERFACE 4.5). */
export const RefundRequest = Type.Object(
  {
    reason: Type.String({ minLength: 1, maxLength: 500 }),
    refund_type: Type.Optional(Type.Union([Type.Literal('FULL'), Type.Literal('PARTIAL')], { default: 'FULL' })),
    amount: Type.Optional(Type.String({ minLength: 1 })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type RefundRequest = Static<typeof RefundRequest>;

/** Refund result (INTERFACE 2.5), with the refund's metadata (D16). */
export const RefundResult = Type.Object({
  refund_id: Id('re'),
  refunded_amount: Decimal('TND'),
  automated_refund: Type.Boolean(),
  epg_error_message: Type.Optional(Type.String()),
  metadata: Metadata,
});
export type RefundResult = Static<typeof RefundResult>;

/** How a refund stands (D16): `pending` while the acquirer step runs or an operator must find out how it ended. */
export const RefundStatus = Type.Union([Type.Literal('succeeded'), Type.Literal('pending'), Type.Literal('failed')]);
export type RefundStatus = Static<typeof RefundStatus>;

/** A refund as GET /gateway/refunds/{id}/ reads it (D16). */
export const Refund = Type.Object({
  refund_id: Id('re'),
  session_id: Id('ps'),
  amount: Decimal('TND'),
  currency: Type.Literal('TND'),
  reason: Type.String(),
  metadata: Metadata,
  automated_refund: Type.Boolean({ description: 'True when the acquirer confirmed the refund at once; false when operations staff processed or must process it.' }),
  status: RefundStatus,
  epg_error_message: Type.Optional(Type.String({ description: 'While pending: why the acquirer step could not be confirmed.' })),
  created_at: DateTime,
  resolved_at: Type.Union([DateTime, Type.Null()]),
});
export type Refund = Static<typeof Refund>;

/** GET /gateway/sessions/{id}/refunds/: every refund of the session, oldest first. */
export const RefundList = Type.Object({ data: Type.Array(Refund) });
export type RefundList = Static<typeof RefundList>;

/** Webhook delivery record (INTERFACE 2.6). */
/** Where a delivery attempt stands: due or on its way, answered with a 2xx, or failed. */
const WebhookDeliveryStatus = Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCEEDED'), Type.Literal('FAILED')]);
type WebhookDeliveryStatus = Static<typeof WebhookDeliveryStatus>;

export const WebhookDelivery = Type.Object({
  id: Id('whd'),
  endpoint_id: Type.String({ description: 'The webhook endpoint the attempt went to (the account default has one too).' }),
  session_id: Type.String(),
  event: Type.String(),
  event_id: Type.String(),
  url: Type.String(),
  attempt_number: Type.Integer(),
  status: WebhookDeliveryStatus,
  http_status_code: Type.Union([Type.Integer(), Type.Null()]),
  response_time_ms: Type.Union([Type.Integer(), Type.Null()]),
  error_message: Type.String(),
  next_retry_at: Type.Union([DateTime, Type.Null()]),
  created_at: DateTime,
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveryList = Type.Object({ data: Type.Array(WebhookDelivery), has_more: Type.Optional(Type.Boolean()) });
export type WebhookDeliveryList = Static<typeof WebhookDeliveryList>;

/**
 * Query of GET /gateway/webhooks/ with its filter (the dashboard's "failed
 * only", D14): closed like the session list's, so a misspelt filter is refused
 * rather than silently listing every attempt. Paging parameters stay strings
 * here; parseListQuery checks them.
 */
export const WebhookListQuery = Type.Object(
  {
    ...PAGING,
    status: Type.Optional(WebhookDeliveryStatus),
  },
  { additionalProperties: false },
);
export type WebhookListQuery = Static<typeof WebhookListQuery>;

/** A webhook endpoint the merchant manages (issue 19): where events go, which ones, and whether it receives them. */
export const WebhookEndpoint = Type.Object({
  id: Id('we'),
  url: Type.String(),
  enabled_events: Type.Array(Type.String(), { description: "Event types the endpoint receives; ['*'] for every one." }),
  description: Type.String(),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  livemode: Type.Boolean(),
  disabled_reason: Type.Union([Type.Literal('failing'), Type.Literal('merchant'), Type.Null()], {
    description: 'failing: every attempt failed for the configured time and the gateway disabled it; merchant: disabled through the API.',
  }),
  disabled_at: Type.Union([DateTime, Type.Null()]),
  created_at: DateTime,
  updated_at: DateTime,
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** An endpoint with its signing secret: the answer of create and of rotate_secret, the only times the secret is shown. */
export const WebhookEndpointWithSecret = Type.Object({
  ...WebhookEndpoint.properties,
  secret: Type.String({ pattern: '^whsec_' }),
  previous_secret_expires_at: Type.Optional(Type.Union([DateTime, Type.Null()], { description: 'After a rotation: until when the previous secret also signs (D11).' })),
});
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;

export const WebhookEndpointList = Type.Object({ data: Type.Array(WebhookEndpoint), has_more: Type.Boolean() });
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

export const WebhookEndpointDeleted = Type.Object({ id: Id('we'), deleted: Type.Literal(true) });
export type WebhookEndpointDeleted = Static<typeof WebhookEndpointDeleted>;

/** Answer of POST /gateway/webhook_endpoints/{id}/replay/: how many events were queued, and where the next page starts. */
export const WebhookReplayResult = Type.Object({
  queued: Type.Integer({ minimum: 0 }),
  has_more: Type.Boolean(),
  next_since: Type.Union([DateTime, Type.Null()], { description: 'With has_more: the since of the next call.' }),
  next_starting_after: Type.Union([Type.String(), Type.Null()], { description: 'With has_more: the starting_after of the next call.' }),
});
export type WebhookReplayResult = Static<typeof WebhookReplayResult>;

export const FieldError = Type.Object({ field: Type.String(), code: Type.String(), message: Type.String() });

/** RFC 9457 problem document (INTERFACE 2.7). */
export const Problem = Type.Object(
  {
    type: Type.String({ format: 'uri' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    errors: Type.Optional(Type.Array(FieldError)),
    existing_session_id: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** The paging parameters of every list, and, for the money lists, who made the move and when (D21). */
const CREATED_RANGE = {
  'created[gte]': Type.Optional(Type.String({ format: 'date-time' })),
  'created[lte]': Type.Optional(Type.String({ format: 'date-time' })),
};

/** A signed TND amount: a refund is negative (D21). */
const SignedTnd = (description: string) => Type.String({ pattern: '^-?(0|[1-9][0-9]*)\\.[0-9]{3}$', description });

/** What moved the money (D21): a payment (with its fee), a refund, a refund given back when an operator resolved it as failed. */
export const BalanceTransactionType = Type.Union([Type.Literal('payment'), Type.Literal('refund'), Type.Literal('refund_reversal')]);
export type BalanceTransactionType = Static<typeof BalanceTransactionType>;

/** One immutable money movement of a merchant and mode (D21). */
export const BalanceTransaction = Type.Object({
  id: Id('txn'),
  type: BalanceTransactionType,
  session_id: Id('ps'),
  source: Type.String({ description: 'The session (payment) or refund (refund, refund_reversal) that moved the money.' }),
  amount: SignedTnd('TND; negative for a refund.'),
  fee: SignedTnd('TND; the merchant pricing on the captured amount for a payment, 0.000 otherwise.'),
  net: SignedTnd('amount - fee, TND.'),
  currency: Type.Literal('TND'),
  created_at: DateTime,
  available_on: Type.String({ format: 'date', description: 'Africa/Tunis date from which it counts as available: created date + SETTLEMENT_DELAY_DAYS.' }),
  livemode: Type.Boolean(),
});
export type BalanceTransaction = Static<typeof BalanceTransaction>;

export const BalanceTransactionList = Type.Object({ data: Type.Array(BalanceTransaction), has_more: Type.Boolean() });
export type BalanceTransactionList = Static<typeof BalanceTransactionList>;

/** Query of GET /gateway/balance_transactions/: closed, like every list's (issue 19). */
export const BalanceTransactionListQuery = Type.Object(
  {
    ...PAGING,
    type: Type.Optional(BalanceTransactionType),
    session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    ...CREATED_RANGE,
  },
  { additionalProperties: false },
);
export type BalanceTransactionListQuery = Static<typeof BalanceTransactionListQuery>;

/** GET /gateway/balance/ (D21): net sums of the balance transactions, by whether their available_on has come. */
export const Balance = Type.Object({
  available: SignedTnd('Net TND whose available_on is today (Africa/Tunis) or before.'),
  pending: SignedTnd('Net TND whose available_on is after today.'),
  currency: Type.Literal('TND'),
  livemode: Type.Boolean(),
});
export type Balance = Static<typeof Balance>;

/** Query of GET /gateway/reports/daily/: Africa/Tunis dates, both included, at most 366 days. */
export const DailyReportQuery = Type.Object(
  {
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date' }),
  },
  { additionalProperties: false },
);
export type DailyReportQuery = Static<typeof DailyReportQuery>;

/** One Africa/Tunis day of a merchant and mode: the sums of that day's balance transactions (D21). */
export const DailyReportDay = Type.Object({
  date: Type.String({ format: 'date' }),
  payments_count: Type.Integer({ minimum: 0 }),
  gross: SignedTnd('Sum of the payments, TND.'),
  fees: SignedTnd('Sum of the payment fees, TND.'),
  refunds: SignedTnd('Sum of the day\'s refunds (negative) and refund reversals (positive), TND.'),
  net: SignedTnd('Sum of every net of the day: gross - fees + refunds.'),
});
export type DailyReportDay = Static<typeof DailyReportDay>;

export const DailyReport = Type.Object({ data: Type.Array(DailyReportDay), livemode: Type.Boolean() });
export type DailyReport = Static<typeof DailyReport>;

/** Query of GET /gateway/refunds/ (every refund of the account, newest first) and of refunds.csv. */
export const RefundListQuery = Type.Object(
  {
    ...PAGING,
    status: Type.Optional(RefundStatus),
    session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    ...CREATED_RANGE,
  },
  { additionalProperties: false },
);
export type RefundListQuery = Static<typeof RefundListQuery>;

export const RefundPage = Type.Object({ data: Type.Array(Refund), has_more: Type.Boolean() });
export type RefundPage = Static<typeof RefundPage>;

/** A TND amount of a payment link's open bounds (D19): a decimal string, checked as every amount is. */
const LinkAmount = (description: string) => Type.String({ minLength: 1, description });

/** POST /gateway/payment_links/ (D19): a fixed price (`amount`, `currency`) or an open amount the buyer types (`open_amount`, optional TND bounds). */
export const CreatePaymentLinkRequest = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 500 }),
    amount: Type.Optional(LinkAmount("Fixed price, a decimal string at the currency's precision; converted to TND at each payment's creation.")),
    currency: Type.Optional(Type.String({ minLength: 1, maxLength: 3, description: 'ISO 4217 code of the fixed price; defaults to TND.' })),
    open_amount: Type.Optional(Type.Boolean({ description: 'true: the buyer types the amount (TND), within amount_min and amount_max.' })),
    amount_min: Type.Optional(LinkAmount('Open amount: the least a buyer may pay, TND.')),
    amount_max: Type.Optional(LinkAmount('Open amount: the most a buyer may pay, TND.')),
    items: Type.Optional(Type.Array(Item)),
    metadata: Type.Optional(Metadata),
    return_url: Type.Optional(HttpUrl('Buyer redirect after a payment made through the link.')),
    locale: Type.Optional(Type.Union(LOCALES.map((l) => Type.Literal(l)), { description: LOCALE_DESCRIPTION, default: 'auto' })),
    collect_phone: Type.Optional(Type.Boolean({ description: 'Whether the link page asks the buyer for a phone number.' })),
    max_payments: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Succeeded payments after which the link closes; 1 is a single-use link.' })),
    expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the link stops taking payments.' })),
  },
  { additionalProperties: false },
);
export type CreatePaymentLinkRequest = Static<typeof CreatePaymentLinkRequest>;

/** A payment link (D19). */
export const PaymentLink = Type.Object({
  id: Id('pl'),
  url: Type.String({ description: 'The public page: {PUBLIC_BASE_URL}/pay/<code>.' }),
  qr_svg_url: Type.String({ description: 'An SVG QR code of url (url + /qr.svg; /qr.png for a PNG).' }),
  active: Type.Boolean({ description: 'false once deactivated, expired or fully used.' }),
  payments_count: Type.Integer({ minimum: 0, description: 'Succeeded sessions made through the link.' }),
  description: Type.String(),
  amount: Type.Union([Decimal('Fixed price, in currency.'), Type.Null()]),
  currency: Type.String(),
  open_amount: Type.Boolean(),
  amount_min: Type.Union([Decimal('Open amount: least, TND.'), Type.Null()]),
  amount_max: Type.Union([Decimal('Open amount: most, TND.'), Type.Null()]),
  items: Type.Array(Item),
  metadata: Metadata,
  return_url: Type.String(),
  locale: Locale,
  collect_phone: Type.Boolean(),
  max_payments: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  expires_at: Type.Union([DateTime, Type.Null()]),
  livemode: Type.Boolean(),
  created_at: DateTime,
});
export type PaymentLink = Static<typeof PaymentLink>;

export const PaymentLinkList = Type.Object({ data: Type.Array(PaymentLink), has_more: Type.Boolean() });
export type PaymentLinkList = Static<typeof PaymentLinkList>;

/** Query of GET /gateway/payment_links/: paging only, closed (issue 19). */
export const PaymentLinkListQuery = Type.Object({ ...PAGING }, { additionalProperties: false });
export type PaymentLinkListQuery = Static<typeof PaymentLinkListQuery>;
