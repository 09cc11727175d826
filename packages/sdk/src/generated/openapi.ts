// Generated from the OpenAPI document (GET /api/v1/openapi.json) by packages/sdk/scripts/generate-types.mjs.
// Do not edit: run `npm run gen:sdk` at the repository root.

export type CreateSessionRequest = {
  /** Decimal string at the currency's precision (TND 3, EUR 2, JPY 0). */
  amount: string;
  /** ISO 4217 code; defaults to TND. */
  currency?: string;
  /** The merchant's reference, unique per account and mode (the create is idempotent on it). A reference shaped like a payment link's (`pl_<id>-<n>`) is refused: those are the links' own. */
  merchant_reference: string;
  description?: string;
  order_id?: string;
  first_name: string;
  last_name: string;
  email: string;
  phone?: string;
  items?: Array<{
    name: string;
    quantity: number;
    /** Unit price, a decimal string. */
    unit_price?: string;
    description?: string;
    [key: string]: unknown;
  }>;
  /** Arbitrary key/values echoed back, for example on webhooks. */
  metadata?: Record<string, string>;
  /** Buyer redirect after a successful or processing payment. Absolute http or https (https in live mode), without a user or password. */
  return_url?: string;
  /** Buyer redirect on payment failure or cancellation. Absolute http or https (https in live mode), without a user or password. */
  cancel_url?: string;
  /** Per-session webhook URL; the account default applies when omitted. Absolute http or https (https in live mode), without a user or password. */
  webhook_url?: string;
  max_attempts?: number;
  /** Language of the hosted page: fr, en, ar (right to left), or auto for the buyer browser language, then French. */
  locale?: "fr" | "en" | "ar" | "auto" | (string & {});
  /** automatic (default): the payment is captured at once; manual: it is authorized (held) until captured, canceled or lapsed. */
  capture_method?: "automatic" | "manual" | (string & {});
  /** A customer (cus_…) of the same account: the hosted page offers its saved cards (D24). */
  customer?: string;
  /** off (default); on_session: the page offers to save the card for the customer's later payments; off_session: the card is saved with the payment, and the merchant may charge it without the buyer. Needs customer. */
  save_card?: "off" | "on_session" | "off_session" | (string & {});
  /** With off_session: the customer's saved card (pm_…, usage off_session) to charge. */
  payment_method?: string;
  /** true: charge payment_method at once, without the buyer (D24): the answer is PROCESSING or already final, without checkout_url; first_name, last_name and email default to the customer's. Needs customer and payment_method. */
  off_session?: boolean;
};

export type SessionDetail = {
  id: string;
  merchant_reference: string;
  order_number: string;
  order_id: string;
  /** Amount charged, TND. */
  amount: string;
  currency: "TND";
  original: {
    /** Requested amount at the requested currency's precision. */
    amount: string;
    currency: string;
    /** TND per unit of original.currency, six decimals. */
    rate: string;
  };
  description: string;
  items: Array<{
    name: string;
    quantity: number;
    /** Unit price, a decimal string. */
    unit_price?: string;
    description?: string;
    [key: string]: unknown;
  }>;
  status: "CREATED" | "PENDING" | "PROCESSING" | "AUTHORIZED" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | (string & {});
  livemode: boolean;
  buyer_first_name: string;
  buyer_last_name: string;
  buyer_email: string;
  buyer_phone: string;
  /** Arbitrary key/values echoed back, for example on webhooks. */
  metadata: Record<string, string>;
  return_url: string;
  cancel_url: string;
  webhook_url: string;
  max_attempts: number;
  /** Language of the hosted page: fr, en, ar (right to left), or auto for the buyer browser language, then French. */
  locale: "fr" | "en" | "ar" | "auto" | (string & {});
  /** Newest hosted-page link; omitted once the session is EXPIRED. */
  checkout_url?: string;
  expires_at: string;
  completed_at: string | null;
  created_at: string;
  attempts: Array<{
    id: string;
    attempt_number: number;
    status: "INITIATED" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "ABANDONED" | (string & {});
    /** How the attempt pays: by card, or with the Flouci wallet (D26). */
    payment_method_type: "card" | "flouci" | (string & {});
    card_brand: string;
    card_last_four: string;
    failure_code: string;
    fee_amount: string;
    net_amount: string;
    created_at: string;
  }>;
  /** Sum of accepted refunds, TND. */
  amount_refunded: string;
  /** automatic (default): the payment is captured at once; manual: it is authorized (held) until captured, canceled or lapsed. */
  capture_method: "automatic" | "manual" | (string & {});
  /** TND held or charged by the approved payment; empty until then (D22). */
  amount_authorized: string;
  /** TND captured, what refunds are capped at; empty until captured (D22). */
  amount_captured: string;
  /** The payment link the session was made through (D19); absent otherwise. */
  payment_link?: string;
  /** The customer the session is for (D24), or null. */
  customer: string | null;
  /** How the session was paid (D26): its approved attempt's method; empty until then. */
  payment_method: "" | "card" | "flouci" | (string & {});
};

