/**
 * The public API's webhook answers: the delivery attempts a merchant reads
 * (INTERFACE 2.6) and the webhook endpoints they manage (issue 19).
 */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Id, PAGING } from './api-parts.js';

/** Where a delivery attempt stands: due or on its way, answered with a 2xx, or failed. */
const WebhookDeliveryStatus = Type.Union([Type.Literal('PENDING'), Type.Literal('SUCCEEDED'), Type.Literal('FAILED')]);

/** Webhook delivery record (INTERFACE 2.6). */
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

/** Query of GET /gateway/sessions/{id}/webhooks/: paging alone, any other parameter refused (D29). */
export const SessionWebhookListQuery = Type.Object(PAGING, { additionalProperties: false });

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
