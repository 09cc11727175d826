/**
 * Webhook endpoints the merchant manages (issue 19, additive per INTERFACE
 * 9.3): the request bodies, the event types an endpoint may ask for, and the
 * event that tells a merchant an endpoint was disabled.
 */
import { Type, type Static } from '@sinclair/typebox';
import { HttpUrl, WebhookEndpoint } from './api.js';
import { PAYMENT_METHOD_EVENTS, WEBHOOK_EVENTS } from './messages/index.js';

/** Sent to a merchant's other endpoints when the gateway disables one that failed every attempt for too long. */
export const ENDPOINT_DISABLED_EVENT = 'webhook_endpoint.disabled';

/** Every event type an endpoint can ask for. */
export const ENDPOINT_EVENT_TYPES = [...WEBHOOK_EVENTS, ...PAYMENT_METHOD_EVENTS, ENDPOINT_DISABLED_EVENT] as const;

const EventTypes = Type.Array(Type.Unsafe<string>({ type: 'string', enum: ['*', ...ENDPOINT_EVENT_TYPES] }), {
  minItems: 1,
  maxItems: ENDPOINT_EVENT_TYPES.length + 1,
  uniqueItems: true,
  description: `Event types to receive, or ['*'] for every one: ${ENDPOINT_EVENT_TYPES.join(', ')}.`,
});
const Description = Type.String({ maxLength: 500 });

/** POST /gateway/webhook_endpoints/. */
export const CreateWebhookEndpointRequest = Type.Object(
  {
    url: HttpUrl('Where events are POSTed (the D11 address rule applies).'),
    enabled_events: EventTypes,
    description: Type.Optional(Description),
  },
  { additionalProperties: false },
);
export type CreateWebhookEndpointRequest = Static<typeof CreateWebhookEndpointRequest>;

/** PATCH /gateway/webhook_endpoints/{id}/: what is given changes. */
export const UpdateWebhookEndpointRequest = Type.Object(
  {
    url: Type.Optional(HttpUrl('Where events are POSTed.')),
    enabled_events: Type.Optional(EventTypes),
    description: Type.Optional(Description),
    status: Type.Optional(Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], { description: 'enabled also clears a disable for failures.' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookEndpointRequest = Static<typeof UpdateWebhookEndpointRequest>;

/** POST /gateway/webhook_endpoints/{id}/replay/. */
export const ReplayWebhookEndpointRequest = Type.Object(
  {
    since: Type.String({ format: 'date-time', description: 'RFC 3339: events created at or after it are sent again.' }),
    starting_after: Type.Optional(Type.String({ pattern: '^evt_', description: "The previous answer's next_starting_after." })),
  },
  { additionalProperties: false },
);
export type ReplayWebhookEndpointRequest = Static<typeof ReplayWebhookEndpointRequest>;

/** The body of a webhook_endpoint.disabled webhook: the endpoint, as the API shows it. */
export const WebhookEndpointDisabledEvent = Type.Object({
  id: Type.String({ pattern: '^evt_' }),
  event: Type.Literal(ENDPOINT_DISABLED_EVENT),
  created_at: Type.String({ format: 'date-time' }),
  data: WebhookEndpoint,
});
export type WebhookEndpointDisabledEvent = Static<typeof WebhookEndpointDisabledEvent>;