export type SessionListItem = {
  id: string;
  merchant_reference: string;
  order_number: string;
  order_id: string;
  /** Amount charged, TND. */
  amount: string;
  currency: "TND";
  original: {
    /** Requested amount at the requested currency's precision. */
    amount: string;
    currency: string;
    /** TND per unit of original.currency, six decimals. */
    rate: string;
  };
  status: "CREATED" | "PENDING" | "PROCESSING" | "AUTHORIZED" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | (string & {});
  livemode: boolean;
  buyer_first_name: string;
  buyer_last_name: string;
  buyer_email: string;
  created_at: string;
  /** The payment link the session was made through (D19); absent otherwise. */
  payment_link?: string;
  /** The customer the session is for (D24), or null. */
  customer: string | null;
  /** How the session was paid (D26): its approved attempt's method; empty until then. */
  payment_method: "" | "card" | "flouci" | (string & {});
};

export type SessionList = {
  data: Array<{
    id: string;
    merchant_reference: string;
    order_number: string;
    order_id: string;
    /** Amount charged, TND. */
    amount: string;
    currency: "TND";
    original: {
      /** Requested amount at the requested currency's precision. */
      amount: string;
      currency: string;
      /** TND per unit of original.currency, six decimals. */
      rate: string;
    };
    status: "CREATED" | "PENDING" | "PROCESSING" | "AUTHORIZED" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | (string & {});
    livemode: boolean;
    buyer_first_name: string;
    buyer_last_name: string;
    buyer_email: string;
    created_at: string;
    /** The payment link the session was made through (D19); absent otherwise. */
    payment_link?: string;
    /** The customer the session is for (D24), or null. */
    customer: string | null;
    /** How the session was paid (D26): its approved attempt's method; empty until then. */
    payment_method: "" | "card" | "flouci" | (string & {});
  }>;
  has_more: boolean;
};

export type Original = {
  /** Requested amount at the requested currency's precision. */
  amount: string;
  currency: string;
  /** TND per unit of original.currency, six decimals. */
  rate: string;
};

export type Attempt = {
  id: string;
  attempt_number: number;
  status: "INITIATED" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "ABANDONED" | (string & {});
  /** How the attempt pays: by card, or with the Flouci wallet (D26). */
  payment_method_type: "card" | "flouci" | (string & {});
  card_brand: string;
  card_last_four: string;
  failure_code: string;
  fee_amount: string;
  net_amount: string;
  created_at: string;
};

export type CheckoutLink = {
  checkout_url: string;
  expires_at: string;
};

export type CaptureRequest = {
  /** TND at 3 decimals, at most amount_authorized; less releases the rest of the hold. */
  amount?: string;
};

export type RefundRequest = {
  reason: string;
  refund_type?: "FULL" | "PARTIAL" | (string & {});
  amount?: string;
  /** Arbitrary key/values echoed back, for example on webhooks. */
  metadata?: Record<string, string>;
};

export type RefundResult = {
  refund_id: string;
  /** TND */
  refunded_amount: string;
  automated_refund: boolean;
  epg_error_message?: string;
  /** Arbitrary key/values echoed back, for example on webhooks. */
  metadata: Record<string, string>;
};

export type Refund = {
  refund_id: string;
  session_id: string;
  /** TND */
  amount: string;
  currency: "TND";
  reason: string;
  /** Arbitrary key/values echoed back, for example on webhooks. */
  metadata: Record<string, string>;
  /** True when the acquirer confirmed the refund at once; false when operations staff processed or must process it. */
  automated_refund: boolean;
  status: "succeeded" | "pending" | "failed" | (string & {});
  /** While pending: why the acquirer step could not be confirmed. */
  epg_error_message?: string;
  created_at: string;
  resolved_at: string | null;
};

export type RefundList = {
  data: Array<{
    refund_id: string;
    session_id: string;
    /** TND */
    amount: string;
    currency: "TND";
    reason: string;
    /** Arbitrary key/values echoed back, for example on webhooks. */
    metadata: Record<string, string>;
    /** True when the acquirer confirmed the refund at once; false when operations staff processed or must process it. */
    automated_refund: boolean;
    status: "succeeded" | "pending" | "failed" | (string & {});
    /** While pending: why the acquirer step could not be confirmed. */
    epg_error_message?: string;
    created_at: string;
    resolved_at: string | null;
  }>;
};

export type WebhookDelivery = {
  id: string;
  /** The webhook endpoint the attempt went to (the account default has one too). */
  endpoint_id: string;
  session_id: string;
  event: string;
  event_id: string;
  url: string;
  attempt_number: number;
  status: "PENDING" | "SUCCEEDED" | "FAILED" | (string & {});
  http_status_code: number | null;
  response_time_ms: number | null;
  error_message: string;
  next_retry_at: string | null;
  created_at: string;
};

export type WebhookDeliveryList = {
  data: Array<{
    id: string;
    /** The webhook endpoint the attempt went to (the account default has one too). */
    endpoint_id: string;
    session_id: string;
    event: string;
    event_id: string;
    url: string;
    attempt_number: number;
    status: "PENDING" | "SUCCEEDED" | "FAILED" | (string & {});
    http_status_code: number | null;
    response_time_ms: number | null;
    error_message: string;
    next_retry_at: string | null;
    created_at: string;
  }>;
  has_more?: boolean;
};

