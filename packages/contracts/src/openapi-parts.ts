/**
 * The pieces the OpenAPI document's paths are built of (openapi-paths.ts):
 * references to its schemas, the problem answers every path shares, the path,
 * paging and filter parameters, and the shape of a CSV export.
 */
import type { TObject } from '@sinclair/typebox';
import * as api from './api.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (name: string) => ({ 'application/json': { schema: ref(name) } });
export const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });

export const common = {
  '401': problem('Missing, malformed, expired or revoked API key.'),
  '403': problem('The merchant account is suspended.'),
  '429': { ...problem('Rate limit exceeded.'), headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } } },
  '500': problem('Unexpected error; retry with backoff.'),
};

export const sessionId = { name: 'session_id', in: 'path', required: true, schema: { type: 'string', pattern: '^ps_' } };
export const cursor = (name: string, description: string) => ({ name, in: 'query', required: false, schema: { type: 'string' }, description });
/** D10 on every POST (D29); the same key and body replay the first answer for 24 hours (header Idempotent-Replayed: true). */
export const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  description: 'Replays the first answer for the same key and body (24 h); another body: 422 idempotency-key-reused; still in flight: 409 conflict.',
};
/** The same key on a POST whose answer shows a secret: the answer is kept encrypted for the replay (D17). */
export const secretIdempotencyKey = {
  ...idempotencyKey,
  description: `${idempotencyKey.description} The answer, secret included, is kept encrypted for the replay.`,
};
/** D29: an operation that takes no body refuses one. */
export const NO_BODY = 'Takes no request body (an empty JSON object counts as none); any other body is refused: 422 validation-error on body.';
/** D29: a GET that takes no query parameter refuses any. */
export const noParameters = problem('A query parameter: this operation takes none (each is named).');
export const paymentLinkId = { name: 'payment_link_id', in: 'path', required: true, schema: { type: 'string', pattern: '^pl_' } };
export const customerId = { name: 'customer_id', in: 'path', required: true, schema: { type: 'string', pattern: '^cus_' } };
export const paymentMethodId = { name: 'payment_method_id', in: 'path', required: true, schema: { type: 'string', pattern: '^pm_' } };
export const endpointId = { name: 'endpoint_id', in: 'path', required: true, schema: { type: 'string', pattern: '^we_' } };
export const limit = { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } };
/** The session list's filters, from the schema that checks them; any other parameter is refused. */
export const sessionFilters = (['status', 'created[gte]', 'created[lte]', 'merchant_reference'] as const).map((name) => ({
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
export const transactionFilters = filtersOf(api.BalanceTransactionListQuery, {
  type: 'Only transactions of this type: payment, refund or refund_reversal.',
  session_id: "Only the transactions of this session (one of the account's).",
  ...createdRange('transactions'),
});
export const refundFilters = filtersOf(api.RefundListQuery, {
  status: 'Only refunds in this status.',
  session_id: "Only the refunds of this session (one of the account's).",
  ...createdRange('refunds'),
});
/** A CSV export (D21): streamed, a header row of the JSON field names, RFC 4180 quoting, money as decimal strings, times in UTC. */
export const csvExport = (rows: string) => ({
  description: `${rows}, newest first, as CSV (text/csv; charset=utf-8), streamed: a header row of the JSON field names, then one row each (RFC 4180 quoting, money as decimal strings, times in UTC ISO 8601, a cell starting with =, +, -, @, tab or carriage return, or with spaces or invisible format characters before =, +, - or @, prefixed with '). A transfer cut off before its end is a failed download, never a shorter file; an export still running after 10 minutes is cut off.`,
  headers: { 'Content-Disposition': { description: 'attachment; filename="<kind>-<test|live>-<UTC date>.csv"', schema: { type: 'string' } } },
  content: { 'text/csv': { schema: { type: 'string' } } },
});
/** 429 of an export: the budget, or as many exports running as the account may run at once (D29). */
export const exportsBusy = { ...common['429'], description: 'Rate limit exceeded, or the account already runs as many exports in this mode as may run at once (3 by default).' };
export const exportRefused = problem('Invalid filter, a paging parameter (limit, starting_after, ending_before: an export lists every matching row), or a parameter the list does not know.');
