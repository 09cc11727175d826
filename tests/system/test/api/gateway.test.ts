/**
 * The gateway's own behaviour, against real servers and real service processes:
 * authentication (INTERFACE 5, D12), problem documents (D1), rate limits shared
 * between replicas (D12), bodies that must not pass, deadlines.
 */
import assert from 'node:assert/strict';
import { ApiClient, sessionRequest, TestSystem } from '@gateway/testkit';

type Body = Record<string, unknown> & { errors?: { field: string; code: string }[] };

describe('API gateway', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let host: string;

  before(async () => {
    // A key stays cached a minute here: a change that shows at once can only have come by broadcast or local invalidation.
    system = await TestSystem.start({ serviceEnv: { 'api-gateway': { TRUST_PROXY: 'true', AUTH_CACHE_TTL_MS: '60000' } } });
    host = new URL(system.baseUrl).host;
  });
  after(async () => {
    await system?.shutdown();
  });

  async function merchant(limits: { account?: number; create?: number } = { account: 1000, create: 1000 }) {
    const m = await system.newMerchant({ limits });
    return { ...m, api: system.api(m.testKey) };
  }

  /** The status of GET list/, asked again for up to a second until it is `expected` (a broadcast takes milliseconds). */
  async function statusSoon(api: ApiClient, expected: number): Promise<number> {
    const deadline = Date.now() + 1_000;
    for (;;) {
      const { status } = await api.get('/gateway/sessions/list/');
      if (status === expected || Date.now() > deadline) return status;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async function rowsOf(merchantId: string): Promise<number> {
    const rows = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM session.sessions WHERE merchant_id = $1', [merchantId]);
    return rows[0]?.n ?? -1;
  }

  describe('authentication', () => {
    const expected401 = () =>
      `{"type":"https://${host}/errors/unauthorized","title":"Unauthorized","status":401,"detail":"Invalid or expired API key."}`;

    for (const [name, header] of [
      ['no Authorization header', undefined],
      ['a malformed header', 'Token abc'],
      ['a key of the wrong shape', 'Bearer sk_test_short'],
      ['an unknown key', `Bearer sk_test_${'A'.repeat(32)}`],
      ['a key with an unknown mode prefix', `Bearer sk_prod_${'A'.repeat(32)}`],
    ] as const) {
      it(`when the request carries ${name}, then it answers 401 with exactly the specified body`, async () => {
        const res = await system.api().get('/gateway/sessions/list/', header ? { authorization: header } : {});
        assert.equal(res.status, 401);
        assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
        assert.equal(res.text, expected401());
        assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      });
    }

    it('when a key is revoked, then it answers 401 at once, while the merchant’s other keys still work', async () => {
      const m = await merchant();
      const second = (await system.admin(['key', 'create', m.merchantId, '--mode', 'test'])) as { key_id: string; secret_key: string };
      const api2 = system.api(second.secret_key);
      assert.equal((await api2.get('/gateway/sessions/list/')).status, 200);
      await system.admin(['key', 'revoke', second.key_id]);
      const res = await api2.get('/gateway/sessions/list/');
      assert.equal(res.status, 401);
      assert.equal(res.text, expected401());
      assert.equal((await m.api.get('/gateway/sessions/list/')).status, 200);
    });

    it('when keys are stored, then only their hashes are', async () => {
      const m = await merchant();
      const rows = await system.db.query<{ hint: string; key_hash: Buffer }>(
        'SELECT hint, key_hash FROM api_gateway.api_keys WHERE merchant_id = $1',
        [m.merchantId],
      );
      assert.equal(rows.length, 1);
      const dump = JSON.stringify(await system.db.query('SELECT * FROM api_gateway.api_keys WHERE merchant_id = $1', [m.merchantId]));
      assert.equal(dump.includes(m.testKey), false);
      assert.equal(rows[0]?.key_hash.length, 32);
    });

    it('when a key is revoked or a merchant suspended, then every gateway replica knows at once, not when its cache expires', async () => {
      const port = await system.startService('api-gateway', 'api-gateway-2');
      try {
        const m = await merchant();
        const second = (await system.admin(['key', 'create', m.merchantId, '--mode', 'test'])) as { key_id: string; secret_key: string };
        const replicas = [system.api(second.secret_key), new ApiClient(`http://127.0.0.1:${port}/api/v1`, second.secret_key)];
        const others = [m.api, new ApiClient(`http://127.0.0.1:${port}/api/v1`, m.testKey)];
        for (const api of [...replicas, ...others]) assert.equal((await api.get('/gateway/sessions/list/')).status, 200);
        // Only one replica handles the operator command; the other learns of it from the broadcast.
        await system.admin(['key', 'revoke', second.key_id]);
        for (const api of replicas) assert.equal(await statusSoon(api, 401), 401);
        await system.admin(['merchant', 'suspend', m.merchantId]);
        for (const api of others) assert.equal(await statusSoon(api, 403), 403);
      } finally {
        await system.stopService('api-gateway-2');
      }
    });

    it('when the merchant is suspended, then every endpoint answers 403 forbidden until it is reactivated', async () => {
      const m = await merchant();
      const created = (await m.api.post<Body>('/gateway/sessions/', sessionRequest())).body;
      await system.admin(['merchant', 'suspend', m.merchantId]);
      const id = String(created['id']);
      for (const [method, path] of [
        ['POST', '/gateway/sessions/'],
        ['GET', `/gateway/sessions/${id}/`],
        ['GET', '/gateway/sessions/list/'],
        ['POST', `/gateway/sessions/${id}/cancel/`],
        ['POST', `/gateway/sessions/${id}/checkout/`],
      ] as const) {
        const res = await m.api.request<Body>(method, path, method === 'POST' && path.endsWith('sessions/') ? sessionRequest() : undefined);
        assert.equal(res.status, 403, `${method} ${path}`);
        assert.equal(res.body['type'], `https://${host}/errors/forbidden`);
      }
      assert.equal(await rowsOf(m.merchantId), 1);
      await system.admin(['merchant', 'reactivate', m.merchantId]);
      assert.equal((await m.api.get(`/gateway/sessions/${id}/`)).status, 200);
    });

    it('when a client address fails authentication 20 times in a minute, then its 21st attempt gets 429', async () => {
      const address = { 'x-forwarded-for': '203.0.113.7', authorization: `Bearer sk_test_${'B'.repeat(32)}` };
      const statuses: number[] = [];
      for (let i = 0; i < 21; i += 1) statuses.push((await system.api().get('/gateway/sessions/list/', address)).status);
      assert.deepEqual(statuses, [...Array(20).fill(401), 429]);
      const last = await system.api().get('/gateway/sessions/list/', address);
      assert.ok(Number(last.headers.get('retry-after')) >= 1);
      // Another address is not affected, and a valid key from the same address still works.
      assert.equal((await system.api().get('/gateway/sessions/list/', { 'x-forwarded-for': '203.0.113.8' })).status, 401);
      const m = await merchant();
      assert.equal((await m.api.get('/gateway/sessions/list/', { 'x-forwarded-for': '203.0.113.7' })).status, 200);
    });

    it('when a client writes a new address of its own before the one our proxy appended on each try, then its failures still add up on the appended one', async () => {
      const key = { authorization: `Bearer sk_test_${'C'.repeat(32)}` };
      const statuses: number[] = [];
      for (let i = 0; i < 21; i += 1) {
        statuses.push((await system.api().get('/gateway/sessions/list/', { ...key, 'x-forwarded-for': `198.51.100.${i + 1}, 203.0.113.20` })).status);
      }
      assert.deepEqual(statuses, [...Array(20).fill(401), 429]);
      // The address the proxy appended is what counts: the one it appended for another client is not throttled.
      assert.equal((await system.api().get('/gateway/sessions/list/', { ...key, 'x-forwarded-for': '203.0.113.20, 203.0.113.21' })).status, 401);
    });
  });

  describe('rate limits', () => {
    it('when two gateway processes share one merchant’s budget, then a burst beyond it gets 429 with Retry-After', async () => {
      const port = await system.startService('api-gateway', 'api-gateway-2');
      try {
        const m = await merchant({ account: 4 });
        const second = new ApiClient(`http://127.0.0.1:${port}/api/v1`, m.testKey);
        const burst = await Promise.all(
          Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? m.api : second).get<Body>('/gateway/sessions/list/')),
        );
        const ok = burst.filter((r) => r.status === 200);
        const limited = burst.filter((r) => r.status === 429);
        // A bucket per process would accept 8; refill during a slow burst may add one or two.
        assert.ok(ok.length >= 4 && ok.length <= 6, `accepted ${ok.length}`);
        assert.equal(ok.length + limited.length, 16);
        for (const res of limited) {
          assert.match(String(res.headers.get('retry-after')), /^[1-9]\d*$/);
          assert.equal(res.body['type'], `https://${host}/errors/rate-limit-exceeded`);
        }
        // Both processes refused some: the bucket is the shared one, not a per-process copy.
        assert.ok(limited.some((r) => burst.indexOf(r) % 2 === 0));
        assert.ok(limited.some((r) => burst.indexOf(r) % 2 === 1));
      } finally {
        await system.stopService('api-gateway-2');
      }
    });

    it('when Redis does not answer, then each replica limits on its own share of the budget, and /readyz stays ready but says degraded', async () => {
      const port = await system.startService('api-gateway', 'api-gateway-no-redis', { REDIS_URL: 'redis://127.0.0.1:9', RATE_LIMIT_FALLBACK_REPLICAS: '2' });
      try {
        // An account budget of 4 a second, shared by two replicas: this one alone allows 2.
        const m = await merchant({ account: 4 });
        const api = new ApiClient(`http://127.0.0.1:${port}/api/v1`, m.testKey);
        const burst = await Promise.all(Array.from({ length: 5 }, () => api.get('/gateway/sessions/list/')));
        assert.deepEqual(burst.map((r) => r.status).sort(), [200, 200, 429, 429, 429]);
        assert.ok(burst.filter((r) => r.status === 429).every((r) => Number(r.headers.get('retry-after')) >= 1));
        const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
        assert.equal(ready.status, 200);
        assert.deepEqual(await ready.json(), { status: 'degraded', checks: { database: true, broker: true, redis: false } });
        const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        assert.match(metrics, /^gateway_rate_limit_fallback_total\{outcome="limited"[^}]*\} 3$/m);
      } finally {
        await system.stopService('api-gateway-no-redis');
      }
    });

    it('when the create budget is spent, then creates get 429 while reads still pass on the account budget', async () => {
      const m = await merchant({ account: 100, create: 2 });
      const creates = await Promise.all(Array.from({ length: 6 }, () => m.api.post('/gateway/sessions/', sessionRequest())));
      const created = creates.filter((r) => r.status === 201).length;
      assert.ok(created >= 2 && created <= 4, `created ${created}`);
      assert.equal(creates.filter((r) => r.status === 429).length, 6 - created);
      assert.equal((await m.api.get('/gateway/sessions/list/')).status, 200);
      assert.equal(await rowsOf(m.merchantId), created);
    });

    it('when no override is set, then the test-mode defaults of INTERFACE 8 apply (5 creates a second)', async () => {
      const m = await system.newMerchant();
      const api = system.api(m.testKey);
      const creates = await Promise.all(Array.from({ length: 9 }, () => api.post('/gateway/sessions/', sessionRequest())));
      const created = creates.filter((r) => r.status === 201).length;
      assert.ok(created >= 5 && created <= 7, `created ${created}`);
    });
  });

  describe('bodies that must not pass', () => {
    const bad: [string, string, number, [string, string][] | undefined][] = [
      ['malformed JSON', '{"amount": "1.000",', 422, [['body', 'invalid']]],
      ['a JSON array', '[1,2]', 422, [['body', 'invalid']]],
      ['a JSON string', '"hello"', 422, [['body', 'invalid']]],
      ['an empty body', '', 422, [['body', 'invalid']]],
      ['a __proto__ key at the top', '{"__proto__":{"admin":true},"amount":"1.000"}', 422, [['__proto__', 'invalid']]],
      ['a __proto__ key in metadata', JSON.stringify(sessionRequest()).replace('{', '{"metadata":{"__proto__":{"x":"y"}},'), 422, [['metadata.__proto__', 'invalid']]],
      ['a __proto__ key in an item', JSON.stringify(sessionRequest()).replace('{', '{"items":[{"name":"a","quantity":1,"__proto__":{}}],'), 422, [['items[0].__proto__', 'invalid']]],
      ['an unknown field', JSON.stringify(sessionRequest({ amuont: '1.000' })), 422, [['amuont', 'invalid']]],
      ['a NUL character in a text (PostgreSQL cannot store one)', JSON.stringify(sessionRequest({ description: 'a\u0000b' })), 422, [['description', 'invalid']]],
      ['a NUL character in a metadata key', JSON.stringify(sessionRequest({ metadata: { 'a\u0000': 'x' } })), 422, [['metadata.a\u0000', 'invalid']]],
      ['a body over 64 KiB', JSON.stringify(sessionRequest({ description: 'x'.repeat(70_000) })), 413, undefined],
    ];
    for (const [name, raw, status, errors] of bad) {
      it(`when the body is ${name}, then it answers ${status} with a problem document and stores nothing`, async () => {
        const m = await merchant();
        const res = await m.api.post<Body>('/gateway/sessions/', raw);
        assert.equal(res.status, status, res.text);
        assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
        assert.equal(res.body['status'], status);
        if (errors) assert.deepEqual(res.body.errors?.map((e) => [e.field, e.code]), errors);
        else assert.equal(res.body['type'], `https://${host}/errors/payload-too-large`);
        assert.equal(await rowsOf(m.merchantId), 0);
        assert.equal(({} as Record<string, unknown>)['admin'], undefined);
      });
    }
  });

  describe('routing and headers', () => {
    it('when a route is unknown, then it answers 404 not-found; a known path with another method answers 405 with Allow', async () => {
      const m = await merchant();
      const unknown = await m.api.get<Body>('/gateway/nothing-here/');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body['type'], `https://${host}/errors/not-found`);
      const outside = await new ApiClient(system.baseUrl).get<Body>('/nowhere');
      assert.equal(outside.status, 404);
      const wrong = await m.api.request<Body>('DELETE', '/gateway/sessions/');
      assert.equal(wrong.status, 405);
      assert.equal(wrong.headers.get('allow'), 'POST');
      assert.equal(wrong.body['type'], `https://${host}/errors/method-not-allowed`);
    });

    it('when a path differs in case, has a bad percent-encoding or is asked with OPTIONS, then 404 or 405 problems, before any key is asked for', async () => {
      const anonymous = new ApiClient(system.apiUrl);
      for (const path of ['/GATEWAY/sessions/list/', '/gateway/sessions/%E0%A4%A/', '/gateway/sessions/list//']) {
        const res = await anonymous.get<Body>(path);
        assert.equal(res.status, 404, `${path}: ${res.text}`);
        assert.equal(res.body['type'], `https://${host}/errors/not-found`);
      }
      const options = await anonymous.request<Body>('OPTIONS', '/gateway/sessions/ps_x/');
      assert.equal(options.status, 405);
      assert.equal(options.headers.get('allow'), 'GET');
      assert.equal(options.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    });

    it('when a path id or a query value holds a NUL character, then it answers 404 or 422 naming the parameter, never a database error', async () => {
      const m = await merchant();
      for (const path of ['/gateway/sessions/%00/', '/gateway/sessions/%00/refunds/', '/gateway/refunds/%00/', '/gateway/sessions/%00/webhooks/']) {
        const res = await m.api.get<Body>(path);
        assert.equal(res.status, 404, `${path}: ${res.text}`);
        assert.equal(res.body['type'], `https://${host}/errors/not-found`);
      }
      const query = await m.api.get<Body>('/gateway/sessions/list/?merchant_reference=a%00b');
      assert.equal(query.status, 422, query.text);
      assert.deepEqual(query.body.errors?.map((e) => [e.field, e.code]), [['merchant_reference', 'invalid']]);
    });

    it('when X-Request-Id is given it is echoed, and otherwise one is made, on success and on error alike', async () => {
      const m = await merchant();
      const echoed = await m.api.get('/gateway/sessions/list/', { 'x-request-id': 'merchant-trace-123' });
      assert.equal(echoed.headers.get('x-request-id'), 'merchant-trace-123');
      const made = await system.api().get('/gateway/sessions/list/');
      assert.match(String(made.headers.get('x-request-id')), /^[0-9a-f-]{36}$/);
    });

    it('when the OpenAPI document is asked for, then it is served without a key and describes every endpoint', async () => {
      const res = await system.api().get<{ openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } }>('/openapi.json');
      assert.equal(res.status, 200);
      assert.equal(res.body.openapi, '3.1.0');
      assert.deepEqual(Object.keys(res.body.paths).sort(), [
        '/gateway/balance/',
        '/gateway/balance_transactions/',
        '/gateway/customers/',
        '/gateway/customers/{customer_id}/',
        '/gateway/customers/{customer_id}/payment_methods/',
        '/gateway/customers/{customer_id}/payment_methods/{payment_method_id}/',
        '/gateway/events/stream/',
        '/gateway/exports/balance_transactions.csv',
        '/gateway/exports/refunds.csv',
        '/gateway/exports/sessions.csv',
        '/gateway/payment_links/',
        '/gateway/payment_links/{payment_link_id}/',
        '/gateway/payment_links/{payment_link_id}/deactivate/',
        '/gateway/refunds/',
        '/gateway/refunds/{refund_id}/',
        '/gateway/reports/daily/',
        '/gateway/sessions/',
        '/gateway/sessions/list/',
        '/gateway/sessions/{session_id}/',
        '/gateway/sessions/{session_id}/cancel/',
        '/gateway/sessions/{session_id}/capture/',
        '/gateway/sessions/{session_id}/checkout/',
        '/gateway/sessions/{session_id}/refund/',
        '/gateway/sessions/{session_id}/refunds/',
        '/gateway/sessions/{session_id}/webhooks/',
        '/gateway/webhook_endpoints/',
        '/gateway/webhook_endpoints/{endpoint_id}/',
        '/gateway/webhook_endpoints/{endpoint_id}/replay/',
        '/gateway/webhook_endpoints/{endpoint_id}/rotate_secret/',
        '/gateway/webhooks/',
      ]);
      assert.ok(res.body.components.schemas['CreateSessionRequest']);
    });

    it('when the health endpoints are asked, then /healthz is alive and /readyz reports database, broker and Redis', async () => {
      const health = await fetch(`${system.baseUrl}/healthz`);
      assert.equal(health.status, 200);
      const ready = (await (await fetch(`${system.baseUrl}/readyz`)).json()) as { checks: Record<string, boolean> };
      assert.deepEqual(ready.checks, { database: true, broker: true, redis: true });
    });
  });

  describe('when the session service is stopped', () => {
    it('then the gateway answers a 500 problem with Retry-After within its deadline (D23), and serves again once it is back', async () => {
      const m = await merchant();
      const created = (await m.api.post<Body>('/gateway/sessions/', sessionRequest())).body;
      await system.stopService('session');
      try {
        const started = Date.now();
        const res = await m.api.get<Body>(`/gateway/sessions/${String(created['id'])}/`);
        const elapsed = Date.now() - started;
        assert.equal(res.status, 500);
        assert.equal(res.text, `{"type":"https://${host}/errors/internal-error","title":"Internal Server Error","status":500,"detail":"The service is temporarily unavailable; retry after the number of seconds in Retry-After."}`);
        assert.match(res.headers.get('retry-after') ?? '', /^[1-5]$/);
        assert.ok(elapsed >= 2_500 && elapsed < 4_000, `answered after ${elapsed} ms; deadline 3000 ms`);
      } finally {
        await system.startService('session');
      }
      assert.equal((await m.api.get(`/gateway/sessions/${String(created['id'])}/`)).status, 200);
    });
  });
});
