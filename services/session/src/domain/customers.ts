/**
 * Customers and their saved cards (D24), as the API and the dashboard manage
 * them: create (idempotent on external_id), read, list, delete, and a
 * customer's cards listed and removed, each only by the account (merchant and
 * mode) that owns them (D2).
 */
import {
  CreateCustomerRequest,
  CUSTOMER_ID,
  CustomerListQuery,
  fieldErrorsOf,
  findProtoKey,
  inRequestOrder,
  isJsonObject,
  listFilterErrors,
  newId,
  NOT_A_JSON_OBJECT,
  PAYMENT_METHOD_ID,
  protoKeyError,
  validatorOf,
  type ApiContext,
  type Customer,
  type CustomerList,
  type Deleted,
  type PaymentMethod,
  type PaymentMethodList,
  type SavedCard,
} from '@gateway/contracts';
import { eventEnvelope } from '@gateway/messaging';
import { AppError, parseListQuery, toPage, validationError, type FieldError } from '@gateway/problem';
import type { CustomerFilters, CustomerRepository, CustomerRow, PaymentMethodRow } from '../db/customer.repository.js';
import { accountOf, type Account } from './accounts.js';

export interface CustomerDeps {
  customers: CustomerRepository;
  clock: () => Date;
  /** Called after a commit that enqueued events, so the outbox relay sends them now. */
  afterCommit: () => void;
}

export interface CustomerCreateResult {
  status: 200 | 201;
  body: Customer;
}

const SCHEMA_ORDER = Object.keys(CreateCustomerRequest.properties);

/** POST /gateway/customers/: validates (every error at once); a known external_id answers its customer (200), as D3's replay. */
export async function createCustomer(deps: CustomerDeps, context: ApiContext, body: unknown): Promise<CustomerCreateResult> {
  const request = checkCustomerRequest(body);
  const row: CustomerRow = {
    id: newId('cus'),
    merchant_id: context.merchant_id,
    livemode: context.livemode,
    external_id: request.external_id ?? null,
    email: request.email ?? null,
    name: request.name ?? null,
    phone: request.phone ?? null,
    metadata: request.metadata ?? {},
    created_at: deps.clock(),
  };
  // Without an external_id every create makes a new customer; with one the account has, that customer answers.
  const { customer, created } = await deps.customers.insertOrFind(row);
  return created ? { status: 201, body: toCustomer(customer, []) } : { status: 200, body: await withCards(deps, customer) };
}

/** GET /gateway/customers/{id}/: another account's customer, or a deleted one, is not found (D2). */
export async function getCustomer(deps: CustomerDeps, context: ApiContext, id: string): Promise<Customer> {
  return withCards(deps, await findCustomer(deps, accountOf(context), id));
}

/** GET /gateway/customers/: newest first, cursors as every list (4.6, D6), filtered by exact email or external_id. */
export async function listCustomers(deps: CustomerDeps, context: ApiContext, query: Record<string, unknown>): Promise<CustomerList> {
  const account = accountOf(context);
  const errors = listFilterErrors(CustomerListQuery, query);
  const filters: CustomerFilters = {};
  for (const [field, key] of [
    ['email', 'email'],
    ['external_id', 'externalId'],
  ] as const) {
    const value = query[field];
    if (typeof value === 'string' && !errors.some((error) => error.field === field)) filters[key] = value;
  }
  const list = await parseListQuery(query, {
    noun: 'customer',
    otherErrors: errors,
    isOwnItem: async (id) => CUSTOMER_ID.test(id) && deps.customers.exists(account, id, filters),
  });
  const rows = await deps.customers.page(account, list.limit, { before: list.startingAfter, after: list.endingBefore }, filters);
  const { items, hasMore } = toPage(rows, list);
  const cards = await deps.customers.paymentMethods(items.map((row) => row.id));
  return { data: items.map((row) => toCustomer(row, cards.get(row.id) ?? [])), has_more: hasMore };
}

/**
 * DELETE /gateway/customers/{id}/: the customer is found no more and its
 * saved cards are detached, so none can be charged again; its sessions stay.
 * What it detached is answered for the caller to announce and unbind.
 */
export async function deleteCustomer(deps: CustomerDeps, context: ApiContext, id: string, correlationId: string): Promise<Deleted> {
  if (!CUSTOMER_ID.test(id)) throw notFound();
  const now = deps.clock();
  const detached = await deps.customers.delete(accountOf(context), id, now, detachedEvents(context, correlationId, now));
  if (!detached) throw notFound();
  if (detached.length > 0) deps.afterCommit();
  return { id, deleted: true };
}

/** GET /gateway/customers/{id}/payment_methods/: the customer's saved cards, oldest first. */
export async function listPaymentMethods(deps: CustomerDeps, context: ApiContext, customerId: string): Promise<PaymentMethodList> {
  const customer = await findCustomer(deps, accountOf(context), customerId);
  const cards = await deps.customers.paymentMethods([customer.id]);
  return { data: (cards.get(customer.id) ?? []).map(toPaymentMethod), has_more: false };
}

