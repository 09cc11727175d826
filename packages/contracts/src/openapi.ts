/**
 * The OpenAPI 3.1 description served at GET /api/v1/openapi.json, built from the
 * same schemas that validate requests and replies.
 */
import type { TSchema } from '@sinclair/typebox';
import * as api from './api.js';
import { json } from './openapi-parts.js';
import { openApiPaths } from './openapi-paths.js';
import { PAYMENT_METHOD_EVENTS, WEBHOOK_EVENTS, type PaymentMethodEventType, type WebhookEventType } from './messages/index.js';
import { PaymentMethodWebhookEvent, WebhookEvent } from './webhook-event.js';
import * as endpoints from './webhook-endpoints.js';

const schemas: Record<string, TSchema> = {
  CreateSessionRequest: api.CreateSessionRequest,
  SessionDetail: api.SessionDetail,
  SessionListItem: api.SessionListItem,
  SessionList: api.SessionList,
  Original: api.Original,
  Attempt: api.Attempt,
  CheckoutLink: api.CheckoutLink,
  CaptureRequest: api.CaptureRequest,
  RefundRequest: api.RefundRequest,
  RefundResult: api.RefundResult,
  Refund: api.Refund,
  RefundList: api.RefundList,
  WebhookDelivery: api.WebhookDelivery,
  WebhookDeliveryList: api.WebhookDeliveryList,
  Problem: api.Problem,
  WebhookEvent,
  WebhookEndpoint: api.WebhookEndpoint,
  WebhookEndpointWithSecret: api.WebhookEndpointWithSecret,
  WebhookEndpointList: api.WebhookEndpointList,
  WebhookEndpointDeleted: api.WebhookEndpointDeleted,
  WebhookReplayResult: api.WebhookReplayResult,
  CreateWebhookEndpointRequest: endpoints.CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest: endpoints.UpdateWebhookEndpointRequest,
  ReplayWebhookEndpointRequest: endpoints.ReplayWebhookEndpointRequest,
  WebhookEndpointDisabledEvent: endpoints.WebhookEndpointDisabledEvent,
  BalanceTransaction: api.BalanceTransaction,
  BalanceTransactionList: api.BalanceTransactionList,
  Balance: api.Balance,
  DailyReportDay: api.DailyReportDay,
  DailyReport: api.DailyReport,
  RefundPage: api.RefundPage,
  CreatePaymentLinkRequest: api.CreatePaymentLinkRequest,
  PaymentLink: api.PaymentLink,
  PaymentLinkList: api.PaymentLinkList,
  CreateCustomerRequest: api.CreateCustomerRequest,
  Customer: api.Customer,
  CustomerList: api.CustomerList,
  PaymentMethod: api.PaymentMethod,
  PaymentMethodList: api.PaymentMethodList,
  Deleted: api.Deleted,
  PaymentMethodWebhookEvent,
};

/**
 * When each webhook event is sent and what its data adds (INTERFACE 6.1-6.2,
 * D10, D16, D22). Keyed by WEBHOOK_EVENTS, so an event added there does not
 * compile until it is described here.
 */
const webhookEvents: Record<WebhookEventType, string> = {
  'session.authorized':
    "A manual session's payment is held (AUTHORIZED): data adds capture_method, authorized_at, amount_authorized, and payment without fee_amount and net_amount. Capture or cancel it; not captured within the authorization lifetime (7 days by default), the hold lapses (session.expired).",
  'session.succeeded':
    'Paid (SUCCEEDED): data adds paid_at and payment with fee_amount and net_amount. For a captured manual session, also capture_method, authorized_at, amount_authorized and amount_captured, the fee being on amount_captured.',
  'session.failed': 'An attempt was declined: data adds last_failure_code, last_failure_message, attempts_count and can_retry. The session is over only once FAILED.',
  'session.canceled': "Canceled by the merchant or the buyer (CANCELED); an AUTHORIZED session's hold is released.",
  'session.expired': "The session's lifetime ended before it was paid, or an AUTHORIZED session was not captured in time and its hold was released (EXPIRED).",
  'checkout.session.expired': 'One hosted-page link lapsed; the session is unaffected and can still be paid.',
  'refund.created': 'A refund was accepted: data adds refund (status succeeded, or pending while operations staff complete it).',
  'refund.updated': 'A pending refund was resolved: data.refund carries its final status.',
};

/** When each saved card's event is sent (D24); its data is the payment method with livemode. */
const paymentMethodEvents: Record<PaymentMethodEventType, string> = {
  'payment_method.attached': "A card was saved for a customer with a payment (or its usage widened to off_session).",
  'payment_method.detached': 'A saved card was removed (by the merchant, or with its customer): it can never be charged again.',
};

/** One webhook as the document's `webhooks` describe it: when it is sent, and the schema of its body. */
function webhookOperation(summary: string, body: string) {
  return { post: { summary, requestBody: { required: true, content: json(body) }, responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } } } };
}

/** Builds the OpenAPI document; `serverUrl` is PUBLIC_BASE_URL + /api/v1. */
export function buildOpenApi(serverUrl: string): Record<string, unknown> {
  const componentSchemas = JSON.parse(JSON.stringify(schemas)) as Record<string, unknown>;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hosted-checkout payment gateway',
      version: '1.0.0',
      description:
        'Payment sessions, hosted checkout, refunds and signed webhooks. Test or live mode is chosen by the API key prefix. A request body is a JSON object nested at most 32 levels (the body itself is level 1): deeper is 422 validation-error naming the top-level field. Unknown body fields and unknown query parameters are refused (422), and an operation that takes no body refuses one.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'sk_test_... or sk_live_...' } },
      schemas: componentSchemas,
    },
    // What merchants receive at their webhook URL (INTERFACE 6), one entry per event type, so SDKs can type it.
    webhooks: {
      ...Object.fromEntries(WEBHOOK_EVENTS.map((type) => [type, webhookOperation(webhookEvents[type], 'WebhookEvent')])),
      ...Object.fromEntries(PAYMENT_METHOD_EVENTS.map((type) => [type, webhookOperation(paymentMethodEvents[type], 'PaymentMethodWebhookEvent')])),
      [endpoints.ENDPOINT_DISABLED_EVENT]: {
        post: {
          summary: 'An endpoint failed every attempt for the configured time (3 days by default) and was disabled; sent to the account\'s other endpoints.',
          requestBody: { required: true, content: json('WebhookEndpointDisabledEvent') },
          responses: { '200': { description: 'Any 2xx acknowledges it.' } },
        },
      },
    },
    paths: openApiPaths(),
  };
}
