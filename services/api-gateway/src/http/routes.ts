/**
 * The API's routes (INTERFACE 4) and the command each one becomes. Paths are
 * route paths relative to /api/v1 (`:id` a parameter); they match with or
 * without the trailing slash (D1).
 */
import type { ApiContext, CommandRequest, CommandType } from '@gateway/contracts';
import type { Budget } from '../db/merchant.repository.js';

interface RouteInput {
  context: ApiContext;
  /** The path's parameters, decoded (`id`). */
  params: Readonly<Record<string, string>>;
  body: unknown;
  query: Record<string, unknown>;
}

export interface Route {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly command: CommandType;
  /** The route's own budget on top of the account budget. */
  readonly budget?: Budget;
  /** Whether the route reads a JSON body; `optional`: none at all is taken as `{}`; false: a body is refused (D29). */
  readonly hasBody: boolean | 'optional';
  /**
   * Whether the command is sent the query and checks it itself (a list's
   * filters and paging); a GET without it takes no query parameter (D29).
   */
  readonly takesQuery?: true;
  /**
   * Whether the answer shows a secret: kept for an Idempotency-Key replay
   * only encrypted, never in clear (D17).
   */
  readonly answerHoldsSecret?: true;
  readonly request: (input: RouteInput) => CommandRequest<CommandType>;
  /** The command sent instead when the body asks for work that waits on the acquirer (its slow lane and deadline, and the caller's address in the context). */
  readonly slow?: { readonly command: CommandType; readonly when: (body: unknown) => boolean };
}

const sessionRef = ({ context, params }: RouteInput) => ({ context, session_id: params['id'] ?? '' });
const endpointRef = ({ context, params }: RouteInput) => ({ context, endpoint_id: params['id'] ?? '' });
const paymentLinkRef = ({ context, params }: RouteInput) => ({ context, payment_link_id: params['id'] ?? '' });
const customerRef = ({ context, params }: RouteInput) => ({ context, customer_id: params['id'] ?? '' });
const endpointBody = ({ context, params, body }: RouteInput) => ({ context, endpoint_id: params['id'] ?? '', body });