export type Problem = {
  /** https://<host>/errors/<code> (D1): an identifier, https whatever the scheme the API is served on; branch on its last segment. */
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: Array<{
    field: string;
    code: string;
    message: string;
  }>;
  existing_session_id?: string;
  [key: string]: unknown;
};

export type WebhookEvent = {
  id: string;
  /** Event type, for example session.succeeded; new types may be added (INTERFACE 9.3). */
  event: string;
  created_at: string;
  data: {
    id: string;
    order_number: string;
    merchant_reference: string;
    order_id: string;
    amount: string;
    currency: string;
    description: string;
    status: "CREATED" | "PENDING" | "PROCESSING" | "AUTHORIZED" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | (string & {});
    livemode: boolean;
    buyer: {
      first_name: string;
      last_name: string;
      email: string;
      phone: string;
    };
    items: Array<{
      name: string;
      quantity: number;
      /** Unit price, a decimal string. */
      unit_price?: string;
      description?: string;
      [key: string]: unknown;
    }>;
    /** Arbitrary key/values echoed back, for example on webhooks. */
    metadata: Record<string, string>;
    original: {
      /** Requested amount at the requested currency's precision. */
      amount: string;
      currency: string;
      /** TND per unit of original.currency, six decimals. */
      rate: string;
    };
    paid_at?: string;
    /** automatic (default): the payment is captured at once; manual: it is authorized (held) until captured, canceled or lapsed. */
    capture_method?: "automatic" | "manual" | (string & {});
    authorized_at?: string;
    amount_authorized?: string;
    amount_captured?: string;
    payment?: {
      method: string;
      card_brand: string;
      card_last_four: string;
      card_country: string;
      fee_amount?: string;
      net_amount?: string;
    };
    last_failure_code?: string;
    last_failure_message?: string;
    attempts_count?: number;
    can_retry?: boolean;
    payment_link?: string;
    refund?: {
      refund_id: string;
      amount: string;
      automated_refund: boolean;
      reason: string;
      /** Arbitrary key/values echoed back, for example on webhooks. */
      metadata: Record<string, string>;
      status: "succeeded" | "pending" | "failed" | (string & {});
      created_at?: string;
      epg_error_message?: string;
    };
  };
};

export type WebhookEndpoint = {
  id: string;
  url: string;
  /** Event types the endpoint receives; ['*'] for every one. */
  enabled_events: Array<string>;
  description: string;
  status: "enabled" | "disabled" | (string & {});
  livemode: boolean;
  /** failing: every attempt failed for the configured time and the gateway disabled it; merchant: disabled through the API. */
  disabled_reason: "failing" | "merchant" | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
};

export type WebhookEndpointWithSecret = {
  id: string;
  url: string;
  /** Event types the endpoint receives; ['*'] for every one. */
  enabled_events: Array<string>;
  description: string;
  status: "enabled" | "disabled" | (string & {});
  livemode: boolean;
  /** failing: every attempt failed for the configured time and the gateway disabled it; merchant: disabled through the API. */
  disabled_reason: "failing" | "merchant" | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
  secret: string;
  /** After a rotation: until when the previous secret also signs (D11). */
  previous_secret_expires_at?: string | null;
};

export type WebhookEndpointList = {
  data: Array<{
    id: string;
    url: string;
    /** Event types the endpoint receives; ['*'] for every one. */
    enabled_events: Array<string>;
    description: string;
    status: "enabled" | "disabled" | (string & {});
    livemode: boolean;
    /** failing: every attempt failed for the configured time and the gateway disabled it; merchant: disabled through the API. */
    disabled_reason: "failing" | "merchant" | null;
    disabled_at: string | null;
    created_at: string;
    updated_at: string;
  }>;
  has_more: boolean;
};

export type WebhookEndpointDeleted = {
  id: string;
  deleted: true;
};

export type WebhookReplayResult = {
  queued: number;
  has_more: boolean;
  /** With has_more: the since of the next call. */
  next_since: string | null;
  /** With has_more: the starting_after of the next call. */
  next_starting_after: string | null;
};

export type CreateWebhookEndpointRequest = {
  /** Where events are POSTed (the D11 address rule applies). Absolute http or https (https in live mode), without a user or password. */
  url: string;
  /** Event types to receive, or ['*'] for every one: session.authorized, session.succeeded, session.failed, session.canceled, session.expired, checkout.session.expired, refund.created, refund.updated, payment_method.attached, payment_method.detached, webhook_endpoint.disabled. */
  enabled_events: Array<"*" | "session.authorized" | "session.succeeded" | "session.failed" | "session.canceled" | "session.expired" | "checkout.session.expired" | "refund.created" | "refund.updated" | "payment_method.attached" | "payment_method.detached" | "webhook_endpoint.disabled" | (string & {})>;
  description?: string;
};

export type UpdateWebhookEndpointRequest = {
  /** Where events are POSTed. Absolute http or https (https in live mode), without a user or password. */
  url?: string;
  /** Event types to receive, or ['*'] for every one: session.authorized, session.succeeded, session.failed, session.canceled, session.expired, checkout.session.expired, refund.created, refund.updated, payment_method.attached, payment_method.detached, webhook_endpoint.disabled. */
  enabled_events?: Array<"*" | "session.authorized" | "session.succeeded" | "session.failed" | "session.canceled" | "session.expired" | "checkout.session.expired" | "refund.created" | "refund.updated" | "payment_method.attached" | "payment_method.detached" | "webhook_endpoint.disabled" | (string & {})>;
  description?: string;
  /** enabled also clears a disable for failures. */
  status?: "enabled" | "disabled" | (string & {});
};

