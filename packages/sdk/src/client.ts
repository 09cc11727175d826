/**
 * The API client. `request` reaches every operation of the OpenAPI document
 * (the generated table), so an operation added to the API is callable after
 * `npm run gen:sdk` with no hand-written code; the resource methods below are
 * the same calls with friendlier names.
 */
import { operations, type OperationId, type Operations } from './generated/openapi.js';
import type { BalanceTransaction, CaptureRequest, CreateCustomerRequest, CreatePaymentLinkRequest, CreateSessionRequest, Customer, PaymentLink, Refund, RefundRequest, SessionListItem, WebhookDelivery } from './generated/openapi.js';
import { PagedList, type Cursor } from './pagination.js';
import { Transport } from './transport.js';
import { Events } from './events.js';
import { Exports } from './exports.js';
import { Webhooks } from './webhooks/construct-event.js';

export interface GatewayOptions {
  /** The gateway's address (PUBLIC_BASE_URL), without /api/v1. Default http://localhost:8080. */
  baseUrl?: string;
  /** Retries of network errors, 429, 500 and 502 after the first attempt (INTERFACE 7.1). Default 2. */
  maxRetries?: number;
  /** Deadline of one attempt. Default 60 000 ms: a refund may wait on the acquirer for the gateway's 30 s and answer after. */
  timeoutMs?: number;
  /** First backoff pause, doubled per retry with jitter. Default 500 ms. */
  initialRetryDelayMs?: number;
  /** Longest pause between two attempts, Retry-After included. Default 10 000 ms. */
  maxRetryDelayMs?: number;
  /** A fetch to use instead of the global one (a proxy agent, or a test double). */
  fetch?: typeof fetch;
}

/** Per-call options. */
export interface RequestOptions {
  /** The Idempotency-Key of a POST; by default a fresh uuid v4, kept across the call's retries. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** What one operation takes: path parameters only when its path has some, a body only when it has one (optional when the API's is). */
type Input<Op extends OperationId> = (Record<string, never> extends Operations[Op]['pathParams'] ? { params?: Operations[Op]['pathParams'] } : { params: Operations[Op]['pathParams'] }) & {
  query?: Operations[Op]['query'];
} & ([Operations[Op]['body']] extends [never] ? { body?: undefined } : undefined extends Operations[Op]['body'] ? { body?: Operations[Op]['body'] } : { body: Operations[Op]['body'] });

/**
 * A list over `query` (its filters, whatever the OpenAPI document gives the
 * operation), each page at its own cursor: ending_before when the query has
 * one (walking toward newer items), else starting_after.
 */
function paged<Q extends Cursor, T>(query: Q, fetchPage: (query: Q) => Promise<{ data: T[]; has_more?: boolean }>, idOf?: (item: T) => string): PagedList<T> {
  const { starting_after, ending_before, ...filters } = query;
  const first: Cursor = ending_before !== undefined ? { ending_before } : starting_after !== undefined ? { starting_after } : {};
  return new PagedList((cursor) => fetchPage({ ...filters, ...cursor } as Q), first, idOf);
}

export class Gateway {
  readonly sessions: Sessions;
  readonly refunds: Refunds;
  readonly webhookDeliveries: WebhookDeliveries;
  /** Every money movement of the account (D21): payments with their fees, refunds, refunds given back. */
  readonly balanceTransactions: BalanceTransactions;
  /** What the account holds, available and pending (D21). */
  readonly balance: BalanceResource;
  /** The daily totals (D21). */
  readonly reports: Reports;
  /** Payment links (D19): public pages where buyers pay without any code of yours. */
  readonly paymentLinks: PaymentLinks;
  /** Customers and their saved cards (D24). */
  readonly customers: Customers;
  /** The CSV exports, downloaded to a file (D21). */
  readonly exports = new Exports(this);
  /** The test-mode event stream (what `gateway listen` forwards). */
  readonly events = new Events(this);
  /** Verifying the webhooks the gateway sends you. */
  readonly webhooks = new Webhooks();
  /** @internal the transport, shared with the CLI. */
  readonly transport: Transport;