export const routes: readonly Route[] = [
  {
    method: 'POST',
    path: '/gateway/sessions',
    command: 'session.create',
    budget: 'create',
    hasBody: true,
    request: ({ context, body }) => ({ context, body }),
    // D24: a charge without the buyer waits on the acquirer; the same use case, on the slow lane.
    slow: { command: 'session.charge', when: (body) => typeof body === 'object' && body !== null && (body as { off_session?: unknown }).off_session === true },
  },
  { method: 'GET', path: '/gateway/sessions/list', command: 'session.list', hasBody: false, takesQuery: true, request: ({ context, query }) => ({ context, query }) },
  { method: 'GET', path: '/gateway/sessions/:id', command: 'session.get', hasBody: false, request: sessionRef },
  { method: 'POST', path: '/gateway/sessions/:id/cancel', command: 'session.cancel', hasBody: false, request: sessionRef },
  { method: 'POST', path: '/gateway/sessions/:id/checkout', command: 'session.issue_checkout', budget: 'create', hasBody: false, request: sessionRef },
  {
    method: 'POST',
    path: '/gateway/sessions/:id/refund',
    command: 'refund.create',
    budget: 'refund',
    hasBody: true,
    request: ({ context, params, body }) => ({ context, session_id: params['id'] ?? '', body }),
  },
  // D22: counts against the refund budget.
  {
    method: 'POST',
    path: '/gateway/sessions/:id/capture',
    command: 'session.capture',
    budget: 'refund',
    hasBody: 'optional',
    request: ({ context, params, body }) => ({ context, session_id: params['id'] ?? '', body }),
  },
  { method: 'GET', path: '/gateway/sessions/:id/refunds', command: 'refund.list_session', hasBody: false, request: sessionRef },
  { method: 'GET', path: '/gateway/refunds', command: 'refund.list', hasBody: false, takesQuery: true, request: ({ context, query }) => ({ context, query }) },
  { method: 'GET', path: '/gateway/refunds/:id', command: 'refund.get', hasBody: false, request: ({ context, params }) => ({ context, refund_id: params['id'] ?? '' }) },
  {
    method: 'GET',
    path: '/gateway/sessions/:id/webhooks',
    command: 'webhook.list_session',
    hasBody: false,
    takesQuery: true,
    request: ({ context, params, query }) => ({ context, session_id: params['id'] ?? '', query }),
  },
  { method: 'GET', path: '/gateway/webhooks', command: 'webhook.list', hasBody: false, takesQuery: true, request: ({ context, query }) => ({ context, query }) },
  // Webhook endpoints the merchant manages (issue 19).
  { method: 'POST', path: '/gateway/webhook_endpoints', command: 'webhook_endpoint.create', hasBody: true, answerHoldsSecret: true, request: ({ context, body }) => ({ context, body }) },
  { method: 'GET', path: '/gateway/webhook_endpoints', command: 'webhook_endpoint.list', hasBody: false, request: ({ context }) => ({ context }) },
  { method: 'GET', path: '/gateway/webhook_endpoints/:id', command: 'webhook_endpoint.get', hasBody: false, request: endpointRef },
  { method: 'PATCH', path: '/gateway/webhook_endpoints/:id', command: 'webhook_endpoint.update', hasBody: true, request: endpointBody },
  { method: 'DELETE', path: '/gateway/webhook_endpoints/:id', command: 'webhook_endpoint.delete', hasBody: false, request: endpointRef },
  { method: 'POST', path: '/gateway/webhook_endpoints/:id/rotate_secret', command: 'webhook_endpoint.roll_secret', hasBody: false, answerHoldsSecret: true, request: endpointRef },
  // A replay queues up to a page of deliveries: it is charged to the refund budget, the lowest (INTERFACE 8).
  { method: 'POST', path: '/gateway/webhook_endpoints/:id/replay', command: 'webhook_endpoint.replay', budget: 'refund', hasBody: true, request: endpointBody },
  // Money reports (D21), from the ledger.
  { method: 'GET', path: '/gateway/balance_transactions', command: 'ledger.list_transactions', hasBody: false, takesQuery: true, request: ({ context, query }) => ({ context, query }) },
  { method: 'GET', path: '/gateway/balance', command: 'ledger.balance', hasBody: false, request: ({ context }) => ({ context }) },
  { method: 'GET', path: '/gateway/reports/daily', command: 'ledger.daily_report', hasBody: false, takesQuery: true, request: ({ context, query }) => ({ context, query }) },
  // Customers and their saved cards (D24), from the session service.
  { method: 'POST', path: '/gateway/customers', command: 'customer.create', budget: 'create', hasBody: true, request: ({ context, body }) => ({ context, body }) },
  { method: 'GET', path: '/gateway/customers', command: 'customer.list', hasBody: false, takesQuery: true, request: ({ context, query }) => ({ context, query }) },
  { method: 'GET', path: '/gateway/customers/:id', command: 'customer.get', hasBody: false, request: customerRef },
  { method: 'DELETE', path: '/gateway/customers/:id', command: 'customer.delete', hasBody: false, request: customerRef },
  { method: 'GET', path: '/gateway/customers/:id/payment_methods', command: 'payment_method.list', hasBody: false, request: customerRef },
  {
    method: 'DELETE',
    path: '/gateway/customers/:id/payment_methods/:pm',
    command: 'payment_method.delete',
    hasBody: false,
    request: ({ context, params }) => ({ context, customer_id: params['id'] ?? '', payment_method_id: params['pm'] ?? '' }),
  },
  // Payment links (D19), from checkout; a link is a way to make sessions, so its creation takes the create budget.
  { method: 'POST', path: '/gateway/payment_links', command: 'payment_link.create', budget: 'create', hasBody: true, request: ({ context, body }) => ({ context, body }) },
  { method: 'GET', path: '/gateway/payment_links', command: 'payment_link.list', hasBody: false, takesQuery: true, request: ({ context, query }) => ({ context, query }) },
  { method: 'GET', path: '/gateway/payment_links/:id', command: 'payment_link.get', hasBody: false, request: paymentLinkRef },
  { method: 'POST', path: '/gateway/payment_links/:id/deactivate', command: 'payment_link.deactivate', hasBody: false, request: paymentLinkRef },
];
