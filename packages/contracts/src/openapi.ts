/**
 * The OpenAPI 3.1 description served at GET /api/v1/openapi.json, built from the
 * same schemas that validate requests and replies.
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import * as api from './api.js';
import { WEBHOOK_EVENTS, type WebhookEventType } from './messages/index.js';
import { WebhookEvent } from './webhook-event.js';
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
const paymentLinkId = { name: 'payment_link_id', in: 'path', required: true, schema: { type: 'string', pattern: '^pl_' } };
const endpointId = { name: 'endpoint_id', in: 'path', required: true, schema: { type: 'string', pattern: '^we_' } };
/** The answer shows a secret, which is not stored for a replay (D17). */
const noIdempotency = 'An Idempotency-Key is not honoured here: the answer carries a secret, which is never stored.';
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

/** Query parameters of a list's filters, each with the schema from the contract that checks it (D21's lists and their exports). */
function filtersOf<Q extends TObject>(query: Q, descriptions: Partial<Record<keyof Q['properties'] & string, string>>) {
  return Object.entries(descriptions).map(([name, description]) => ({ name, in: 'query', required: false, schema: query.properties[name], description }));
}
const createdRange = (noun: string) => ({
  'created[gte]': `Only ${noun} created at or after this RFC 3339 instant.`,
  'created[lte]': `Only ${noun} created at or before this RFC 3339 instant; not before created[gte].`,
});
const transactionFilters = filtersOf(api.BalanceTransactionListQuery, {
  type: 'Only transactions of this type: payment, refund or refund_reversal.',
  session_id: "Only the transactions of this session (one of the account's).",
  ...createdRange('transactions'),
});
const refundFilters = filtersOf(api.RefundListQuery, {
  status: 'Only refunds in this status.',
  session_id: "Only the refunds of this session (one of the account's).",
  ...createdRange('refunds'),
});
/** A CSV export (D21): streamed, a header row of the JSON field names, RFC 4180 quoting, money as decimal strings, times in UTC. */
const csvExport = (rows: string) => ({
  description: `${rows}, newest first, as CSV (text/csv; charset=utf-8), streamed: a header row of the JSON field names, then one row each (RFC 4180 quoting, money as decimal strings, times in UTC ISO 8601, a cell starting with =, +, -, @, tab or carriage return prefixed with '). A transfer cut off before its end is a failed download, never a shorter file.`,
  headers: { 'Content-Disposition': { description: 'attachment; filename="<kind>-<test|live>-<UTC date>.csv"', schema: { type: 'string' } } },
  content: { 'text/csv': { schema: { type: 'string' } } },
});
const exportRefused = problem('Invalid filter, a paging parameter (limit, starting_after, ending_before: an export lists every matching row), or a parameter the list does not know.');

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
    // What merchants receive at their webhook URL (INTERFACE 6), one entry per event type, so SDKs can type it.
    webhooks: {
      ...Object.fromEntries(
        WEBHOOK_EVENTS.map((type) => [
          type,
          {
            post: {
              summary: webhookEvents[type],
              requestBody: { required: true, content: json('WebhookEvent') },
              responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
            },
          },
        ]),
      ),
      [endpoints.ENDPOINT_DISABLED_EVENT]: {
        post: {
          summary: 'An endpoint failed every attempt for the configured time (3 days by default) and was disabled; sent to the account\'s other endpoints.',
          requestBody: { required: true, content: json('WebhookEndpointDisabledEvent') },
          responses: { '200': { description: 'Any 2xx acknowledges it.' } },
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
          summary: "Cancel a CREATED, PENDING or AUTHORIZED session; an AUTHORIZED session's hold is released (D22).",
          parameters: [sessionId, idempotencyKey],
          responses: {
            '200': { description: 'Canceled.', content: json('SessionDetail') },
            '404': problem('No such session.'),
            '409': problem('A payment or a capture under way (conflict), or terminal (session-terminal).'),
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
      '/gateway/sessions/{session_id}/capture/': {
        post: {
          operationId: 'captureSession',
          summary: "Capture an AUTHORIZED session's hold, all of it (no body) or amount of it, the rest released; once per session (D22). Counts against the refund rate budget.",
          parameters: [sessionId, idempotencyKey],
          requestBody: { required: false, content: json('CaptureRequest') },
          responses: {
            '200': { description: 'Captured: the session, SUCCEEDED, with amount_captured.', content: json('SessionDetail') },
            '404': problem('No such session.'),
            '409': problem('Terminal (session-terminal), or a capture of this session under way (conflict).'),
            '422': problem(
              'Validation failure (amount: invalid_type, invalid_format, invalid_precision, invalid_value, or amount_too_large above amount_authorized), invalid-state (not AUTHORIZED) or capture-failed (the acquirer refused; the session stays AUTHORIZED).',
            ),
            '502': problem('processor-unavailable: the acquirer could not be reached or did not confirm in time; the session stays AUTHORIZED until the outcome is known. A retry with the same Idempotency-Key answers 409 conflict while it is not, and the captured session once it is.'),
            ...common,
          },
        },
      },
      '/gateway/sessions/{session_id}/refund/': {
        post: {
          operationId: 'refundSession',
          summary: 'Refund a SUCCEEDED session, fully or partly, up to its captured amount.',
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
      '/gateway/refunds/': {
        get: {
          operationId: 'listRefunds',
          summary: 'Every refund of the account in this mode, newest first (D21).',
          parameters: [limit, cursor('starting_after', 'Refunds created before this one; it must match the filters given with it.'), cursor('ending_before', 'Refunds created after this one; it must match the filters given with it.'), ...refundFilters],
          responses: { '200': { description: 'Newest first.', content: json('RefundPage') }, '422': problem('Invalid query, or a query parameter the list does not know.'), ...common },
        },
      },
      '/gateway/balance_transactions/': {
        get: {
          operationId: 'listBalanceTransactions',
          summary: 'Every money movement of the account in this mode (payments with their fees, refunds, refunds given back), newest first (D21).',
          parameters: [
            limit,
            cursor('starting_after', 'Transactions created before this one; it must match the filters given with it.'),
            cursor('ending_before', 'Transactions created after this one; it must match the filters given with it.'),
            ...transactionFilters,
          ],
          responses: { '200': { description: 'Newest first.', content: json('BalanceTransactionList') }, '422': problem('Invalid query, or a query parameter the list does not know.'), ...common },
        },
      },
      '/gateway/balance/': {
        get: {
          operationId: 'getBalance',
          summary: 'The net of every balance transaction, available (available_on today or before, Africa/Tunis) and pending (D21).',
          responses: { '200': { description: 'The balance.', content: json('Balance') }, ...common },
        },
      },
      '/gateway/reports/daily/': {
        get: {
          operationId: 'getDailyReport',
          summary: "One row per Africa/Tunis day from `from` to `to`, both included, every day present: the sums of that day's balance transactions (D21).",
          parameters: [
            { name: 'from', in: 'query', required: true, schema: api.DailyReportQuery.properties.from, description: 'First day, YYYY-MM-DD (Africa/Tunis).' },
            { name: 'to', in: 'query', required: true, schema: api.DailyReportQuery.properties.to, description: 'Last day, YYYY-MM-DD, not before from; at most 366 days in all.' },
          ],
          responses: {
            '200': { description: 'Every day of the range, oldest first.', content: json('DailyReport') },
            '422': problem('from or to missing or not a date, to before from, more than 366 days, or a parameter the report does not know.'),
            ...common,
          },
        },
      },
      '/gateway/exports/sessions.csv': {
        get: {
          operationId: 'exportSessions',
          summary: "Every session matching the list's filters, as CSV (D21).",
          parameters: sessionFilters,
          responses: { '200': csvExport('Every matching session'), '422': exportRefused, ...common },
        },
      },
      '/gateway/exports/refunds.csv': {
        get: {
          operationId: 'exportRefunds',
          summary: "Every refund matching the list's filters, as CSV (D21).",
          parameters: refundFilters,
          responses: { '200': csvExport('Every matching refund'), '422': exportRefused, ...common },
        },
      },
      '/gateway/exports/balance_transactions.csv': {
        get: {
          operationId: 'exportBalanceTransactions',
          summary: "Every balance transaction matching the list's filters, as CSV (D21).",
          parameters: transactionFilters,
          responses: { '200': csvExport('Every matching balance transaction'), '422': exportRefused, ...common },
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
          parameters: [
            limit,
            cursor('starting_after', 'Deliveries created before this one.'),
            cursor('ending_before', 'Deliveries created after this one.'),
            { name: 'status', in: 'query', required: false, schema: api.WebhookListQuery.properties.status, description: 'Only attempts in this status (FAILED: the failed ones). Any other parameter is refused.' },
          ],
          responses: { '200': { description: 'Newest first.', content: json('WebhookDeliveryList') }, '422': problem('Invalid query.'), ...common },
        },
      },
      '/gateway/payment_links/': {
        post: {
          operationId: 'createPaymentLink',
          summary: 'Create a payment link (D19): a public page at url where buyers pay a fixed price or an amount they type; each payment is a session. Counts against the create rate budget.',
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json('CreatePaymentLinkRequest') },
          responses: {
            '201': { description: 'Created: its url and qr_svg_url (url + /qr.svg, /qr.png for a PNG), public, no authentication.', content: json('PaymentLink') },
            '413': problem('Body over 64 KiB.'),
            '422': problem('Validation failed (every field at once: amounts as decimal strings at the precision of their currency, bounds, unknown fields...).'),
            ...common,
          },
        },
        get: {
          operationId: 'listPaymentLinks',
          parameters: [limit, cursor('starting_after', 'Links created before this one.'), cursor('ending_before', 'Links created after this one.')],
          responses: { '200': { description: 'Newest first.', content: json('PaymentLinkList') }, '422': problem('Invalid query, or a query parameter the list does not know.'), ...common },
        },
      },
      '/gateway/payment_links/{payment_link_id}/': {
        get: {
          operationId: 'getPaymentLink',
          parameters: [paymentLinkId],
          responses: { '200': { description: 'The link, with payments_count (its succeeded sessions).', content: json('PaymentLink') }, '404': problem('No such payment link.'), ...common },
        },
      },
      '/gateway/payment_links/{payment_link_id}/deactivate/': {
        post: {
          operationId: 'deactivatePaymentLink',
          summary: 'The link takes no more payments: its page answers 410. Sessions already made go on.',
          parameters: [paymentLinkId, idempotencyKey],
          responses: { '200': { description: 'Deactivated (active: false).', content: json('PaymentLink') }, '404': problem('No such payment link.'), ...common },
        },
      },
      '/gateway/webhook_endpoints/': {
        post: {
          operationId: 'createWebhookEndpoint',
          summary: 'Add a webhook endpoint; its secret is in this answer only.',
          description: noIdempotency,
          requestBody: { required: true, content: json('CreateWebhookEndpointRequest') },
          responses: {
            '201': { description: 'Created, with its signing secret.', content: json('WebhookEndpointWithSecret') },
            '409': problem('The account has the most endpoints allowed in this mode.'),
            '422': problem('Validation failed (a URL the address rule refuses, an unknown event type...).'),
            ...common,
          },
        },
        get: {
          operationId: 'listWebhookEndpoints',
          responses: { '200': { description: 'Every endpoint of the account in this mode, oldest first.', content: json('WebhookEndpointList') }, ...common },
        },
      },
      '/gateway/webhook_endpoints/{endpoint_id}/': {
        get: {
          operationId: 'getWebhookEndpoint',
          parameters: [endpointId],
          responses: { '200': { description: 'The endpoint.', content: json('WebhookEndpoint') }, '404': problem('No such endpoint.'), ...common },
        },
        patch: {
          operationId: 'updateWebhookEndpoint',
          parameters: [endpointId],
          requestBody: { required: true, content: json('UpdateWebhookEndpointRequest') },
          responses: {
            '200': { description: 'The endpoint as changed.', content: json('WebhookEndpoint') },
            '404': problem('No such endpoint.'),
            '422': problem('Validation failed.'),
            ...common,
          },
        },
        delete: {
          operationId: 'deleteWebhookEndpoint',
          parameters: [endpointId],
          responses: { '200': { description: 'Deleted; its attempts not yet made end as failed.', content: json('WebhookEndpointDeleted') }, '404': problem('No such endpoint.'), ...common },
        },
      },
      '/gateway/webhook_endpoints/{endpoint_id}/rotate_secret/': {
        post: {
          operationId: 'rotateWebhookEndpointSecret',
          summary: 'A new secret; the previous one also signs (second v1 entry) for 24 hours (D11).',
          description: noIdempotency,
          parameters: [endpointId],
          responses: { '200': { description: 'The endpoint with its new secret.', content: json('WebhookEndpointWithSecret') }, '404': problem('No such endpoint.'), ...common },
        },
      },
      '/gateway/webhook_endpoints/{endpoint_id}/replay/': {
        post: {
          operationId: 'replayWebhookEndpoint',
          summary: 'Send again the events the endpoint wants, created since a time: one page per call (refund rate budget).',
          parameters: [endpointId, idempotencyKey],
          requestBody: { required: true, content: json('ReplayWebhookEndpointRequest') },
          responses: {
            '202': { description: 'Queued; has_more with the next call\'s since and starting_after.', content: json('WebhookReplayResult') },
            '404': problem('No such endpoint.'),
            '409': problem('The endpoint is disabled.'),
            '422': problem('Validation failed (since older than the retention period...).'),
            ...common,
          },
        },
      },
    },
  };
}
