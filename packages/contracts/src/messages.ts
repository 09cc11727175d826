/**
 * Every message that crosses the broker, defined once: commands (with their
 * replies) and events, each with a JSON Schema that both ends validate.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  CheckoutLink,
  Item,
  Locale,
  Metadata,
  Original,
  Refund,
  RefundList,
  RefundResult,
  RefundStatus,
  SessionDetail,
  SessionList,
  SessionStatus,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointDeleted,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
  WebhookReplayResult,
} from './api.js';

const DateTime = Type.String({ format: 'date-time' });
const MerchantId = Type.String({ pattern: '^mer_[0-9A-Za-z]{20,}$' });
export const Mode = Type.Union([Type.Literal('test'), Type.Literal('live')]);
export type Mode = Static<typeof Mode>;

/** The versioned envelope of every message (STYLE habit 3). */
export const Envelope = Type.Object({
  id: Type.String({ minLength: 1 }),
  type: Type.String({ minLength: 1 }),
  version: Type.Integer({ minimum: 1 }),
  occurred_at: DateTime,
  correlation_id: Type.String({ minLength: 1 }),
  data: Type.Unknown(),
});
export interface Envelope<T = unknown> {
  id: string;
  type: string;
  version: number;
  occurred_at: string;
  correlation_id: string;
  data: T;
}

/** Who is calling, as the gateway established it from the API key. */
export const ApiContext = Type.Object({
  merchant_id: MerchantId,
  livemode: Type.Boolean(),
  order_prefix: Type.String({ pattern: '^[A-Z0-9]{1,3}$' }),
  /** The merchant's name, as the hosted page shows it. */
  merchant_name: Type.String(),
  request_id: Type.String(),
  /** The request's Idempotency-Key, for services whose effects must survive a lost answer (a refund). */
  idempotency_key: Type.Optional(Type.String()),
});
export type ApiContext = Static<typeof ApiContext>;

const SessionRef = Type.Object({ context: ApiContext, session_id: Type.String() });
const EndpointRef = Type.Object({ context: ApiContext, endpoint_id: Type.String() });

/** A buyer on the hosted page, holding a verified link of this session. */
const LinkRef = Type.Object({ session_id: Type.String(), link_id: Type.String() });

/** What the hosted page needs to know of a session (from the session service). */
export const CheckoutView = Type.Object({
  session_id: Type.String(),
  status: SessionStatus,
  merchant_name: Type.String(),
  livemode: Type.Boolean(),
  order_number: Type.String(),
  amount: Type.String(),
  original: Original,
  description: Type.String(),
  items: Type.Array(Item),
  return_url: Type.String(),
  cancel_url: Type.String(),
  max_attempts: Type.Integer(),
  attempts_count: Type.Integer(),
  last_failure_code: Type.String(),
  last_failure_message: Type.String(),
  locale: Locale,
});
export type CheckoutView = Static<typeof CheckoutView>;

/** The language of the hosted page the buyer paid on (D18); the acquirer's own pages (3-D Secure) follow it. */
export const PageLanguage = Type.Union([Type.Literal('fr'), Type.Literal('en'), Type.Literal('ar')]);
export type PageLanguage = Static<typeof PageLanguage>;

/** An attempt the session service has just started (CREATED/PENDING → PROCESSING). */
export const StartedAttempt = Type.Object({
  attempt_id: Type.String({ pattern: '^pa_' }),
  attempt_number: Type.Integer({ minimum: 1 }),
  session_id: Type.String(),
  merchant_id: MerchantId,
  livemode: Type.Boolean(),
  order_number: Type.String(),
  amount: Type.String(),
  description: Type.String(),
});
export type StartedAttempt = Static<typeof StartedAttempt>;

const PaymentRef = {
  attempt_id: Type.String({ pattern: '^pa_' }),
  session_id: Type.String(),
  merchant_id: MerchantId,
  livemode: Type.Boolean(),
  card_brand: Type.String(),
  card_last_four: Type.String(),
};

/** An approved payment, as payment.approved announces it. */
export const PaymentApproved = Type.Object({
  ...PaymentRef,
  /** What was captured (TND): the refundable total. */
  amount: Type.String(),
  card_country: Type.String(),
  fee_amount: Type.String(),
  net_amount: Type.String(),
  paid_at: DateTime,
});

/** A declined payment, as payment.declined announces it. */
export const PaymentDeclined = Type.Object({ ...PaymentRef, failure_code: Type.String(), failure_message: Type.String() });

/** The answer to a payment step, as the hosted page acts on it. */
export const PaymentStep = Type.Object({
  outcome: Type.Union([Type.Literal('approved'), Type.Literal('declined'), Type.Literal('challenge'), Type.Literal('pending')]),
  /**
   * From the adapter, the outcome it has just committed (and announced): the
   * session records it at once instead of waiting for the event.
   */
  approved: Type.Optional(PaymentApproved),
  declined: Type.Optional(PaymentDeclined),
  failure_code: Type.Optional(Type.String()),
  failure_message: Type.Optional(Type.String()),
  /** Present with outcome challenge: where the buyer authenticates (3-D Secure). */
  challenge: Type.Optional(Type.Object({ acs_url: Type.String(), pa_req: Type.String(), term_url: Type.String() })),
});
export type PaymentStep = Static<typeof PaymentStep>;