/** DELETE /gateway/customers/{id}/payment_methods/{pm_id}/: the card is detached and can never be charged again. */
export async function removePaymentMethod(deps: CustomerDeps, context: ApiContext, customerId: string, id: string, correlationId: string): Promise<Deleted> {
  const customer = await findCustomer(deps, accountOf(context), customerId);
  if (!PAYMENT_METHOD_ID.test(id)) throw new AppError('not-found', 'No such payment method.');
  const now = deps.clock();
  const detached = await deps.customers.detach(customer.id, id, now, detachedEvents(context, correlationId, now));
  if (!detached) throw new AppError('not-found', 'No such payment method.');
  deps.afterCommit();
  return { id, deleted: true };
}

/**
 * Attaches a card saved with a payment approved at `savedAt`
 * (payment-outcome.ts): payment_method.attached when it changed anything,
 * payment_method.detached for a card it replaced or could not attach.
 */
export async function attachSavedCard(deps: { customers: CustomerRepository }, account: Account, card: SavedCard, savedAt: Date, context: { correlationId: string; at: Date }): Promise<void> {
  const announce = (type: 'payment_method.attached' | 'payment_method.detached') => (row: PaymentMethodRow) =>
    eventEnvelope(type, { merchant_id: account.merchantId, livemode: account.livemode, payment_method: toPaymentMethod(row) }, context.correlationId, context.at);
  await deps.customers.attach(account, card, savedAt, { attached: announce('payment_method.attached'), detached: announce('payment_method.detached') });
}

/** payment_method.detached for each card detached: the account's webhooks, and the adapter, which unbinds it at the acquirer. */
function detachedEvents(context: ApiContext, correlationId: string, now: Date) {
  return (detached: readonly PaymentMethodRow[]) =>
    detached.map((row) => eventEnvelope('payment_method.detached', { merchant_id: context.merchant_id, livemode: context.livemode, payment_method: toPaymentMethod(row) }, correlationId, now));
}

/** The account's customer `id`, not deleted; refused as not found otherwise. */
async function findCustomer(deps: Pick<CustomerDeps, 'customers'>, account: Account, id: string): Promise<CustomerRow> {
  const row = CUSTOMER_ID.test(id) ? await deps.customers.find(account, id) : undefined;
  if (!row) throw notFound();
  return row;
}

/** A create request checked against its contract: every failing field at once, in the order given. */
function checkCustomerRequest(body: unknown): CreateCustomerRequest {
  if (!isJsonObject(body)) throw validationError([NOT_A_JSON_OBJECT]);
  const errors = new Map<string, FieldError>();
  const validate = validatorOf(CreateCustomerRequest);
  if (!validate(body)) for (const error of fieldErrorsOf(validate.errors)) if (!errors.has(error.field)) errors.set(error.field, error);
  const poisoned = findProtoKey(body);
  if (poisoned && !errors.has(poisoned)) errors.set(poisoned, protoKeyError(poisoned));
  if (errors.size > 0) throw validationError(inRequestOrder([...errors.values()], body, SCHEMA_ORDER));
  return body as CreateCustomerRequest;
}

async function withCards(deps: CustomerDeps, row: CustomerRow): Promise<Customer> {
  const cards = await deps.customers.paymentMethods([row.id]);
  return toCustomer(row, cards.get(row.id) ?? []);
}

/** Whether a saved card's expiry month is over at `now` (D24: an expired card is never offered or charged). */
export function cardExpired(card: Pick<PaymentMethodRow, 'exp_month' | 'exp_year'>, now: Date): boolean {
  return card.exp_year * 12 + card.exp_month - 1 < now.getUTCFullYear() * 12 + now.getUTCMonth();
}

/** A customer as the API shows it (D24). */
function toCustomer(row: CustomerRow, cards: readonly PaymentMethodRow[]): Customer {
  return {
    id: row.id,
    external_id: row.external_id,
    email: row.email,
    name: row.name,
    phone: row.phone,
    metadata: row.metadata,
    livemode: row.livemode,
    created_at: row.created_at.toISOString(),
    payment_methods: cards.map(toPaymentMethod),
  };
}

/** A saved card as the API shows it (D24): never its binding. */
function toPaymentMethod(row: PaymentMethodRow): PaymentMethod {
  return {
    id: row.id,
    customer: row.customer_id,
    type: 'card',
    card_brand: row.card_brand,
    card_last_four: row.card_last_four,
    exp_month: row.exp_month,
    exp_year: row.exp_year,
    usage: row.usage,
    created_at: row.created_at.toISOString(),
  };
}

function notFound(): AppError {
  return new AppError('not-found', 'No such customer.');
}
