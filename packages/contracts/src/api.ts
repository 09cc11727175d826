/**
 * JSON Schemas of the public API (INTERFACE 2 and 4, with DECISIONS D2-D6):
 * the request bodies merchants send and the bodies we answer with. The same
 * schemas validate requests, check replies and build /api/v1/openapi.json.
 */
import { Type, type Static } from '@sinclair/typebox';
import { CREATED_RANGE, DateTime, Decimal, HttpUrl, Id, Item, Locale, LOCALE_DESCRIPTION, LOCALES, Metadata, PAGING } from './api-parts.js';

export { HttpUrl, Item, Locale, Metadata } from './api-parts.js';
export * from './ledger-api.js';
export * from './customer-api.js';
export * from './payment-link-api.js';
export * from './webhook-api.js';

/** D22: `automatic` charges the card at once; `manual` holds the amount until POST .../capture/ (or its void). */
const CAPTURE_METHODS = ['automatic', 'manual'] as const;
export const CaptureMethod = Type.Union(CAPTURE_METHODS.map((m) => Type.Literal(m)), {
  description: 'automatic (default): the payment is captured at once; manual: it is authorized (held) until captured, canceled or lapsed.',
});
export type CaptureMethod = (typeof CAPTURE_METHODS)[number];

/** D24: whether a session's card is saved for its customer, and for which use. */
const SAVE_CARD = ['off', 'on_session', 'off_session'] as const;
export type SaveCard = (typeof SAVE_CARD)[number];

/** POST /gateway/sessions/ (INTERFACE 4.1). */
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
    customer: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A customer (cus_…) of the same account: the hosted page offers its saved cards (D24).' })),
    save_card: Type.Optional(
      Type.Union(SAVE_CARD.map((s) => Type.Literal(s)), {
        description: "off (default); on_session: the page offers to save the card for the customer's later payments; off_session: the card is saved with the payment, and the merchant may charge it without the buyer. Needs customer.",
        default: 'off',
      }),
    ),
    payment_method: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "With off_session: the customer's saved card (pm_…, usage off_session) to charge." })),
    off_session: Type.Optional(
      Type.Boolean({
        description:
          "true: charge payment_method at once, without the buyer (D24): the answer is PROCESSING or already final, without checkout_url; first_name, last_name and email default to the customer's. Needs customer and payment_method.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateSessionRequest = Static<typeof CreateSessionRequest>;

/** D24: a charge without the buyer, whose buyer fields default to its customer's. */
export const OffSessionCreateRequest = Type.Object(
  { ...CreateSessionRequest.properties, first_name: Type.Optional(CreateSessionRequest.properties.first_name), last_name: Type.Optional(CreateSessionRequest.properties.last_name), email: Type.Optional(CreateSessionRequest.properties.email) },
  { additionalProperties: false },
);

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
  payment_method_type: Type.Union([Type.Literal('card'), Type.Literal('flouci')], { description: 'How the attempt pays: by card, or with the Flouci wallet (D26).' }),
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
  customer: Type.Union([Id('cus'), Type.Null()], { description: 'The customer the session is for (D24), or null.' }),
  payment_method: Type.Union([Type.Literal(''), Type.Literal('card'), Type.Literal('flouci')], { description: 'How the session was paid (D26): its approved attempt\'s method; empty until then.' }),
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
  'customer',
  'payment_method',
]);
export type SessionListItem = Static<typeof SessionListItem>;

export const SessionList = Type.Object({ data: Type.Array(SessionListItem), has_more: Type.Boolean() });
export type SessionList = Static<typeof SessionList>;

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

const FieldError = Type.Object({ field: Type.String(), code: Type.String(), message: Type.String() });

/** RFC 9457 problem document (INTERFACE 2.7). */
export const Problem = Type.Object(
  {
    type: Type.String({
      format: 'uri',
      description: 'https://<host>/errors/<code> (D1): an identifier, https whatever the scheme the API is served on; branch on its last segment.',
    }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    errors: Type.Optional(Type.Array(FieldError)),
    existing_session_id: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
