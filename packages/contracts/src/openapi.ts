/**
 * The OpenAPI 3.1 description served at GET /api/v1/openapi.json, built from the
 * same schemas that validate requests and replies.
 */
import type { TSchema } from '@sinclair/typebox';
import * as api from './api.js';
import { WebhookEvent } from './webhook-event.js';

const schemas: Record<string, TSchema> = {
  CreateSessionRequest: api.CreateSessionRequest,
  SessionDetail: api.SessionDetail,
  SessionListItem: api.SessionListItem,
  SessionList: api.SessionList,
  Original: api.Original,
  Attempt: api.Attempt,
  CheckoutLink: api.CheckoutLink,
  RefundRequest: api.RefundRequest,
  RefundResult: api.RefundResult,
  Refund: api.Refund,
  RefundList: api.RefundList,
  WebhookDelivery: api.WebhookDelivery,
  WebhookDeliveryList: api.WebhookDeliveryList,
  Problem: api.Problem,
  WebhookEvent,
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });

const common = {
  '401': problem('Missing, malformed, expired or revoked API key.'),
  '403': problem('The merchant account is suspended.'),
  '429': { ...problem('Rate limit exceeded.'), headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } } },
  '500': problem('Unexpected error; retry with backoff.'),
};

const sessionId = { name: 'session_id', in: 'path', required: true, schema: { type: 'string', pattern: '^ps_' } };
const cursor = (name: string, description: string) => ({ name, in: 'query', required: false, schema: { type: 'string' }, description });
/** D10: any POST; the same key and body replay the first answer for 24 hours (header Idempotent-Replayed: true). */
const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  description: 'Replays the first answer for the same key and body (24 h); another body: 422 idempotency-key-reused; still in flight: 409 conflict.',
};
const limit = { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } };
/** The session list's filters, from the schema that checks them; any other parameter is refused. */
const sessionFilters = (['status', 'created[gte]', 'created[lte]', 'merchant_reference'] as const).map((name) => ({
  name,
  in: 'query',
  required: false,
  schema: api.SessionListQuery.properties[name],
  description: {
    status: 'Only sessions in this status.',
    'created[gte]': 'Only sessions created at or after this RFC 3339 instant.',
    'created[lte]': 'Only sessions created at or before this RFC 3339 instant; not before created[gte].',
    merchant_reference: 'Only the session of this merchant_reference.',
  }[name],
}));

