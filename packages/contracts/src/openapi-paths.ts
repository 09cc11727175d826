/**
 * The paths of the OpenAPI document (openapi.ts): every operation of the
 * public API, its parameters and its answers.
 */
import * as api from './api.js';
import { common, csvExport, cursor, customerId, endpointId, exportRefused, exportsBusy, idempotencyKey, json, limit, NO_BODY, noParameters, paymentLinkId, paymentMethodId, problem, refundFilters, secretIdempotencyKey, sessionFilters, sessionId, transactionFilters } from './openapi-parts.js';

/** Every path of the public API, by URL template (below /api/v1), in the order the document lists them. */
export function openApiPaths(): Record<string, unknown> {
  return {
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
          '422': noParameters,
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
        responses: { '200': { description: 'The session.', content: json('SessionDetail') }, '404': problem('No such session.'), '422': noParameters, ...common },
      },
    },
    '/gateway/sessions/{session_id}/cancel/': {
      post: {
        operationId: 'cancelSession',
        summary: "Cancel a CREATED, PENDING or AUTHORIZED session; an AUTHORIZED session's hold is released (D22).",
        description: NO_BODY,
        parameters: [sessionId, idempotencyKey],
        responses: {
          '200': { description: 'Canceled.', content: json('SessionDetail') },
          '404': problem('No such session.'),
          '409': problem('A payment or a capture under way (conflict), or terminal (session-terminal).'),
          '422': problem('A request body (validation-error), or an Idempotency-Key used with another request (idempotency-key-reused).'),
          ...common,
        },
      },
    },
    '/gateway/sessions/{session_id}/checkout/': {
      post: {
        operationId: 'issueCheckoutLink',
        description: NO_BODY,
        parameters: [sessionId, idempotencyKey],
        responses: {
          '201': { description: 'A new hosted-page link.', content: json('CheckoutLink') },
          '404': problem('No such session.'),
          '409': problem('Processing (conflict) or terminal (session-terminal).'),
          '422': problem('checkout-limit-exceeded: five active links already; a request body (validation-error); an Idempotency-Key used with another request (idempotency-key-reused).'),
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
        responses: { '200': { description: 'The session\'s refunds, oldest first.', content: json('RefundList') }, '404': problem('No such session.'), '422': noParameters, ...common },
      },
    },
    '/gateway/refunds/{refund_id}/': {
      get: {
        operationId: 'getRefund',
        parameters: [{ name: 'refund_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The refund.', content: json('Refund') }, '404': problem('No such refund.'), '422': noParameters, ...common },
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
        responses: { '200': { description: 'The balance.', content: json('Balance') }, '422': noParameters, ...common },
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
        responses: { '200': csvExport('Every matching session'), '422': exportRefused, ...common, '429': exportsBusy },
      },
    },
    '/gateway/exports/refunds.csv': {
      get: {
        operationId: 'exportRefunds',
        summary: "Every refund matching the list's filters, as CSV (D21).",
        parameters: refundFilters,
        responses: { '200': csvExport('Every matching refund'), '422': exportRefused, ...common, '429': exportsBusy },
      },
    },
    '/gateway/exports/balance_transactions.csv': {
      get: {
        operationId: 'exportBalanceTransactions',
        summary: "Every balance transaction matching the list's filters, as CSV (D21).",
        parameters: transactionFilters,
        responses: { '200': csvExport('Every matching balance transaction'), '422': exportRefused, ...common, '429': exportsBusy },
      },
    },
    '/gateway/sessions/{session_id}/webhooks/': {
      get: {
        operationId: 'listSessionWebhooks',
        parameters: [sessionId, { ...limit, schema: { ...limit.schema, default: 100 } }, cursor('starting_after', 'Deliveries created before this one.'), cursor('ending_before', 'Deliveries created after this one.')],
        responses: {
          '200': { description: 'Most recent first.', content: json('WebhookDeliveryList') },
          '404': problem('No such session.'),
          '422': problem('Invalid query, or a query parameter the list does not know.'),
          ...common,
        },
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
          '422': problem('Validation failed (every field at once: amounts as decimal strings at the precision of their currency, bounds, unknown fields...); then a currency without a rate (currency_unsupported on currency, as a session).'),
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
        responses: { '200': { description: 'The link, with payments_count (its succeeded sessions).', content: json('PaymentLink') }, '404': problem('No such payment link.'), '422': noParameters, ...common },
      },
    },
    '/gateway/payment_links/{payment_link_id}/deactivate/': {
      post: {
        operationId: 'deactivatePaymentLink',
        summary: 'The link takes no more payments: its page answers 410, its open sessions are canceled (session.canceled), and its sessions take no more cards; a payment already under way finishes.',
        description: NO_BODY,
        parameters: [paymentLinkId, idempotencyKey],
        responses: {
          '200': { description: 'Deactivated (active: false).', content: json('PaymentLink') },
          '404': problem('No such payment link.'),
          '422': problem('A request body (validation-error), or an Idempotency-Key used with another request (idempotency-key-reused).'),
          ...common,
        },
      },
    },
    '/gateway/customers/': {
      post: {
        operationId: 'createCustomer',
        summary: "Create a customer (D24): someone who pays the merchant again, whose cards may be saved. Idempotent on external_id (the merchant's own id of the customer). Counts against the create rate budget.",
        parameters: [idempotencyKey],
        requestBody: { required: true, content: json('CreateCustomerRequest') },
        responses: {
          '201': { description: 'Created.', content: json('Customer') },
          '200': { description: 'The existing customer with this external_id.', content: json('Customer') },
          '413': problem('Body over 64 KiB.'),
          '422': problem('Validation failed (every field at once).'),
          ...common,
        },
      },
      get: {
        operationId: 'listCustomers',
        parameters: [
          limit,
          cursor('starting_after', 'Customers created before this one.'),
          cursor('ending_before', 'Customers created after this one.'),
          { name: 'email', in: 'query', required: false, schema: { type: 'string', maxLength: 255 }, description: 'Only the customers with this email (exact).' },
          { name: 'external_id', in: 'query', required: false, schema: { type: 'string', maxLength: 100 }, description: 'Only the customer with this external_id.' },
        ],
        responses: { '200': { description: 'Newest first; deleted customers are not listed.', content: json('CustomerList') }, '422': problem('Invalid query, or a query parameter the list does not know.'), ...common },
      },
    },
    '/gateway/customers/{customer_id}/': {
      get: {
        operationId: 'getCustomer',
        parameters: [customerId],
        responses: { '200': { description: 'The customer, with its saved cards.', content: json('Customer') }, '404': problem('No such customer (or deleted).'), '422': noParameters, ...common },
      },
      delete: {
        operationId: 'deleteCustomer',
        summary: 'Delete a customer: its saved cards are removed at the acquirer and can never be charged again; its sessions stay.',
        description: NO_BODY,
        parameters: [customerId],
        responses: { '200': { description: 'Deleted.', content: json('Deleted') }, '404': problem('No such customer (or deleted already).'), '422': problem('A request body.'), ...common },
      },
    },
    '/gateway/customers/{customer_id}/payment_methods/': {
      get: {
        operationId: 'listPaymentMethods',
        parameters: [customerId],
        responses: { '200': { description: "The customer's saved cards, oldest first (has_more is false: a customer's cards are one page).", content: json('PaymentMethodList') }, '404': problem('No such customer.'), '422': noParameters, ...common },
      },
    },
    '/gateway/customers/{customer_id}/payment_methods/{payment_method_id}/': {
      delete: {
        operationId: 'deletePaymentMethod',
        summary: 'Remove a saved card: removed at the acquirer, it can never be charged again.',
        description: NO_BODY,
        parameters: [customerId, paymentMethodId],
        responses: { '200': { description: 'Removed.', content: json('Deleted') }, '404': problem('No such customer, or no such card of it.'), '422': problem('A request body.'), ...common },
      },
    },
    '/gateway/webhook_endpoints/': {
      post: {
        operationId: 'createWebhookEndpoint',
        summary: 'Add a webhook endpoint; its secret is in this answer only (and its replay under the same Idempotency-Key).',
        parameters: [secretIdempotencyKey],
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
        responses: { '200': { description: 'Every endpoint of the account in this mode, oldest first.', content: json('WebhookEndpointList') }, '422': noParameters, ...common },
      },
    },
    '/gateway/webhook_endpoints/{endpoint_id}/': {
      get: {
        operationId: 'getWebhookEndpoint',
        parameters: [endpointId],
        responses: { '200': { description: 'The endpoint.', content: json('WebhookEndpoint') }, '404': problem('No such endpoint.'), '422': noParameters, ...common },
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
        description: NO_BODY,
        parameters: [endpointId],
        responses: {
          '200': { description: 'Deleted; its attempts not yet made end as failed.', content: json('WebhookEndpointDeleted') },
          '404': problem('No such endpoint.'),
          '422': problem('A request body.'),
          ...common,
        },
      },
    },
    '/gateway/webhook_endpoints/{endpoint_id}/rotate_secret/': {
      post: {
        operationId: 'rotateWebhookEndpointSecret',
        summary: 'A new secret; the previous one also signs (second v1 entry) for 24 hours (D11).',
        description: NO_BODY,
        parameters: [endpointId, secretIdempotencyKey],
        responses: {
          '200': { description: 'The endpoint with its new secret.', content: json('WebhookEndpointWithSecret') },
          '404': problem('No such endpoint.'),
          '422': problem('A request body (validation-error), or an Idempotency-Key used with another request (idempotency-key-reused).'),
          ...common,
        },
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
  };
}