export type ReplayWebhookEndpointRequest = {
  /** RFC 3339: events created at or after it are sent again. */
  since: string;
  /** The previous answer's next_starting_after. */
  starting_after?: string;
};

export type WebhookEndpointDisabledEvent = {
  id: string;
  event: "webhook_endpoint.disabled";
  created_at: string;
  data: {
    id: string;
    url: string;
    /** Event types the endpoint receives; ['*'] for every one. */
    enabled_events: Array<string>;
    description: string;
    status: "enabled" | "disabled" | (string & {});
    livemode: boolean;
    /** failing: every attempt failed for the configured time and the gateway disabled it; merchant: disabled through the API. */
    disabled_reason: "failing" | "merchant" | null;
    disabled_at: string | null;
    created_at: string;
    updated_at: string;
  };
};

export type BalanceTransaction = {
  id: string;
  type: "payment" | "refund" | "refund_reversal" | (string & {});
  session_id: string;
  /** The session (payment) or refund (refund, refund_reversal) that moved the money. */
  source: string;
  /** TND; negative for a refund. */
  amount: string;
  /** TND; the merchant pricing on the captured amount for a payment, 0.000 otherwise. */
  fee: string;
  /** amount - fee, TND. */
  net: string;
  currency: "TND";
  created_at: string;
  /** Africa/Tunis date from which it counts as available: created date + SETTLEMENT_DELAY_DAYS. */
  available_on: string;
  livemode: boolean;
  /** How the session's payment was made: card or flouci (the Flouci wallet); a refund and its reversal name their payment's method. */
  payment_method: "card" | "flouci" | (string & {});
};

export type BalanceTransactionList = {
  data: Array<{
    id: string;
    type: "payment" | "refund" | "refund_reversal" | (string & {});
    session_id: string;
    /** The session (payment) or refund (refund, refund_reversal) that moved the money. */
    source: string;
    /** TND; negative for a refund. */
    amount: string;
    /** TND; the merchant pricing on the captured amount for a payment, 0.000 otherwise. */
    fee: string;
    /** amount - fee, TND. */
    net: string;
    currency: "TND";
    created_at: string;
    /** Africa/Tunis date from which it counts as available: created date + SETTLEMENT_DELAY_DAYS. */
    available_on: string;
    livemode: boolean;
    /** How the session's payment was made: card or flouci (the Flouci wallet); a refund and its reversal name their payment's method. */
    payment_method: "card" | "flouci" | (string & {});
  }>;
  has_more: boolean;
};

export type Balance = {
  /** Net TND whose available_on is today (Africa/Tunis) or before. */
  available: string;
  /** Net TND whose available_on is after today. */
  pending: string;
  currency: "TND";
  livemode: boolean;
};

export type DailyReportDay = {
  date: string;
  payments_count: number;
  /** Sum of the payments, TND. */
  gross: string;
  /** Sum of the payment fees, TND. */
  fees: string;
  /** Sum of the day's refunds (negative) and refund reversals (positive), TND. */
  refunds: string;
  /** Sum of every net of the day: gross - fees + refunds. */
  net: string;
};

export type DailyReport = {
  data: Array<{
    date: string;
    payments_count: number;
    /** Sum of the payments, TND. */
    gross: string;
    /** Sum of the payment fees, TND. */
    fees: string;
    /** Sum of the day's refunds (negative) and refund reversals (positive), TND. */
    refunds: string;
    /** Sum of every net of the day: gross - fees + refunds. */
    net: string;
  }>;
  livemode: boolean;
};

export type RefundPage = {
  data: Array<{
    refund_id: string;
    session_id: string;
    /** TND */
    amount: string;
    currency: "TND";
    reason: string;
    /** Arbitrary key/values echoed back, for example on webhooks. */
    metadata: Record<string, string>;
    /** True when the acquirer confirmed the refund at once; false when operations staff processed or must process it. */
    automated_refund: boolean;
    status: "succeeded" | "pending" | "failed" | (string & {});
    /** While pending: why the acquirer step could not be confirmed. */
    epg_error_message?: string;
    created_at: string;
    resolved_at: string | null;
  }>;
  has_more: boolean;
};

export type CreatePaymentLinkRequest = {
  description: string;
  /** Fixed price, a decimal string at the currency's precision; converted to TND at each payment's creation. */
  amount?: string;
  /** ISO 4217 code of the fixed price; defaults to TND. */
  currency?: string;
  /** true: the buyer types the amount (TND), within amount_min and amount_max. */
  open_amount?: boolean;
  /** Open amount: the least a buyer may pay, TND. */
  amount_min?: string;
  /** Open amount: the most a buyer may pay, TND. */
  amount_max?: string;
  items?: Array<{
    name: string;
    quantity: number;
    /** Unit price, a decimal string. */
    unit_price?: string;
    description?: string;
    [key: string]: unknown;
  }>;
  /** Arbitrary key/values echoed back, for example on webhooks. */
  metadata?: Record<string, string>;
  /** Buyer redirect after a payment made through the link. Absolute http or https (https in live mode), without a user or password. */
  return_url?: string;
  /** Language of the hosted page: fr, en, ar (right to left), or auto for the buyer browser language, then French. */
  locale?: "fr" | "en" | "ar" | "auto" | (string & {});
  /** Whether the link page asks the buyer for a phone number. */
  collect_phone?: boolean;
  /** Succeeded payments after which the link closes; 1 is a single-use link. */
  max_payments?: number;
  /** When the link stops taking payments. */
  expires_at?: string;
};