/** Builds the OpenAPI document; `serverUrl` is PUBLIC_BASE_URL + /api/v1. */
export function buildOpenApi(serverUrl: string): Record<string, unknown> {
  const componentSchemas = JSON.parse(JSON.stringify(schemas)) as Record<string, unknown>;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hosted-checkout payment gateway',
      version: '1.0.0',
      description: 'Payment sessions, hosted checkout, refunds and signed webhooks. Test or live mode is chosen by the API key prefix.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'sk_test_... or sk_live_...' } },
      schemas: componentSchemas,
    },
    // What merchants receive at their webhook URL (INTERFACE 6), so SDKs can type it.
    webhooks: {
      event: {
        post: {
          operationId: 'receiveWebhookEvent',
          requestBody: { required: true, content: json('WebhookEvent') },
          responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
        },
      },
    },
    paths: {
      '/gateway/events/stream/': {
        get: {
          operationId: 'streamEvents',
          summary: "Test keys only: the merchant's test-mode events as server-sent events, as they happen (`gateway listen`).",
          responses: {
            '200': {
              description: 'An endless text/event-stream; each event carries the webhook body (WebhookEvent) as its data and its evt_ id as its id.',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            '401': common['401'],
            '403': problem('A live key, or a suspended merchant account.'),
            '429': common['429'],
            '500': common['500'],
          },
        },
      },
      '/gateway/sessions/': {
        post: {
          operationId: 'createSession',
          parameters: [idempotencyKey],
          summary: 'Create a session (idempotent on merchant_reference).',
          requestBody: { required: true, content: json('CreateSessionRequest') },
          responses: {
            '201': { description: 'Created.', content: json('SessionDetail') },
            '200': { description: 'The existing session with this merchant_reference.', content: json('SessionDetail') },
            '409': problem('Conflicts with the existing session; carries existing_session_id.'),
            '413': problem('Body over 64 KiB.'),
            '422': problem('Validation failed.'),
            ...common,
          },
        },
      },
      '/gateway/sessions/{session_id}/': {
        get: {
          operationId: 'getSession',
          parameters: [sessionId],
          responses: { '200': { description: 'The session.', content: json('SessionDetail') }, '404': problem('No such session.'), ...common },
        },
      },
      '/gateway/sessions/{session_id}/cancel/': {
        post: {
          operationId: 'cancelSession',
          parameters: [sessionId, idempotencyKey],
          responses: {
            '200': { description: 'Canceled.', content: json('SessionDetail') },
            '404': problem('No such session.'),
            '409': problem('Processing (conflict) or terminal (session-terminal).'),
            ...common,
          },
        },
      },
      '/gateway/sessions/{session_id}/checkout/': {
        post: {
          operationId: 'issueCheckoutLink',
          parameters: [sessionId, idempotencyKey],
          responses: {
            '201': { description: 'A new hosted-page link.', content: json('CheckoutLink') },
            '404': problem('No such session.'),
            '409': problem('Processing (conflict) or terminal (session-terminal).'),
            '422': problem('checkout-limit-exceeded: five active links already.'),
            ...common,
          },
        },
      },
      '/gateway/sessions/{session_id}/refund/': {
        post: {
          operationId: 'refundSession',
          parameters: [sessionId, idempotencyKey],
          requestBody: { required: true, content: json('RefundRequest') },
          responses: {
            '200': { description: 'Refund accepted.', content: json('RefundResult') },
            '404': problem('No such session.'),
            '422': problem('Validation failure, invalid-state, no-payment or refund-failed.'),
            ...common,
          },
        },
      },
      '/gateway/sessions/{session_id}/refunds/': {
        get: {
          operationId: 'listSessionRefunds',
          parameters: [sessionId],
          responses: { '200': { description: 'The session\'s refunds, oldest first.', content: json('RefundList') }, '404': problem('No such session.'), ...common },
        },
      },
      '/gateway/refunds/{refund_id}/': {
        get: {
          operationId: 'getRefund',
          parameters: [{ name: 'refund_id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'The refund.', content: json('Refund') }, '404': problem('No such refund.'), ...common },
        },
      },
      '/gateway/sessions/list/': {
        get: {
          operationId: 'listSessions',
          parameters: [
            limit,
            cursor('starting_after', 'Sessions created before this one; it must match the filters given with it.'),
            cursor('ending_before', 'Sessions created after this one; it must match the filters given with it.'),
            ...sessionFilters,
          ],
          responses: { '200': { description: 'Newest first.', content: json('SessionList') }, '422': problem('Invalid query, or a query parameter the list does not know.'), ...common },
        },
      },
      '/gateway/sessions/{session_id}/webhooks/': {
        get: {
          operationId: 'listSessionWebhooks',
          parameters: [sessionId, { ...limit, schema: { ...limit.schema, default: 100 } }, cursor('starting_after', 'Deliveries created before this one.'), cursor('ending_before', 'Deliveries created after this one.')],
          responses: { '200': { description: 'Most recent first.', content: json('WebhookDeliveryList') }, '404': problem('No such session.'), ...common },
        },
      },
      '/gateway/webhooks/': {
        get: {
          operationId: 'listWebhooks',
          parameters: [limit, cursor('starting_after', 'Deliveries created before this one.'), cursor('ending_before', 'Deliveries created after this one.')],
          responses: { '200': { description: 'Newest first.', content: json('WebhookDeliveryList') }, '422': problem('Invalid query.'), ...common },
        },
      },
    },
  };
}