  constructor(secretKey: string, options: GatewayOptions = {}) {
    if (typeof secretKey !== 'string' || !/^sk_(test|live)_/.test(secretKey)) throw new TypeError('secretKey must be an sk_test_... or sk_live_... API key');
    this.transport = new Transport({
      baseUrl: options.baseUrl ?? 'http://localhost:8080',
      secretKey,
      maxRetries: options.maxRetries ?? 2,
      timeoutMs: options.timeoutMs ?? 60_000,
      initialRetryDelayMs: options.initialRetryDelayMs ?? 500,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 10_000,
      fetch: options.fetch ?? globalThis.fetch,
      userAgent: 'gateway-sdk-node/1.0.0',
    });
    this.sessions = new Sessions(this);
    this.refunds = new Refunds(this);
    this.webhookDeliveries = new WebhookDeliveries(this);
    this.balanceTransactions = new BalanceTransactions(this);
    this.balance = new BalanceResource(this);
    this.reports = new Reports(this);
    this.paymentLinks = new PaymentLinks(this);
    this.customers = new Customers(this);
  }

  /** Calls any operation of the API by its OpenAPI operationId. */
  async request<Op extends OperationId>(operationId: Op, input: Input<Op>, options: RequestOptions = {}): Promise<Operations[Op]['response']> {
    const operation = operations[operationId];
    if (operation.stream === 'events') throw new TypeError(`${operationId} is an endless stream: use gateway.events.stream()`);
    if (operation.stream === 'csv') throw new TypeError(`${operationId} is a CSV download: use gateway.exports.download()`);
    const params = (input.params ?? {}) as Record<string, string>;
    const path = operation.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
      const value = params[name];
      if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${operationId} needs the path parameter ${name}`);
      return encodeURIComponent(value);
    });
    const answer = await this.transport.call({
      method: operation.method,
      path,
      query: input.query as Record<string, string | number | undefined> | undefined,
      body: input.body,
      ...options,
    });
    return answer.body as Operations[Op]['response'];
  }
}

class Sessions {
  constructor(private readonly gateway: Gateway) {}

  /** Creates a session; the same merchant_reference returns the existing one (INTERFACE 4.1). */
  create(body: CreateSessionRequest, options?: RequestOptions) {
    return this.gateway.request('createSession', { body }, options);
  }

  get(sessionId: string) {
    return this.gateway.request('getSession', { params: { session_id: sessionId } });
  }

  /** Every session, newest first: `for await` it, or `.page()` for one page. */
  list(query: Operations['listSessions']['query'] = {}): PagedList<SessionListItem> {
    return paged(query, (pageQuery) => this.gateway.request('listSessions', { query: pageQuery }));
  }

  cancel(sessionId: string, options?: RequestOptions) {
    return this.gateway.request('cancelSession', { params: { session_id: sessionId } }, options);
  }

  /** A fresh hosted-checkout link for the session. */
  issueCheckoutLink(sessionId: string, options?: RequestOptions) {
    return this.gateway.request('issueCheckoutLink', { params: { session_id: sessionId } }, options);
  }

  /**
   * Captures an AUTHORIZED session's hold (a `capture_method: 'manual'` session, D22): all of it, or
   * `amount` (TND) of it with the rest released. Once per session; a retried call never captures twice
   * (one Idempotency-Key per call). Answers the session, SUCCEEDED with `amount_captured`.
   */
  capture(sessionId: string, body: CaptureRequest = {}, options?: RequestOptions) {
    return this.gateway.request('captureSession', { params: { session_id: sessionId }, body }, options);
  }

  /** Refunds a succeeded session, fully or partly, up to what was captured; a retried call never refunds twice (one Idempotency-Key per call). */
  refund(sessionId: string, body: RefundRequest, options?: RequestOptions) {
    return this.gateway.request('refundSession', { params: { session_id: sessionId }, body }, options);
  }

  /** The session's refunds, oldest first. */
  async listRefunds(sessionId: string) {
    return (await this.gateway.request('listSessionRefunds', { params: { session_id: sessionId } })).data;
  }

  /** The session's webhook deliveries, most recent first. */
  listWebhookDeliveries(sessionId: string, query: Operations['listSessionWebhooks']['query'] = {}): PagedList<WebhookDelivery> {
    return paged(query, (pageQuery) => this.gateway.request('listSessionWebhooks', { params: { session_id: sessionId }, query: pageQuery }));
  }
}

class Refunds {
  constructor(private readonly gateway: Gateway) {}

  get(refundId: string) {
    return this.gateway.request('getRefund', { params: { refund_id: refundId } });
  }

  /** Every refund of the account, newest first (D21), narrowed by the query's filters: `for await` it, or `.page()` for one page. */
  list(query?: Operations['listRefunds']['query']): PagedList<Refund>;
  /** @deprecated A session's refunds, oldest first: use sessions.listRefunds(sessionId), or list({ session_id }) for them newest first across pages. */
  list(sessionId: string): Promise<Refund[]>;
  list(query: Operations['listRefunds']['query'] | string = {}): PagedList<Refund> | Promise<Refund[]> {
    if (typeof query === 'string') return this.gateway.request('listSessionRefunds', { params: { session_id: query } }).then((answer) => answer.data);
    return paged(query, (pageQuery) => this.gateway.request('listRefunds', { query: pageQuery }), (refund) => refund.refund_id);
  }
}

class BalanceTransactions {
  constructor(private readonly gateway: Gateway) {}

  /** Every balance transaction, newest first, narrowed by the query's filters: `for await` it, or `.page()` for one page. Money is signed decimal strings (a refund is negative). */
  list(query: Operations['listBalanceTransactions']['query'] = {}): PagedList<BalanceTransaction> {
    return paged(query, (pageQuery) => this.gateway.request('listBalanceTransactions', { query: pageQuery }));
  }
}

class BalanceResource {
  constructor(private readonly gateway: Gateway) {}

  /** The net of every balance transaction: `available` (available_on today or before, Africa/Tunis) and `pending`, TND decimal strings. */
  retrieve() {
    return this.gateway.request('getBalance', {});
  }
}

class Reports {
  constructor(private readonly gateway: Gateway) {}

  /** One row per Africa/Tunis day from `from` to `to` (YYYY-MM-DD, both included, at most 366 days): payments_count, gross, fees, refunds, net. */
  daily(query: Operations['getDailyReport']['query']) {
    return this.gateway.request('getDailyReport', { query });
  }
}

class PaymentLinks {
  constructor(private readonly gateway: Gateway) {}

  /** Creates a payment link: a fixed price (amount, currency) or open_amount; its url and qr_svg_url are public. */
  create(body: CreatePaymentLinkRequest, options?: RequestOptions) {
    return this.gateway.request('createPaymentLink', { body }, options);
  }

  get(paymentLinkId: string) {
    return this.gateway.request('getPaymentLink', { params: { payment_link_id: paymentLinkId } });
  }

  /** Every payment link of the account, newest first: `for await` it, or `.page()` for one page. */
  list(query: Operations['listPaymentLinks']['query'] = {}): PagedList<PaymentLink> {
    return paged(query, (pageQuery) => this.gateway.request('listPaymentLinks', { query: pageQuery }));
  }

  /** The link takes no more payments (its page answers 410). */
  deactivate(paymentLinkId: string, options?: RequestOptions) {
    return this.gateway.request('deactivatePaymentLink', { params: { payment_link_id: paymentLinkId } }, options);
  }
}

class Customers {
  /** A customer's saved cards. */
  readonly paymentMethods: PaymentMethods;

  constructor(private readonly gateway: Gateway) {
    this.paymentMethods = new PaymentMethods(gateway);
  }

  /** Creates a customer; with an external_id the account already has, answers that customer. */
  create(body: CreateCustomerRequest = {}, options?: RequestOptions) {
    return this.gateway.request('createCustomer', { body }, options);
  }

  get(customerId: string) {
    return this.gateway.request('getCustomer', { params: { customer_id: customerId } });
  }

  /** The account's customers, newest first, by exact email or external_id if asked: `for await` it, or `.page()` for one page. */
  list(query: Operations['listCustomers']['query'] = {}): PagedList<Customer> {
    return paged(query, (pageQuery) => this.gateway.request('listCustomers', { query: pageQuery }));
  }

  /** Deletes a customer: its saved cards can never be charged again; its sessions stay. */
  delete(customerId: string) {
    return this.gateway.request('deleteCustomer', { params: { customer_id: customerId } });
  }
}

class PaymentMethods {
  constructor(private readonly gateway: Gateway) {}

  /** A customer's saved cards, oldest first. */
  async list(customerId: string) {
    return (await this.gateway.request('listPaymentMethods', { params: { customer_id: customerId } })).data;
  }

  /** Removes a saved card: it can never be charged again. */
  delete(customerId: string, paymentMethodId: string) {
    return this.gateway.request('deletePaymentMethod', { params: { customer_id: customerId, payment_method_id: paymentMethodId } });
  }
}

class WebhookDeliveries {
  constructor(private readonly gateway: Gateway) {}

  /** The account's webhook deliveries, newest first. */
  list(query: Operations['listWebhooks']['query'] = {}): PagedList<WebhookDelivery> {
    return paged(query, (pageQuery) => this.gateway.request('listWebhooks', { query: pageQuery }));
  }
}