export type PaymentLink = {
  id: string;
  /** The public page: {PUBLIC_BASE_URL}/pay/<code>. */
  url: string;
  /** An SVG QR code of url (url + /qr.svg; /qr.png for a PNG). */
  qr_svg_url: string;
  /** false once deactivated, expired or fully used. */
  active: boolean;
  /** Succeeded sessions made through the link. */
  payments_count: number;
  description: string;
  amount: string | null;
  currency: string;
  open_amount: boolean;
  amount_min: string | null;
  amount_max: string | null;
  items: Array<{
    name: string;
    quantity: number;
    /** Unit price, a decimal string. */
    unit_price?: string;
    description?: string;
    [key: string]: unknown;
  }>;
  /** Arbitrary key/values echoed back, for example on webhooks. */
  metadata: Record<string, string>;
  return_url: string;
  /** Language of the hosted page: fr, en, ar (right to left), or auto for the buyer browser language, then French. */
  locale: "fr" | "en" | "ar" | "auto" | (string & {});
  collect_phone: boolean;
  max_payments: number | null;
  expires_at: string | null;
  livemode: boolean;
  created_at: string;
};

export type PaymentLinkList = {
  data: Array<{
    id: string;
    /** The public page: {PUBLIC_BASE_URL}/pay/<code>. */
    url: string;
    /** An SVG QR code of url (url + /qr.svg; /qr.png for a PNG). */
    qr_svg_url: string;
    /** false once deactivated, expired or fully used. */
    active: boolean;
    /** Succeeded sessions made through the link. */
    payments_count: number;
    description: string;
    amount: string | null;
    currency: string;
    open_amount: boolean;
    amount_min: string | null;
    amount_max: string | null;
    items: Array<{
      name: string;
      quantity: number;
      /** Unit price, a decimal string. */
      unit_price?: string;
      description?: string;
      [key: string]: unknown;
    }>;
    /** Arbitrary key/values echoed back, for example on webhooks. */
    metadata: Record<string, string>;
    return_url: string;
    /** Language of the hosted page: fr, en, ar (right to left), or auto for the buyer browser language, then French. */
    locale: "fr" | "en" | "ar" | "auto" | (string & {});
    collect_phone: boolean;
    max_payments: number | null;
    expires_at: string | null;
    livemode: boolean;
    created_at: string;
  }>;
  has_more: boolean;
};

export type CreateCustomerRequest = {
  email?: string;
  name?: string;
  phone?: string;
  /** Arbitrary key/values echoed back, for example on webhooks. */
  metadata?: Record<string, string>;
  /** The merchant's own id of the customer: a create with one the account already has answers 200 with that customer. */
  external_id?: string;
};

export type Customer = {
  id: string;
  external_id: string | null;
  email: string | null;
  name: string | null;
  phone: string | null;
  /** Arbitrary key/values echoed back, for example on webhooks. */
  metadata: Record<string, string>;
  livemode: boolean;
  created_at: string;
  payment_methods: Array<{
    id: string;
    customer: string;
    type: "card";
    card_brand: string;
    card_last_four: string;
    exp_month: number;
    exp_year: number;
    /** on_session: the buyer pays with it on the hosted page, by its security code; off_session: the merchant may also charge it without the buyer. */
    usage: "on_session" | "off_session" | (string & {});
    created_at: string;
  }>;
};

export type CustomerList = {
  data: Array<{
    id: string;
    external_id: string | null;
    email: string | null;
    name: string | null;
    phone: string | null;
    /** Arbitrary key/values echoed back, for example on webhooks. */
    metadata: Record<string, string>;
    livemode: boolean;
    created_at: string;
    payment_methods: Array<{
      id: string;
      customer: string;
      type: "card";
      card_brand: string;
      card_last_four: string;
      exp_month: number;
      exp_year: number;
      /** on_session: the buyer pays with it on the hosted page, by its security code; off_session: the merchant may also charge it without the buyer. */
      usage: "on_session" | "off_session" | (string & {});
      created_at: string;
    }>;
  }>;
  has_more: boolean;
};

export type PaymentMethod = {
  id: string;
  customer: string;
  type: "card";
  card_brand: string;
  card_last_four: string;
  exp_month: number;
  exp_year: number;
  /** on_session: the buyer pays with it on the hosted page, by its security code; off_session: the merchant may also charge it without the buyer. */
  usage: "on_session" | "off_session" | (string & {});
  created_at: string;
};