/**
 * A payment step as the hosted page gets it from the session service: the
 * adapter's answer and, when the session recorded its outcome with it, the
 * session as it now stands, so the page can answer without looking again.
 */
export const CheckoutStep = Type.Object({ ...PaymentStep.properties, session: Type.Optional(CheckoutView) });
export type CheckoutStep = Static<typeof CheckoutStep>;

export const TerminalStatus = Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('missing'), Type.Literal('rejected')]);
export type TerminalStatus = Static<typeof TerminalStatus>;

const DecimalString = Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$' });

/** A refund the acquirer could not confirm, waiting for an operator (D10). */
export const ManualRefund = Type.Object({
  refund_id: Type.String(),
  session_id: Type.String(),
  merchant_id: MerchantId,
  livemode: Type.Boolean(),
  amount: DecimalString,
  reason: Type.String(),
  epg_error_message: Type.String(),
  created_at: DateTime,
});
export type ManualRefund = Static<typeof ManualRefund>;

/**
 * One entry of the audit log (D14, D15, D17): who did what to which merchant,
 * with what outcome, never a secret. Operators are the only actors today; the
 * dashboard and the operations console add theirs.
 */
export const AuditEntry = Type.Object({
  audit_id: Type.String(),
  /** `operator`: gateway-admin or the operations console; `user`: a merchant's user in the dashboard (D14, D15). */
  actor_type: Type.Union([Type.Literal('operator'), Type.Literal('user')]),
  /** The verified operator (the signature's subject), or the dashboard user (usr_...) or console operator (opr_...) the door signed for. */
  actor_id: Type.String(),
  /** The person's sign-in email, when the door knows one. */
  actor_email: Type.Union([Type.String(), Type.Null()]),
  /** The address the person acted from (dashboard and console), as the door saw it. */
  address: Type.Union([Type.String(), Type.Null()]),
  /** The key the operator signed with; null for actors who sign nothing. */
  actor_key_id: Type.Union([Type.String(), Type.Null()]),
  /** The command type. */
  action: Type.String(),
  merchant_id: Type.Union([MerchantId, Type.Null()]),
  /** What the action was on, within the merchant (a key, a refund, a delivery), when not the merchant itself. */
  target: Type.Union([Type.String(), Type.Null()]),
  /** `succeeded`, or the code of the problem it was refused with. */
  outcome: Type.String(),
  /** The command's data, secrets left out. */
  detail: Type.Record(Type.String(), Type.Unknown()),
  /** The service that ran the command. */
  service: Type.String(),
  correlation_id: Type.String(),
  at: DateTime,
});
export type AuditEntry = Static<typeof AuditEntry>;

/** The longest 3-D Secure answer (PaRes) passed on: signed XML, compressed and base64-encoded, it can run to tens of KiB. */
const PA_RES_MAX_LENGTH = 48 * 1024;

// ---------------------------------------------------------------- the session in events

/** The session as merchants receive it in webhooks (INTERFACE 6.2, D11 adds livemode). */
export const SessionEventPayload = Type.Object({
  id: Type.String(),
  order_number: Type.String(),
  merchant_reference: Type.String(),
  order_id: Type.String(),
  amount: Type.String(),
  currency: Type.String(),
  description: Type.String(),
  status: SessionStatus,
  livemode: Type.Boolean(),
  buyer: Type.Object({ first_name: Type.String(), last_name: Type.String(), email: Type.String(), phone: Type.String() }),
  items: Type.Array(Item),
  metadata: Metadata,
  original: Original,
  paid_at: Type.Optional(DateTime),
  payment: Type.Optional(
    Type.Object({
      method: Type.String(),
      card_brand: Type.String(),
      card_last_four: Type.String(),
      card_country: Type.String(),
      fee_amount: Type.String(),
      net_amount: Type.String(),
    }),
  ),
  last_failure_code: Type.Optional(Type.String()),
  last_failure_message: Type.Optional(Type.String()),
  attempts_count: Type.Optional(Type.Integer()),
  can_retry: Type.Optional(Type.Boolean()),
  /** refund.created and refund.updated: the refund (D10, D16). */
  refund: Type.Optional(
    Type.Object({
      refund_id: Type.String(),
      amount: Type.String(),
      automated_refund: Type.Boolean(),
      reason: Type.String(),
      metadata: Metadata,
      status: RefundStatus,
      epg_error_message: Type.Optional(Type.String()),
    }),
  ),
});
export type SessionEventPayload = Static<typeof SessionEventPayload>;

/** Data of every session.* event: who it belongs to, and the webhook payload. */
export const SessionEventData = Type.Object({
  merchant_id: MerchantId,
  webhook_url: Type.String(),
  session: SessionEventPayload,
});
export type SessionEventData = Static<typeof SessionEventData>;

// ---------------------------------------------------------------- commands

interface CommandContract {
  /** The service whose command queue receives it. */
  readonly service: ServiceName;
  readonly request: TSchema;
  /** Schema of the reply body when the command succeeds. */
  readonly reply: TSchema;
  /**
   * Sent by an operator (gateway-admin, D13): the service runs it only when it
   * carries a valid operator signature (D17), and records it in the audit log.
   */
  readonly operator?: true;
  /**
   * An operator command that only reads and shows no secret (a list, one
   * merchant's settings): the audit log keeps only its refusals, so that the
   * changes it is for are not lost among page views. Reveals are not reads.
   */
  readonly readOnly?: true;
}

