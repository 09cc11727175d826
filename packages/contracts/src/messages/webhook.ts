/**
 * The webhook dispatcher's messages: delivery history, endpoints (the merchant's and the default ones) and resends.
 */
import { Type } from '@sinclair/typebox';
import { WebhookDelivery, WebhookDeliveryList, WebhookEndpoint, WebhookEndpointDeleted, WebhookEndpointList, WebhookEndpointWithSecret, WebhookReplayResult } from '../api.js';
import { ApiContext, type CommandContract, DateTime, MerchantId, Mode, Secret, SecretsRewrap } from './common.js';

const EndpointRef = Type.Object({ context: ApiContext, endpoint_id: Type.String() });

/** One delivery attempt as the dashboard shows it: the list fields, the body that was sent, what came back. */
const WebhookAttemptDetail = Type.Object({
  ...WebhookDelivery.properties,
  /** The exact JSON body that was (or will be) signed and sent. */
  payload: Type.String(),
  /** The start of the merchant's answer, as received (untrusted text). */
  response_body: Type.Union([Type.String(), Type.Null()]),
});

/** The commands the webhook dispatcher runs. */
export const webhookCommands = {
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
  'webhooks.secrets.rewrap': SecretsRewrap('webhook-dispatcher'),
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
    /**
     * The secret of the mode's default endpoint, or with endpoint_id of one
     * the merchant manages (issue 19: the dashboard's "Reveal" of an endpoint).
     * wait_ms: how long to wait for a default endpoint still being provisioned
     * (a merchant just created, from merchant.created) before not-found.
     */
    request: Type.Object({
      merchant_id: MerchantId,
      mode: Mode,
      endpoint_id: Type.Optional(Type.String({ pattern: '^we_', maxLength: 64 })),
      wait_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 4000 })),
    }),
    /** url: where the endpoint's webhooks go, '' for nowhere yet (a default endpoint without a URL). */
    reply: Type.Object({ merchant_id: MerchantId, mode: Mode, url: Type.String(), webhook_secret: Secret('whsec_') }),
  },
  'webhook.attempt': {
    operator: true,
    readOnly: true,
    service: 'webhook-dispatcher',
    /** One delivery attempt with what was sent and what came back (D14), within the merchant. */
    request: Type.Object({ merchant_id: MerchantId, delivery_id: Type.String({ minLength: 1, maxLength: 64 }) }),
    reply: WebhookAttemptDetail,
  },
} as const satisfies Record<string, CommandContract>;

/**
 * The webhook dispatcher's events. webhook_endpoint.disabled: the disable
 * sweep stopped sending to an endpoint that failed too long (issue 19); the
 * notifier mails the merchant's owners (D20). The same fact reaches the
 * merchant's other endpoints as a webhook; this is its broker event.
 */
export const webhookEvents = {
  'webhook_endpoint.disabled': Type.Object({
    merchant_id: MerchantId,
    livemode: Type.Boolean(),
    endpoint_id: Type.String(),
    url: Type.String(),
    disabled_at: DateTime,
  }),
} as const;