export type PaymentMethodList = {
  data: Array<{
    id: string;
    customer: string;
    type: "card";
    card_brand: string;
    card_last_four: string;
    exp_month: number;
    exp_year: number;
    /** on_session: the buyer pays with it on the hosted page, by its security code; off_session: the merchant may also charge it without the buyer. */
    usage: "on_session" | "off_session" | (string & {});
    created_at: string;
  }>;
  has_more: boolean;
};

export type Deleted = {
  id: string;
  deleted: true;
};

export type PaymentMethodWebhookEvent = {
  id: string;
  event: "payment_method.attached" | "payment_method.detached" | (string & {});
  created_at: string;
  data: {
    id: string;
    customer: string;
    type: "card";
    card_brand: string;
    card_last_four: string;
    exp_month: number;
    exp_year: number;
    /** on_session: the buyer pays with it on the hosted page, by its security code; off_session: the merchant may also charge it without the buyer. */
    usage: "on_session" | "off_session" | (string & {});
    created_at: string;
    livemode: boolean;
  };
};

/** Every operation of the API: its method, path template and parameter names. */
export const operations = {
  streamEvents: { method: 'GET', path: '/gateway/events/stream/', pathParams: [], query: [], stream: 'events' },
  createSession: { method: 'POST', path: '/gateway/sessions/', pathParams: [], query: [], stream: false },
  getSession: { method: 'GET', path: '/gateway/sessions/{session_id}/', pathParams: ['session_id'], query: [], stream: false },
  cancelSession: { method: 'POST', path: '/gateway/sessions/{session_id}/cancel/', pathParams: ['session_id'], query: [], stream: false },
  issueCheckoutLink: { method: 'POST', path: '/gateway/sessions/{session_id}/checkout/', pathParams: ['session_id'], query: [], stream: false },
  captureSession: { method: 'POST', path: '/gateway/sessions/{session_id}/capture/', pathParams: ['session_id'], query: [], stream: false },
  refundSession: { method: 'POST', path: '/gateway/sessions/{session_id}/refund/', pathParams: ['session_id'], query: [], stream: false },
  listSessionRefunds: { method: 'GET', path: '/gateway/sessions/{session_id}/refunds/', pathParams: ['session_id'], query: [], stream: false },
  getRefund: { method: 'GET', path: '/gateway/refunds/{refund_id}/', pathParams: ['refund_id'], query: [], stream: false },
  listSessions: { method: 'GET', path: '/gateway/sessions/list/', pathParams: [], query: ['limit', 'starting_after', 'ending_before', 'status', 'created[gte]', 'created[lte]', 'merchant_reference'], stream: false },
  listRefunds: { method: 'GET', path: '/gateway/refunds/', pathParams: [], query: ['limit', 'starting_after', 'ending_before', 'status', 'session_id', 'created[gte]', 'created[lte]'], stream: false },
  listBalanceTransactions: { method: 'GET', path: '/gateway/balance_transactions/', pathParams: [], query: ['limit', 'starting_after', 'ending_before', 'type', 'session_id', 'created[gte]', 'created[lte]'], stream: false },
  getBalance: { method: 'GET', path: '/gateway/balance/', pathParams: [], query: [], stream: false },
  getDailyReport: { method: 'GET', path: '/gateway/reports/daily/', pathParams: [], query: ['from', 'to'], stream: false },
  exportSessions: { method: 'GET', path: '/gateway/exports/sessions.csv', pathParams: [], query: ['status', 'created[gte]', 'created[lte]', 'merchant_reference'], stream: 'csv' },
  exportRefunds: { method: 'GET', path: '/gateway/exports/refunds.csv', pathParams: [], query: ['status', 'session_id', 'created[gte]', 'created[lte]'], stream: 'csv' },
  exportBalanceTransactions: { method: 'GET', path: '/gateway/exports/balance_transactions.csv', pathParams: [], query: ['type', 'session_id', 'created[gte]', 'created[lte]'], stream: 'csv' },
  listSessionWebhooks: { method: 'GET', path: '/gateway/sessions/{session_id}/webhooks/', pathParams: ['session_id'], query: ['limit', 'starting_after', 'ending_before'], stream: false },
  listWebhooks: { method: 'GET', path: '/gateway/webhooks/', pathParams: [], query: ['limit', 'starting_after', 'ending_before', 'status'], stream: false },
  createPaymentLink: { method: 'POST', path: '/gateway/payment_links/', pathParams: [], query: [], stream: false },
  listPaymentLinks: { method: 'GET', path: '/gateway/payment_links/', pathParams: [], query: ['limit', 'starting_after', 'ending_before'], stream: false },
  getPaymentLink: { method: 'GET', path: '/gateway/payment_links/{payment_link_id}/', pathParams: ['payment_link_id'], query: [], stream: false },
  deactivatePaymentLink: { method: 'POST', path: '/gateway/payment_links/{payment_link_id}/deactivate/', pathParams: ['payment_link_id'], query: [], stream: false },
  createCustomer: { method: 'POST', path: '/gateway/customers/', pathParams: [], query: [], stream: false },
  listCustomers: { method: 'GET', path: '/gateway/customers/', pathParams: [], query: ['limit', 'starting_after', 'ending_before', 'email', 'external_id'], stream: false },
  getCustomer: { method: 'GET', path: '/gateway/customers/{customer_id}/', pathParams: ['customer_id'], query: [], stream: false },
  deleteCustomer: { method: 'DELETE', path: '/gateway/customers/{customer_id}/', pathParams: ['customer_id'], query: [], stream: false },
  listPaymentMethods: { method: 'GET', path: '/gateway/customers/{customer_id}/payment_methods/', pathParams: ['customer_id'], query: [], stream: false },
  deletePaymentMethod: { method: 'DELETE', path: '/gateway/customers/{customer_id}/payment_methods/{payment_method_id}/', pathParams: ['customer_id', 'payment_method_id'], query: [], stream: false },
  createWebhookEndpoint: { method: 'POST', path: '/gateway/webhook_endpoints/', pathParams: [], query: [], stream: false },
  listWebhookEndpoints: { method: 'GET', path: '/gateway/webhook_endpoints/', pathParams: [], query: [], stream: false },
  getWebhookEndpoint: { method: 'GET', path: '/gateway/webhook_endpoints/{endpoint_id}/', pathParams: ['endpoint_id'], query: [], stream: false },
  updateWebhookEndpoint: { method: 'PATCH', path: '/gateway/webhook_endpoints/{endpoint_id}/', pathParams: ['endpoint_id'], query: [], stream: false },
  deleteWebhookEndpoint: { method: 'DELETE', path: '/gateway/webhook_endpoints/{endpoint_id}/', pathParams: ['endpoint_id'], query: [], stream: false },
  rotateWebhookEndpointSecret: { method: 'POST', path: '/gateway/webhook_endpoints/{endpoint_id}/rotate_secret/', pathParams: ['endpoint_id'], query: [], stream: false },
  replayWebhookEndpoint: { method: 'POST', path: '/gateway/webhook_endpoints/{endpoint_id}/replay/', pathParams: ['endpoint_id'], query: [], stream: false },
} as const;