const MerchantRef = Type.Object({ merchant_id: MerchantId });

/** What a dashboard user may do (D14): owner everything and the team; developer keys, webhooks, rates, payments, refunds; viewer reads. */
export const DashboardRole = Type.Union([Type.Literal('owner'), Type.Literal('developer'), Type.Literal('viewer')]);
export type DashboardRole = Static<typeof DashboardRole>;

export const MerchantSummary = Type.Object({
  merchant_id: MerchantId,
  name: Type.String(),
  order_prefix: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
  kyb_approved_at: Type.Union([DateTime, Type.Null()]),
  created_at: DateTime,
});
export type MerchantSummary = Static<typeof MerchantSummary>;

/** A merchant with the budgets in force per mode (D12): defaults where no override is set. */
export const MerchantDetail = Type.Object({
  ...MerchantSummary.properties,
  limits: Type.Object({
    test: Type.Object({ account: Type.Integer(), create: Type.Integer(), refund: Type.Integer() }),
    live: Type.Object({ account: Type.Integer(), create: Type.Integer(), refund: Type.Integer() }),
  }),
});
export type MerchantDetail = Static<typeof MerchantDetail>;

/** An API key as lists show it: never its secret, only its last four characters. */
export const ApiKeySummary = Type.Object({
  key_id: Type.String(),
  mode: Mode,
  last_four: Type.String(),
  created_at: DateTime,
  /** When it stopped or stops working: revoked now, or at the end of a rotation's grace. */
  revoked_at: Type.Union([DateTime, Type.Null()]),
  /** A test key stored encrypted (D17), which "Reveal" can show. */
  revealable: Type.Boolean(),
});
export type ApiKeySummary = Static<typeof ApiKeySummary>;

/** One delivery attempt as the dashboard shows it: the list fields, the body that was sent, what came back. */
export const WebhookAttemptDetail = Type.Object({
  ...WebhookDelivery.properties,
  /** The exact JSON body that was (or will be) signed and sent. */
  payload: Type.String(),
  /** The start of the merchant's answer, as received (untrusted text). */
  response_body: Type.Union([Type.String(), Type.Null()]),
});
export type WebhookAttemptDetail = Static<typeof WebhookAttemptDetail>;
const Secret = (prefix: string) => Type.String({ pattern: `^${prefix}` });

/** `<schema>.secrets.rewrap`: one service's data keys, re-wrapped; how many it has and how many were under another KEK. */
const SecretsRewrap = <S extends ServiceName>(service: S) =>
  ({
    operator: true,
    service,
    request: Type.Object({}),
    reply: Type.Object({ data_keys: Type.Integer({ minimum: 0 }), rewrapped: Type.Integer({ minimum: 0 }) }),
  }) as const;

