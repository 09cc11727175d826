/**
 * The OpenAPI document (/api/v1/openapi.json) against the routes the gateway
 * serves: every route is described, with its method, and every operation
 * described is a route, or one of the few the gateway serves by hand (the
 * event stream and the CSV exports, which stream their answers).
 */
import assert from 'node:assert/strict';
import { buildOpenApi } from '@gateway/contracts';
import { routes } from '../../src/http/routes.js';

/** Served outside routes.ts: text/event-stream and text/csv answers written as they go. */
const SERVED_BY_HAND = ['GET /gateway/events/stream/', 'GET /gateway/exports/sessions.csv', 'GET /gateway/exports/refunds.csv', 'GET /gateway/exports/balance_transactions.csv'];

/** `/gateway/sessions/:id` and `/gateway/sessions/{session_id}/` alike: parameters as {}, one trailing slash unless a file name. */
const shape = (path: string) => {
  const bare = path.replace(/:[a-z_]+/g, '{}').replace(/\{[a-z_]+\}/g, '{}').replace(/\/+$/, '');
  return /\.[a-z]+$/.test(bare) ? bare : `${bare}/`;
};

describe('The OpenAPI document and the routes', () => {
  const document = buildOpenApi('https://gateway.example/api/v1') as { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> };
  const described = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${shape(path)}`));

  it('when every route is looked up, then the document describes it with its method', () => {
    const missing = routes.map((route) => `${route.method} ${shape(route.path)}`).filter((route) => !described.includes(route));
    assert.deepEqual(missing, []);
  });

  it('when every operation of the document is looked up, then it is a route or one the gateway serves by hand', () => {
    const served = new Set([...routes.map((route) => `${route.method} ${shape(route.path)}`), ...SERVED_BY_HAND]);
    assert.deepEqual(described.filter((operation) => !served.has(operation)), []);
  });

  it('when the money operations (D21) are read, then each answers its schema or CSV, and 401, 422 and 429 problems', () => {
    const expected: Record<string, string> = {
      '/gateway/balance_transactions/': 'application/json',
      '/gateway/balance/': 'application/json',
      '/gateway/reports/daily/': 'application/json',
      '/gateway/refunds/': 'application/json',
      '/gateway/exports/sessions.csv': 'text/csv',
      '/gateway/exports/refunds.csv': 'text/csv',
      '/gateway/exports/balance_transactions.csv': 'text/csv',
    };
    for (const [path, type] of Object.entries(expected)) {
      const responses = document.paths[path]?.['get']?.responses as Record<string, { content?: Record<string, unknown> }> | undefined;
      assert.ok(responses, `${path} is described`);
      assert.deepEqual(Object.keys(responses['200']?.content ?? {}), [type], path);
      for (const status of ['401', '429', ...(path === '/gateway/balance/' ? [] : ['422'])]) assert.ok(responses[status]?.content?.['application/problem+json'], `${path} ${status}`);
    }
  });

  it('when the payment link operations (D19) are read, then each is a route to its checkout command, answering a PaymentLink (or a list of them), and the create takes the create budget', () => {
    const expected: Record<string, [command: string, schema: string]> = {
      'POST /gateway/payment_links/': ['payment_link.create', 'PaymentLink'],
      'GET /gateway/payment_links/': ['payment_link.list', 'PaymentLinkList'],
      'GET /gateway/payment_links/{}/': ['payment_link.get', 'PaymentLink'],
      'POST /gateway/payment_links/{}/deactivate/': ['payment_link.deactivate', 'PaymentLink'],
    };
    for (const [operation, [command, schema]] of Object.entries(expected)) {
      const route = routes.find((r) => `${r.method} ${shape(r.path)}` === operation);
      assert.equal(route?.command, command, operation);
      const [method = '', path = ''] = operation.split(' ');
      const item = Object.entries(document.paths).find(([p]) => shape(p) === path)?.[1];
      const responses = item?.[method.toLowerCase()]?.responses as Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> | undefined;
      const success = responses?.[method === 'POST' && command === 'payment_link.create' ? '201' : '200'];
      assert.equal(success?.content?.['application/json']?.schema?.$ref, `#/components/schemas/${schema}`, operation);
    }
    assert.equal(routes.find((r) => r.command === 'payment_link.create')?.budget, 'create');
  });
});