/** Every operation's path parameters, query, request body and success body. */
export interface Operations {
  /** Test keys only: the merchant's test-mode events as server-sent events, as they happen (`gateway listen`). */
  streamEvents: { pathParams: Record<string, never>; query: Record<string, never>; body: never; response: ReadableStream<Uint8Array> };
  /** Create a session (idempotent on merchant_reference). */
  createSession: { pathParams: Record<string, never>; query: Record<string, never>; body: CreateSessionRequest; response: SessionDetail };
  getSession: { pathParams: { session_id: string }; query: Record<string, never>; body: never; response: SessionDetail };
  /** Cancel a CREATED, PENDING or AUTHORIZED session; an AUTHORIZED session's hold is released (D22). */
  cancelSession: { pathParams: { session_id: string }; query: Record<string, never>; body: never; response: SessionDetail };
  issueCheckoutLink: { pathParams: { session_id: string }; query: Record<string, never>; body: never; response: CheckoutLink };
  /** Capture an AUTHORIZED session's hold, all of it (no body) or amount of it, the rest released; once per session (D22). Counts against the refund rate budget. */
  captureSession: { pathParams: { session_id: string }; query: Record<string, never>; body: CaptureRequest | undefined; response: SessionDetail };
  /** Refund a SUCCEEDED session, fully or partly, up to its captured amount. */
  refundSession: { pathParams: { session_id: string }; query: Record<string, never>; body: RefundRequest; response: RefundResult };
  listSessionRefunds: { pathParams: { session_id: string }; query: Record<string, never>; body: never; response: RefundList };
  getRefund: { pathParams: { refund_id: string }; query: Record<string, never>; body: never; response: Refund };
  listSessions: { pathParams: Record<string, never>; query: { limit?: number; starting_after?: string; ending_before?: string; status?: "CREATED" | "PENDING" | "PROCESSING" | "AUTHORIZED" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | (string & {}); "created[gte]"?: string; "created[lte]"?: string; merchant_reference?: string }; body: never; response: SessionList };
  /** Every refund of the account in this mode, newest first (D21). */
  listRefunds: { pathParams: Record<string, never>; query: { limit?: number; starting_after?: string; ending_before?: string; status?: "succeeded" | "pending" | "failed" | (string & {}); session_id?: string; "created[gte]"?: string; "created[lte]"?: string }; body: never; response: RefundPage };
  /** Every money movement of the account in this mode (payments with their fees, refunds, refunds given back), newest first (D21). */
  listBalanceTransactions: { pathParams: Record<string, never>; query: { limit?: number; starting_after?: string; ending_before?: string; type?: "payment" | "refund" | "refund_reversal" | (string & {}); session_id?: string; "created[gte]"?: string; "created[lte]"?: string }; body: never; response: BalanceTransactionList };
  /** The net of every balance transaction, available (available_on today or before, Africa/Tunis) and pending (D21). */
  getBalance: { pathParams: Record<string, never>; query: Record<string, never>; body: never; response: Balance };
  /** One row per Africa/Tunis day from `from` to `to`, both included, every day present: the sums of that day's balance transactions (D21). */
  getDailyReport: { pathParams: Record<string, never>; query: { from: string; to: string }; body: never; response: DailyReport };
  /** Every session matching the list's filters, as CSV (D21). */
  exportSessions: { pathParams: Record<string, never>; query: { status?: "CREATED" | "PENDING" | "PROCESSING" | "AUTHORIZED" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED" | (string & {}); "created[gte]"?: string; "created[lte]"?: string; merchant_reference?: string }; body: never; response: ReadableStream<Uint8Array> };
  /** Every refund matching the list's filters, as CSV (D21). */
  exportRefunds: { pathParams: Record<string, never>; query: { status?: "succeeded" | "pending" | "failed" | (string & {}); session_id?: string; "created[gte]"?: string; "created[lte]"?: string }; body: never; response: ReadableStream<Uint8Array> };
  /** Every balance transaction matching the list's filters, as CSV (D21). */
  exportBalanceTransactions: { pathParams: Record<string, never>; query: { type?: "payment" | "refund" | "refund_reversal" | (string & {}); session_id?: string; "created[gte]"?: string; "created[lte]"?: string }; body: never; response: ReadableStream<Uint8Array> };
  listSessionWebhooks: { pathParams: { session_id: string }; query: { limit?: number; starting_after?: string; ending_before?: string }; body: never; response: WebhookDeliveryList };
  listWebhooks: { pathParams: Record<string, never>; query: { limit?: number; starting_after?: string; ending_before?: string; status?: "PENDING" | "SUCCEEDED" | "FAILED" | (string & {}) }; body: never; response: WebhookDeliveryList };
  /** Create a payment link (D19): a public page at url where buyers pay a fixed price or an amount they type; each payment is a session. Counts against the create rate budget. */
  createPaymentLink: { pathParams: Record<string, never>; query: Record<string, never>; body: CreatePaymentLinkRequest; response: PaymentLink };
  listPaymentLinks: { pathParams: Record<string, never>; query: { limit?: number; starting_after?: string; ending_before?: string }; body: never; response: PaymentLinkList };
  getPaymentLink: { pathParams: { payment_link_id: string }; query: Record<string, never>; body: never; response: PaymentLink };
  /** The link takes no more payments: its page answers 410, its open sessions are canceled (session.canceled), and its sessions take no more cards; a payment already under way finishes. */
  deactivatePaymentLink: { pathParams: { payment_link_id: string }; query: Record<string, never>; body: never; response: PaymentLink };
  /** Create a customer (D24): someone who pays the merchant again, whose cards may be saved. Idempotent on external_id (the merchant's own id of the customer). Counts against the create rate budget. */
  createCustomer: { pathParams: Record<string, never>; query: Record<string, never>; body: CreateCustomerRequest; response: Customer };
  listCustomers: { pathParams: Record<string, never>; query: { limit?: number; starting_after?: string; ending_before?: string; email?: string; external_id?: string }; body: never; response: CustomerList };
  getCustomer: { pathParams: { customer_id: string }; query: Record<string, never>; body: never; response: Customer };
  /** Delete a customer: its saved cards are removed at the acquirer and can never be charged again; its sessions stay. */
  deleteCustomer: { pathParams: { customer_id: string }; query: Record<string, never>; body: never; response: Deleted };
  listPaymentMethods: { pathParams: { customer_id: string }; query: Record<string, never>; body: never; response: PaymentMethodList };
  /** Remove a saved card: removed at the acquirer, it can never be charged again. */
  deletePaymentMethod: { pathParams: { customer_id: string; payment_method_id: string }; query: Record<string, never>; body: never; response: Deleted };
  /** Add a webhook endpoint; its secret is in this answer only (and its replay under the same Idempotency-Key). */
  createWebhookEndpoint: { pathParams: Record<string, never>; query: Record<string, never>; body: CreateWebhookEndpointRequest; response: WebhookEndpointWithSecret };
  listWebhookEndpoints: { pathParams: Record<string, never>; query: Record<string, never>; body: never; response: WebhookEndpointList };
  getWebhookEndpoint: { pathParams: { endpoint_id: string }; query: Record<string, never>; body: never; response: WebhookEndpoint };
  updateWebhookEndpoint: { pathParams: { endpoint_id: string }; query: Record<string, never>; body: UpdateWebhookEndpointRequest; response: WebhookEndpoint };
  deleteWebhookEndpoint: { pathParams: { endpoint_id: string }; query: Record<string, never>; body: never; response: WebhookEndpointDeleted };
  /** A new secret; the previous one also signs (second v1 entry) for 24 hours (D11). */
  rotateWebhookEndpointSecret: { pathParams: { endpoint_id: string }; query: Record<string, never>; body: never; response: WebhookEndpointWithSecret };
  /** Send again the events the endpoint wants, created since a time: one page per call (refund rate budget). */
  replayWebhookEndpoint: { pathParams: { endpoint_id: string }; query: Record<string, never>; body: ReplayWebhookEndpointRequest; response: WebhookReplayResult };
}

export type OperationId = keyof Operations;

/** Every webhook event type the gateway sends today (the document's webhooks). */
export const webhookEventTypes = ["session.authorized", "session.succeeded", "session.failed", "session.canceled", "session.expired", "checkout.session.expired", "refund.created", "refund.updated", "payment_method.attached", "payment_method.detached", "webhook_endpoint.disabled"] as const;

/** An event type: one of webhookEventTypes, or one added later in v1 (INTERFACE 9.3), so keep a default branch. */
export type WebhookEventType = (typeof webhookEventTypes)[number] | (string & {});