export const commands = {
  // API calls, sent by the gateway
  'session.create': { service: 'session', request: Type.Object({ context: ApiContext, body: Type.Unknown() }), reply: SessionDetail },
  'session.get': { service: 'session', request: SessionRef, reply: SessionDetail },
  /** A session and the payload its events carry, built by the session service alone: the refund's events carry it as is. */
  'session.get_for_event': { service: 'session', request: SessionRef, reply: Type.Object({ session: SessionDetail, event: SessionEventPayload }) },
  'session.list': { service: 'session', request: Type.Object({ context: ApiContext, query: Type.Record(Type.String(), Type.Unknown()) }), reply: SessionList },
  'session.cancel': { service: 'session', request: SessionRef, reply: SessionDetail },
  'session.issue_checkout': { service: 'session', request: SessionRef, reply: CheckoutLink },
  'webhook.list_session': {
    service: 'webhook-dispatcher',
    request: Type.Object({ context: ApiContext, session_id: Type.String(), query: Type.Record(Type.String(), Type.Unknown()) }),
    reply: WebhookDeliveryList,
  },
  'webhook.list': { service: 'webhook-dispatcher', request: Type.Object({ context: ApiContext, query: Type.Record(Type.String(), Type.Unknown()) }), reply: WebhookDeliveryList },
  // webhook endpoints the merchant manages (issue 19); bodies are checked by the dispatcher, field by field (D6)
  'webhook_endpoint.create': { service: 'webhook-dispatcher', request: Type.Object({ context: ApiContext, body: Type.Unknown() }), reply: WebhookEndpointWithSecret },
  'webhook_endpoint.list': { service: 'webhook-dispatcher', request: Type.Object({ context: ApiContext }), reply: WebhookEndpointList },
  'webhook_endpoint.get': { service: 'webhook-dispatcher', request: EndpointRef, reply: WebhookEndpoint },
  'webhook_endpoint.update': { service: 'webhook-dispatcher', request: Type.Object({ ...EndpointRef.properties, body: Type.Unknown() }), reply: WebhookEndpoint },
  'webhook_endpoint.delete': { service: 'webhook-dispatcher', request: EndpointRef, reply: WebhookEndpointDeleted },
  'webhook_endpoint.roll_secret': { service: 'webhook-dispatcher', request: EndpointRef, reply: WebhookEndpointWithSecret },
  'webhook_endpoint.replay': { service: 'webhook-dispatcher', request: Type.Object({ ...EndpointRef.properties, body: Type.Unknown() }), reply: WebhookReplayResult },

  // the hosted page, sent by checkout
  'checkout.view': { service: 'session', request: LinkRef, reply: CheckoutView },
  'checkout.cancel': { service: 'session', request: LinkRef, reply: CheckoutView },
  'attempt.pay': {
    service: 'session',
    request: Type.Object({
      session_id: Type.String(),
      link_id: Type.String(),
      /** Chosen by checkout, because the card is sealed for this attempt. */
      attempt_id: Type.String({ pattern: '^pa_[0-9A-Za-z]{20,}$' }),
      card: Type.String({ minLength: 1, maxLength: 4096 }),
      term_url: Type.String(),
      language: PageLanguage,
    }),
    reply: CheckoutStep,
  },
  'attempt.finish_3ds': {
    service: 'session',
    request: Type.Object({ session_id: Type.String(), link_id: Type.String(), attempt_id: Type.String(), pa_res: Type.String({ minLength: 1, maxLength: PA_RES_MAX_LENGTH }) }),
    reply: CheckoutStep,
  },
  'payment.authorize': {
    service: 'acquirer-adapter',
    request: Type.Object({
      attempt: StartedAttempt,
      /** The card, encrypted for the adapter alone (compact JWE). */
      card: Type.String({ minLength: 1, maxLength: 4096 }),
      /** Where the bank sends the buyer back after 3-D Secure. */
      term_url: Type.String(),
      /** The page's language, for the acquirer's pages; French, the acquirer's own default, when absent. */
      language: Type.Optional(PageLanguage),
    }),
    reply: PaymentStep,
  },
  'payment.finish_3ds': {
    service: 'acquirer-adapter',
    request: Type.Object({ session_id: Type.String(), attempt_id: Type.String(), pa_res: Type.String({ minLength: 1, maxLength: PA_RES_MAX_LENGTH }) }),
    reply: PaymentStep,
  },
  /**
   * Asked by the session's sweep about an attempt left PROCESSING long past
   * any payment step (its replica died mid-payment, say): the adapter answers
   * the outcome it knows, or, having no order for it, records it as never sent
   * and declines it, so it can never be charged afterwards.
   */
  'payment.check': { service: 'acquirer-adapter', request: Type.Object({ attempt: StartedAttempt }), reply: PaymentStep },
  // asked by the session service before it takes a live session
  'terminal.check': { service: 'acquirer-adapter', request: MerchantRef, reply: Type.Object({ status: TerminalStatus }) },

  // operator commands, sent by gateway-admin (D13)
  'terminal.set': {
    operator: true,
    service: 'acquirer-adapter',
    request: Type.Object({
      merchant_id: MerchantId,
      mode: Type.Literal('live'),
      user: Type.String({ minLength: 1, maxLength: 100 }),
      /** writeOnly: a secret, never shown back (the audit log leaves it out). */
      password: Type.String({ minLength: 1, maxLength: 200, writeOnly: true }),
      active: Type.Boolean(),
    }),
    reply: Type.Object({ merchant_id: MerchantId, mode: Type.Literal('live'), user: Type.String(), active: Type.Boolean() }),
  },
  'fees.set': {
    operator: true,
    service: 'acquirer-adapter',
    request: Type.Object({ merchant_id: MerchantId, percent: Type.String(), fixed: Type.String() }),
    reply: Type.Object({ merchant_id: MerchantId, percent: DecimalString, fixed: DecimalString }),
  },
  // refunds (D10): the API call, sent by the gateway, and the acquirer step, sent by the refund service
  'refund.create': {
    service: 'refund',
    request: Type.Object({ context: ApiContext, session_id: Type.String(), body: Type.Unknown() }),
    reply: RefundResult,
  },
  'refund.get': { service: 'refund', request: Type.Object({ context: ApiContext, refund_id: Type.String() }), reply: Refund },
  'refund.list_session': { service: 'refund', request: SessionRef, reply: RefundList },
  /**
   * Sent by the refund service before it answers a refund call (D16): the
   * session counts the refund (`held`: confirmed or held for an operator) or
   * stops counting it (`failed`), once per refund whatever the order of this
   * command and the refund events, so a read after the answer shows it.
   */
  'session.record_refund': {
    service: 'session',
    request: Type.Object({ session_id: Type.String(), refund_id: Type.String({ pattern: '^re_' }), amount: DecimalString, outcome: Type.Union([Type.Literal('held'), Type.Literal('failed')]) }),
    reply: Type.Object({ amount_refunded: DecimalString }),
  },
  'payment.refund': {
    service: 'acquirer-adapter',
    request: Type.Object({
      refund_id: Type.String({ pattern: '^re_' }),
      attempt_id: Type.String({ pattern: '^pa_' }),
      merchant_id: MerchantId,
      livemode: Type.Boolean(),
      /** TND, at most what is left of the captured amount. */
      amount: DecimalString,
      /** The whole captured amount with nothing refunded before: a reversal when the payment is not settled yet. */
      whole: Type.Boolean(),
    }),
    reply: Type.Object({
      /** refunded: confirmed; refused: definitive, nothing refunded; unconfirmed: an operator must find out. */
      outcome: Type.Union([Type.Literal('refunded'), Type.Literal('refused'), Type.Literal('unconfirmed')]),
      operation: Type.Union([Type.Literal('reverse'), Type.Literal('refund')]),
      /** The acquirer's words when the outcome is not refunded. */
      message: Type.String(),
    }),
  },
  // operator commands (D13)
  'refund.list_manual': {
    operator: true,
    readOnly: true,
    service: 'refund',
    request: Type.Object({}),
    reply: Type.Object({ data: Type.Array(ManualRefund) }),
  },
  'refund.resolve': {
    operator: true,
    service: 'refund',
    request: Type.Object({ refund_id: Type.String({ minLength: 1, maxLength: 64 }), as: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')]) }),
    reply: Type.Object({ refund_id: Type.String(), status: Type.Union([Type.Literal('SUCCEEDED'), Type.Literal('FAILED')]) }),
  },
  'merchant.create': {
    operator: true,
    service: 'api-gateway',
    request: Type.Object({
      name: Type.String({ minLength: 1, maxLength: 200 }),
      order_prefix: Type.Optional(Type.String()),
      /** The test-mode default webhook URL (D13 `--webhook-url`): merchant.created carries it to the dispatcher, which provisions the endpoint. */
      webhook_url: Type.Optional(Type.String()),
    }),
    reply: Type.Object({ merchant_id: MerchantId, order_prefix: Type.String(), test_secret_key: Secret('sk_test_') }),
  },
  'merchant.approve_kyb': {
    operator: true,
    service: 'api-gateway',
    request: MerchantRef,
    reply: Type.Object({ merchant_id: MerchantId, live_secret_key: Secret('sk_live_') }),
  },
  'merchant.suspend': { operator: true, service: 'api-gateway', request: MerchantRef, reply: Type.Object({ merchant_id: MerchantId, status: Type.String() }) },
  'merchant.reactivate': { operator: true, service: 'api-gateway', request: MerchantRef, reply: Type.Object({ merchant_id: MerchantId, status: Type.String() }) },
  'api_key.create': {
    operator: true,
    service: 'api-gateway',
    request: Type.Object({ merchant_id: MerchantId, mode: Mode }),
    reply: Type.Object({ key_id: Type.String(), secret_key: Secret('sk_') }),
  },
  'api_key.revoke': {
    operator: true,
    service: 'api-gateway',
    /** merchant_id: required from a merchant's user (D14): the key must be that merchant's. */
    request: Type.Object({ key_id: Type.String(), merchant_id: Type.Optional(MerchantId) }),
    reply: Type.Object({ key_id: Type.String(), revoked: Type.Boolean() }),
  },
  'limits.set': {
    operator: true,
    service: 'api-gateway',
    request: Type.Object({
      merchant_id: MerchantId,
      mode: Mode,
      account: Type.Optional(Type.Integer()),
      create: Type.Optional(Type.Integer()),
      refund: Type.Optional(Type.Integer()),
    }),
    reply: Type.Object({ merchant_id: MerchantId, mode: Mode, account: Type.Integer(), create: Type.Integer(), refund: Type.Integer() }),
  },
  'rate.set': {
    operator: true,
    service: 'session',
    request: Type.Object({ merchant_id: MerchantId, mode: Mode, currency: Type.String(), rate: Type.String() }),
    reply: Type.Object({ merchant_id: MerchantId, mode: Mode, currency: Type.String(), rate: Type.String() }),
  },
  'rate.remove': {
    operator: true,
    service: 'session',
    request: Type.Object({ merchant_id: MerchantId, mode: Mode, currency: Type.String() }),
    reply: Type.Object({ merchant_id: MerchantId, mode: Mode, currency: Type.String(), removed: Type.Boolean() }),
  },
  'webhook_endpoint.provision': {
    operator: true,
    service: 'webhook-dispatcher',
    request: Type.Object({ merchant_id: MerchantId, mode: Mode, url: Type.Optional(Type.String()) }),
    reply: Type.Object({ merchant_id: MerchantId, mode: Mode, url: Type.String(), webhook_secret: Secret('whsec_') }),
  },
  'webhook_endpoint.set_url': {
    operator: true,
    service: 'webhook-dispatcher',
    request: Type.Object({ merchant_id: MerchantId, mode: Mode, url: Type.String() }),
    reply: Type.Object({ merchant_id: MerchantId, mode: Mode, url: Type.String() }),
  },
  'webhook_endpoint.rotate_secret': {
    operator: true,
    service: 'webhook-dispatcher',
    request: Type.Object({ merchant_id: MerchantId, mode: Mode }),
    reply: Type.Object({ merchant_id: MerchantId, mode: Mode, webhook_secret: Secret('whsec_'), previous_secret_expires_at: DateTime }),
  },
  'webhook.resend': {
    operator: true,
    service: 'webhook-dispatcher',
    request: Type.Object({ delivery_id: Type.String({ minLength: 1, maxLength: 64 }), merchant_id: Type.Optional(MerchantId) }),
    reply: Type.Object({ delivery_id: Type.String({ pattern: '^whd_' }) }),
  },
  // secrets at rest (D17): a test key shown again; each owning service's data keys re-wrapped under the current KEK
  'api_key.reveal': {
    operator: true,
    service: 'api-gateway',
    request: Type.Object({ key_id: Type.String({ minLength: 1, maxLength: 64 }), merchant_id: Type.Optional(MerchantId) }),
    reply: Type.Object({ key_id: Type.String(), secret_key: Secret('sk_test_') }),
  },
  'api_gateway.secrets.rewrap': SecretsRewrap('api-gateway'),
  'acquirer.secrets.rewrap': SecretsRewrap('acquirer-adapter'),
  'webhooks.secrets.rewrap': SecretsRewrap('webhook-dispatcher'),
  'dashboard.secrets.rewrap': SecretsRewrap('dashboard'),
  'audit.list': {
    operator: true,
    readOnly: true,
    service: 'api-gateway',
    request: Type.Object({
      merchant_id: Type.Optional(MerchantId),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
      /** An audit_id: entries older than it (the next page). */
      before: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    reply: Type.Object({ data: Type.Array(AuditEntry), has_more: Type.Boolean() }),
  },
  // Reads and changes the dashboard and the operations console need (D14, D15); operator commands, signed by the door for its user.
  'merchant.list': {
    operator: true,
    readOnly: true,
    service: 'api-gateway',
    request: Type.Object({
      /** Part of the name, or a whole merchant id. */
      search: Type.Optional(Type.String({ maxLength: 200 })),
      status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')])),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
      /** A merchant id: merchants created before it (the next page). */
      starting_after: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    reply: Type.Object({ data: Type.Array(MerchantSummary), has_more: Type.Boolean() }),
  },
  'merchant.get': { operator: true, readOnly: true, service: 'api-gateway', request: MerchantRef, reply: MerchantDetail },
  'api_key.list': {
    operator: true,
    readOnly: true,
    service: 'api-gateway',
    request: Type.Object({ merchant_id: MerchantId, mode: Type.Optional(Mode) }),
    reply: Type.Object({ data: Type.Array(ApiKeySummary) }),
  },
  'api_key.rotate': {
    operator: true,
    service: 'api-gateway',
    /**
     * A key replaced by a new one of its mode (the dashboard rotates live keys; a test key may be rotated too): the new key now,
     * the old one revoked now or after a grace of one of the configured lengths (D14).
     */
    request: Type.Object({ merchant_id: MerchantId, key_id: Type.String({ minLength: 1, maxLength: 64 }), revoke_in_seconds: Type.Integer({ minimum: 0 }) }),
    reply: Type.Object({ key_id: Type.String(), secret_key: Secret('sk_(test|live)_'), revoked_key_id: Type.String(), revokes_at: DateTime }),
  },
  'rate.list': {
    operator: true,
    readOnly: true,
    service: 'session',
    request: Type.Object({ merchant_id: MerchantId, mode: Mode }),
    reply: Type.Object({ data: Type.Array(Type.Object({ currency: Type.String(), rate: Type.String(), updated_at: DateTime })) }),
  },
  'fees.get': {
    operator: true,
    readOnly: true,
    service: 'acquirer-adapter',
    request: MerchantRef,
    reply: Type.Object({ merchant_id: MerchantId, percent: Type.String(), fixed: Type.String(), default: Type.Boolean() }),
  },
  'terminal.get': {
    operator: true,
    readOnly: true,
    service: 'acquirer-adapter',
    /** Never the password: whether one is set. */
    request: Type.Object({ merchant_id: MerchantId, mode: Mode }),
    reply: Type.Object({
      merchant_id: MerchantId,
      mode: Mode,
      configured: Type.Boolean(),
      user_name: Type.Union([Type.String(), Type.Null()]),
      /** Whether payments may use it (`terminal set --inactive` turns it off); null when none is configured. */
      active: Type.Union([Type.Boolean(), Type.Null()]),
    }),
  },
  'webhook_endpoint.show': {
    operator: true,
    readOnly: true,
    service: 'webhook-dispatcher',
    /** The account's default endpoint of a mode (D11), never its secret. */
    request: Type.Object({ merchant_id: MerchantId, mode: Mode }),
    reply: Type.Object({
      merchant_id: MerchantId,
      mode: Mode,
      url: Type.Union([Type.String(), Type.Null()]),
      previous_secret_expires_at: Type.Union([DateTime, Type.Null()]),
    }),
  },
  'webhook_endpoint.reveal_secret': {
    operator: true,
    service: 'webhook-dispatcher',
    /** wait_ms: how long to wait for an endpoint still being provisioned (a merchant just created, from merchant.created) before not-found. */
    request: Type.Object({ merchant_id: MerchantId, mode: Mode, wait_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 4000 })) }),
    reply: Type.Object({ merchant_id: MerchantId, mode: Mode, webhook_secret: Secret('whsec_') }),
  },
  'webhook.attempt': {
    operator: true,
    readOnly: true,
    service: 'webhook-dispatcher',
    /** One delivery attempt with what was sent and what came back (D14), within the merchant. */
    request: Type.Object({ merchant_id: MerchantId, delivery_id: Type.String({ minLength: 1, maxLength: 64 }) }),
    reply: WebhookAttemptDetail,
  },
  // Dashboard and console identities (D14, D15), kept by the dashboard service
  'user.create': {
    operator: true,
    service: 'dashboard',
    request: Type.Object({
      merchant_id: MerchantId,
      email: Type.String({ minLength: 3, maxLength: 254 }),
      role: DashboardRole,
      password: Type.Optional(Type.String({ writeOnly: true })),
    }),
    reply: Type.Object({ user_id: Type.String({ pattern: '^usr_' }), setup_url: Type.String() }),
  },
  'operator.create': {
    operator: true,
    service: 'dashboard',
    request: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), password: Type.Optional(Type.String({ writeOnly: true })) }),
    reply: Type.Object({ operator_id: Type.String({ pattern: '^opr_' }), setup_url: Type.String() }),
  },
} as const satisfies Record<string, CommandContract>;

