/**
 * The api-gateway's messages: merchants, API keys, limits, the audit log, and the merchant.* events.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { type CommandContract, DateTime, MerchantId, MerchantRef, Mode, Secret, SecretsRewrap } from './common.js';

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

const MerchantChanged = Type.Object({ merchant_id: MerchantId });

/** The commands the api-gateway runs. */
export const merchantCommands = {
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
  // secrets at rest (D17): a test key shown again; each owning service's data keys re-wrapped under the current KEK
  'api_key.reveal': {
    operator: true,
    service: 'api-gateway',
    request: Type.Object({ key_id: Type.String({ minLength: 1, maxLength: 64 }), merchant_id: Type.Optional(MerchantId) }),
    reply: Type.Object({ key_id: Type.String(), secret_key: Secret('sk_test_') }),
  },
  'api_gateway.secrets.rewrap': SecretsRewrap('api-gateway'),
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
} as const satisfies Record<string, CommandContract>;

/** The merchant.* and api_key.* events the api-gateway publishes, and the audit entries every service records. */
export const merchantEvents = {
  /** A new merchant; the webhook dispatcher gives it its test-mode endpoint (with `test_webhook_url` when one was given). */
  'merchant.created': Type.Object({ merchant_id: MerchantId, name: Type.String(), order_prefix: Type.String(), test_webhook_url: Type.Optional(Type.String()) }),
  'merchant.updated': MerchantChanged,
  /** An operator suspended the merchant; the session service then takes no payment on its open sessions. */
  'merchant.suspended': MerchantChanged,
  /** An operator lifted the suspension. */
  'merchant.reactivated': MerchantChanged,
  /** Business verification approved (live mode open); the webhook dispatcher gives the merchant its live-mode endpoint. */
  'merchant.kyb_approved': MerchantChanged,
  'api_key.revoked': Type.Object({ merchant_id: MerchantId, key_id: Type.String() }),
  /** An operator command a service ran, for the audit log the api-gateway keeps. */
  'audit.recorded': AuditEntry,
} as const satisfies Record<string, TSchema>;
