/**
 * The pieces every service's messages are made of: ids, the envelope, the caller's context, the command contract and who may connect.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { SecretKeeper, ServiceName } from '../services.js';

export const DateTime = Type.String({ format: 'date-time' });

export const MerchantId = Type.String({ pattern: '^mer_[0-9A-Za-z]{20,}$' });

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
  /** The caller's address as the gateway saw it (D24: the acquirer asks for one with a charge of a saved card). */
  client_ip: Type.Optional(Type.String({ maxLength: 64 })),
});
export type ApiContext = Static<typeof ApiContext>;

export const SessionRef = Type.Object({ context: ApiContext, session_id: Type.String() });

export const DecimalString = Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$' });

/**
 * The page size an export reads a list with (D21), above the API's limit of
 * 100: the gateway and the dashboard send it, never a merchant, who pages with
 * `limit`. When given, it replaces the query's limit.
 */
export const EXPORT_PAGE_SIZE = 1000;
export const ExportPageSize = Type.Optional(Type.Integer({ minimum: 1, maximum: EXPORT_PAGE_SIZE }));

export interface CommandContract {
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
  /**
   * `slow`: the handler waits on the acquirer (up to its timeout), so the
   * command has a queue and a prefetch of its own at its service: a backlog of
   * payments never holds up the creates, reads and lists behind it. Every
   * other command takes the fast lane.
   */
  readonly lane?: 'slow';
}

export const MerchantRef = Type.Object({ merchant_id: MerchantId });

export const Secret = (prefix: string) => Type.String({ pattern: `^${prefix}` });

/** `<schema>.secrets.rewrap`: one service's data keys, re-wrapped; how many it has and how many were under another KEK. */
export const SecretsRewrap = <S extends SecretKeeper>(service: S) =>
  ({
    operator: true,
    service,
    request: Type.Object({}),
    reply: Type.Object({ data_keys: Type.Integer({ minimum: 0 }), rewrapped: Type.Integer({ minimum: 0 }) }),
  }) as const;

/** Who connects to the broker: each service, and the operators' CLI (gateway-admin). */
export type BrokerPrincipal = ServiceName | 'gateway-admin';

/** Operator commands come from the CLI and from the dashboard service's two doors (D14, D15), signed either way. */
export const OPERATOR: readonly BrokerPrincipal[] = ['gateway-admin', 'dashboard'];