/** The services that keep secrets encrypted (D17), and the command that re-wraps each one's data keys. */
export const SECRETS_REWRAP_COMMANDS = {
  'api-gateway': 'api_gateway.secrets.rewrap',
  'acquirer-adapter': 'acquirer.secrets.rewrap',
  'webhook-dispatcher': 'webhooks.secrets.rewrap',
  dashboard: 'dashboard.secrets.rewrap',
} as const satisfies Partial<Record<ServiceName, CommandType>>;

export type CommandType = keyof typeof commands;
export type CommandRequest<C extends CommandType> = Static<(typeof commands)[C]['request']>;
export type CommandReply<C extends CommandType> = Static<(typeof commands)[C]['reply']>;

/** Who connects to the broker: each service, and the operators' CLI (gateway-admin). */
export type Principal = ServiceName | 'gateway-admin';

/** Operator commands come from the CLI and from the dashboard service's two doors (D14, D15), signed either way. */
const OPERATOR: readonly Principal[] = ['gateway-admin', 'dashboard'];

/**
 * The operator commands a merchant's dashboard user may have run, signed by the
 * dashboard for that user (D14). Each names the user's merchant in its data
 * (`merchant_id`), and the running service checks that whatever else it names
 * (a key, a delivery) is that merchant's: a user can never act on another
 * merchant. Every other operator command is for operators only.
 */
export const MERCHANT_USER_COMMANDS = [
  'merchant.get',
  'api_key.list',
  'api_key.create',
  'api_key.revoke',
  'api_key.reveal',
  'api_key.rotate',
  'rate.list',
  'rate.set',
  'rate.remove',
  'webhook_endpoint.show',
  'webhook_endpoint.provision',
  'webhook_endpoint.set_url',
  'webhook_endpoint.reveal_secret',
  'webhook_endpoint.rotate_secret',
  'webhook.attempt',
  'webhook.resend',
  'audit.list',
] as const satisfies readonly CommandType[];

/**
 * Who may send each command (D17). Every publisher stamps its messages with its
 * broker user (AMQP user_id, which RabbitMQ checks against the connection's
 * login), and a service's command server refuses a command from any other: a
 * broker user can put any message on any queue through the default exchange,
 * so the queue's permissions alone would let the CLI's credentials send an API
 * command with a forged merchant context. Operator commands come from the CLI
 * and are signed besides.
 */
export const commandSenders = {
  'session.create': ['api-gateway'],
  'session.get': ['api-gateway', 'refund', 'webhook-dispatcher', 'dashboard'],
  'session.get_for_event': ['refund'],
  'session.list': ['api-gateway', 'dashboard'],
  'session.cancel': ['api-gateway'],
  'session.issue_checkout': ['api-gateway'],
  'webhook.list_session': ['api-gateway', 'dashboard'],
  'webhook.list': ['api-gateway', 'dashboard'],
  'webhook_endpoint.create': ['api-gateway'],
  'webhook_endpoint.list': ['api-gateway'],
  'webhook_endpoint.get': ['api-gateway'],
  'webhook_endpoint.update': ['api-gateway'],
  'webhook_endpoint.delete': ['api-gateway'],
  'webhook_endpoint.roll_secret': ['api-gateway'],
  'webhook_endpoint.replay': ['api-gateway'],
  'checkout.view': ['checkout'],
  'checkout.cancel': ['checkout'],
  'attempt.pay': ['checkout'],
  'attempt.finish_3ds': ['checkout'],
  'payment.authorize': ['session'],
  'payment.finish_3ds': ['session'],
  'payment.check': ['session'],
  'terminal.check': ['session'],
  'refund.create': ['api-gateway', 'dashboard'],
  'refund.get': ['api-gateway', 'dashboard'],
  'refund.list_session': ['api-gateway', 'dashboard'],
  'session.record_refund': ['refund'],
  'payment.refund': ['refund'],
  'terminal.set': OPERATOR,
  'fees.set': OPERATOR,
  'refund.list_manual': OPERATOR,
  'refund.resolve': OPERATOR,
  'merchant.create': OPERATOR,
  'merchant.approve_kyb': OPERATOR,
  'merchant.suspend': OPERATOR,
  'merchant.reactivate': OPERATOR,
  'api_key.create': OPERATOR,
  'api_key.revoke': OPERATOR,
  'limits.set': OPERATOR,
  'rate.set': OPERATOR,
  'rate.remove': OPERATOR,
  'webhook_endpoint.provision': OPERATOR,
  'webhook_endpoint.set_url': OPERATOR,
  'webhook_endpoint.rotate_secret': OPERATOR,
  'webhook.resend': OPERATOR,
  'api_key.reveal': OPERATOR,
  'api_gateway.secrets.rewrap': OPERATOR,
  'acquirer.secrets.rewrap': OPERATOR,
  'webhooks.secrets.rewrap': OPERATOR,
  'dashboard.secrets.rewrap': OPERATOR,
  'audit.list': OPERATOR,
  'merchant.list': OPERATOR,
  'merchant.get': OPERATOR,
  'api_key.list': OPERATOR,
  'api_key.rotate': OPERATOR,
  'rate.list': OPERATOR,
  'fees.get': OPERATOR,
  'terminal.get': OPERATOR,
  'webhook_endpoint.show': OPERATOR,
  'webhook_endpoint.reveal_secret': OPERATOR,
  'webhook.attempt': OPERATOR,
  'user.create': OPERATOR,
  'operator.create': OPERATOR,
} as const satisfies Record<CommandType, readonly Principal[]>;

/** True for the commands only an operator may send: signed, checked and audited (D17). */
export function isOperatorCommand(type: CommandType): boolean {
  return (commands[type] as CommandContract).operator === true;
}

/** True for the operator commands that only read (see CommandContract.readOnly). */
export function isReadOnlyCommand(type: CommandType): boolean {
  return (commands[type] as CommandContract).readOnly === true;
}

// ---------------------------------------------------------------- events


const MerchantChanged = Type.Object({ merchant_id: MerchantId });


export const events = {
  'session.created': SessionEventData,
  'session.canceled': SessionEventData,
  'session.succeeded': SessionEventData,
  'session.failed': SessionEventData,
  'session.expired': SessionEventData,
  'checkout.session.expired': SessionEventData,
  'refund.created': SessionEventData,
  /** A refund an operator resolved (D16): the refund's final status, succeeded or failed. */
  'refund.updated': SessionEventData,
  'payment.approved': PaymentApproved,
  'payment.declined': PaymentDeclined,
  /** A new merchant; the webhook dispatcher gives it its test-mode endpoint (with `test_webhook_url` when one was given). */
  'merchant.created': Type.Object({ merchant_id: MerchantId, name: Type.String(), order_prefix: Type.String(), test_webhook_url: Type.Optional(Type.String()) }),
  'merchant.updated': MerchantChanged,
  /** Business verification approved (live mode open); the webhook dispatcher gives the merchant its live-mode endpoint. */
  'merchant.kyb_approved': MerchantChanged,
  'api_key.revoked': Type.Object({ merchant_id: MerchantId, key_id: Type.String() }),
  /** An operator command a service ran, for the audit log the api-gateway keeps. */
  'audit.recorded': AuditEntry,
} as const satisfies Record<string, TSchema>;

export type EventType = keyof typeof events;
export type EventData<E extends EventType> = Static<(typeof events)[E]>;

/**
 * Which services publish each event (through their outbox). Only they may
 * publish it on the events exchange (topic permissions), and consumers refuse
 * one that another broker user put on their queue through the default exchange.
 */
export const eventPublishers = {
  'session.created': ['session'],
  'session.canceled': ['session'],
  'session.succeeded': ['session'],
  'session.failed': ['session'],
  'session.expired': ['session'],
  'checkout.session.expired': ['session'],
  'refund.created': ['refund'],
  'refund.updated': ['refund'],
  'payment.approved': ['acquirer-adapter'],
  'payment.declined': ['acquirer-adapter'],
  'merchant.created': ['api-gateway'],
  'merchant.updated': ['api-gateway'],
  'merchant.kyb_approved': ['api-gateway'],
  'api_key.revoked': ['api-gateway'],
  // Every service that runs operator commands records them (the dashboard runs user.create and operator.create).
  'audit.recorded': ['api-gateway', 'session', 'acquirer-adapter', 'refund', 'webhook-dispatcher', 'dashboard'],
} as const satisfies Record<EventType, readonly ServiceName[]>;

/**
 * Events several services publish, each about itself: the data field naming
 * the publisher, which must be the service that sent it (an audit entry of one
 * service cannot be written by another).
 */
export const eventPublisherField: Partial<Record<EventType, string>> = { 'audit.recorded': 'service' };

/** The events merchants receive as webhooks (INTERFACE 6.1, D10, D11); session.created is internal. */
export const WEBHOOK_EVENTS = [
  'session.succeeded',
  'session.failed',
  'session.canceled',
  'session.expired',
  'checkout.session.expired',
  'refund.created',
  'refund.updated',
] as const satisfies readonly EventType[];
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

// ---------------------------------------------------------------- topology

export type ServiceName = 'api-gateway' | 'session' | 'checkout' | 'acquirer-adapter' | 'refund' | 'webhook-dispatcher' | 'dashboard';

export interface ServiceTopology {
  /** Durable event subscriptions: routing-key patterns bound to the service's quorum queue. */
  readonly events: readonly string[];
  /** Per-replica subscriptions (an exclusive queue each), for caches every replica keeps. */
  readonly broadcasts: readonly string[];
}

/** Which service listens to what. Every service also has a command queue. */
export const topology: Readonly<Record<ServiceName, ServiceTopology>> = {
  // The webhook events feed the test-mode event streams of `gateway listen`, one exclusive queue per open stream.
  'api-gateway': { events: ['audit.recorded'], broadcasts: ['merchant.updated', 'api_key.revoked', ...WEBHOOK_EVENTS] },
  session: { events: ['payment.approved', 'payment.declined', 'refund.created', 'refund.updated'], broadcasts: [] },
  checkout: { events: [], broadcasts: [] },
  'acquirer-adapter': { events: [], broadcasts: [] },
  // A refund records the captured payment from the session it reads anyway: no event needed.
  refund: { events: [], broadcasts: [] },
  // merchant.created and merchant.kyb_approved: the merchant's test-mode and live-mode endpoints are provisioned here, the owner of endpoints.
  'webhook-dispatcher': { events: [...WEBHOOK_EVENTS, 'merchant.created', 'merchant.kyb_approved'], broadcasts: [] },
  // The merchant dashboard and the operations console: every read and change is a command to the owning service.
  dashboard: { events: [], broadcasts: [] },
};
