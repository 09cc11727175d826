/**
 * The API's contract edges a security review found (D29, on D6, D10 and D19),
 * against the whole running system: a body nested past 32 levels is a 422,
 * never a 500; a URL with user information is refused wherever the API takes
 * one; one Idempotency-Key rule on every POST, the ones whose answer carries
 * a secret included; an endpoint that takes no body refuses one; and every
 * GET refuses a query parameter it does not know.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sessionRequest, TestSystem, type ApiClient, type ApiResponse } from '@gateway/testkit';

type FieldError = { field: string; code: string; message: string };
type Body = Record<string, unknown> & { errors?: FieldError[] };
type Endpoint = { id: string; secret: string; url: string };

/** `depth` arrays, one inside the other: `[[[]]]` is 3. */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('API contract edges (D29)', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let host: string;

  before(async () => {
    system = await TestSystem.start();
    host = new URL(system.baseUrl).host;
  });
  after(async () => {
    await system?.shutdown();
  });

  async function merchant(): Promise<{ api: ApiClient; merchantId: string }> {
    const made = await system.newMerchant({ limits: { account: 1000, create: 1000, refund: 1000 } });
    return { api: system.api(made.testKey), merchantId: made.merchantId };
  }

  function assertProblem(res: ApiResponse<Body>, status: number, code: string): void {
    assert.equal(res.status, status, res.text);
    assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8', res.text);
    assert.equal(res.body['type'], `https://${host}/errors/${code}`, res.text);
  }

  /** A 422 validation-error naming exactly `fields`, each `invalid`. */
  function assertRefused(res: ApiResponse<Body>, fields: readonly string[]): void {
    assertProblem(res, 422, 'validation-error');
    assert.deepEqual(
      res.body.errors?.map((e) => [e.field, e.code]),
      fields.map((field) => [field, 'invalid']),
      res.text,
    );
  }

  async function sessionCount(merchantId: string): Promise<number> {
    const rows = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM session.sessions WHERE merchant_id = $1', [merchantId]);
    return rows[0]?.n ?? -1;
  }

  async function link(api: ApiClient): Promise<{ id: string; active: boolean }> {
    const made = await api.post<{ id: string; active: boolean }>('/gateway/payment_links/', { description: 'Dinner for two', amount: '80.000' });
    assert.equal(made.status, 201, made.text);
    return made.body;
  }

  /**
   * A webhook endpoint of `api`'s account. It asks only for refund.updated,
   * which these tests never cause: no delivery runs beside what they do to it.
   */
  async function endpoint(api: ApiClient, headers: Record<string, string> = {}): Promise<ApiResponse<Endpoint & Body>> {
    return api.post<Endpoint & Body>('/gateway/webhook_endpoints/', { url: 'https://hooks.shop.example.tn/gateway', enabled_events: ['refund.updated'] }, headers);
  }

  /** When the endpoint's previous secret stops signing: null until its first rotation. */
  async function previousSecretExpiry(endpointId: string): Promise<Date | null | undefined> {
    const rows = await system.db.query<{ at: Date | null }>('SELECT previous_secret_expires_at AS at FROM webhooks.endpoints WHERE id = $1', [endpointId]);
    return rows[0]?.at;
  }

  describe('bodies nested deeper than 32 levels (D6)', () => {
    it('when a 12 KB body nests 6,000 levels deep (the review\'s reproduction), then it answers 422 validation-error naming the field, never 500, and stores nothing', async () => {
      const { api, merchantId } = await merchant();
      const body = `{"amount":"10.000","merchant_reference":"deep-1","first_name":"Amina","last_name":"Ben Salah","email":"amina@example.tn","metadata":${nested(6000)}}`;
      assert.ok(body.length > 12_000 && body.length < 12_300, `${body.length} bytes`);
      const res = await api.post<Body>('/gateway/sessions/', body);
      assertRefused(res, ['metadata']);
      assert.match(res.body.errors?.[0]?.message ?? '', /32 levels/);
      // With a key too: the key's hash of the body walks it as well.
      assertRefused(await api.post<Body>('/gateway/sessions/', body, { 'Idempotency-Key': randomUUID() }), ['metadata']);
      assert.equal(await sessionCount(merchantId), 0);
    });

    it('when any route that reads a body is sent one nested too deep, then each answers 422 naming where, before any service sees it', async () => {
      const { api } = await merchant();
      const made = await endpoint(api);
      assert.equal(made.status, 201, made.text);
      const cases: [method: string, path: string, body: string, field: string][] = [
        ['POST', '/gateway/payment_links/', `{"description":"Deep","amount":"1.000","items":${nested(40)}}`, 'items'],
        ['POST', '/gateway/sessions/ps_00000000000000000000/refund/', `{"reason":${nested(100)}}`, 'reason'],
        ['POST', '/gateway/sessions/ps_00000000000000000000/capture/', `{"amount":${nested(33)}}`, 'amount'],
        ['POST', '/gateway/webhook_endpoints/', `{"url":"https://hooks.shop.example.tn/","enabled_events":${nested(5000)}}`, 'enabled_events'],
        ['PATCH', `/gateway/webhook_endpoints/${made.body.id}/`, `{"description":${nested(2000)}}`, 'description'],
        ['POST', `/gateway/webhook_endpoints/${made.body.id}/replay/`, `{"since":{"a":${nested(50)}}}`, 'since'],
        // A body that is not an object at all, nested: named as the body.
        ['POST', '/gateway/sessions/', nested(6000), 'body'],
      ];
      for (const [method, path, body, field] of cases) {
        const res = await api.request<Body>(method, path, body);
        try {
          if (field === 'body') assertProblem(res, 422, 'validation-error');
          else assertRefused(res, [field]);
        } catch (err) {
          assert.fail(`${method} ${path}: ${String(err)}`);
        }
      }
    });

    it('when a body is nested exactly 32 levels, then it passes to the service, which answers its own validation; at 33 the depth is refused', async () => {
      const { api } = await merchant();
      // The body is level 1, metadata's value level 2: 31 arrays make 32 levels in all.
      const at = (arrays: number) => JSON.stringify(sessionRequest()).replace(/}$/, `,"metadata":${nested(arrays)}}`);
      const deepest = await api.post<Body>('/gateway/sessions/', at(31));
      assertRefused(deepest, ['metadata']);
      assert.doesNotMatch(deepest.body.errors?.[0]?.message ?? '', /levels/);
      const past = await api.post<Body>('/gateway/sessions/', at(32));
      assertRefused(past, ['metadata']);
      assert.match(past.body.errors?.[0]?.message ?? '', /32 levels/);
      // Ordinary nesting (items of objects) is untouched.
      const fine = await api.post<Body>('/gateway/sessions/', sessionRequest({ items: [{ name: 'Couscous', quantity: 2, unit_price: '12.000', options: { spice: { level: 'hot' } } }] }));
      assert.equal(fine.status, 201, fine.text);
    });
  });

  describe('URLs with user information', () => {
    it('when return_url carries user information (the review\'s reproduction), then the create answers 422 on return_url and makes no session', async () => {
      const { api, merchantId } = await merchant();
      const res = await api.post<Body>('/gateway/sessions/', sessionRequest({ return_url: 'https://user:pass@shop.example.tn/thanks' }));
      assertRefused(res, ['return_url']);
      assert.match(res.body.errors?.[0]?.message ?? '', /user/);
      assert.equal(await sessionCount(merchantId), 0);
    });

    it('when cancel_url and webhook_url carry a user, a password or both, then each is refused on its field, every one at once, in request order', async () => {
      const { api, merchantId } = await merchant();
      const res = await api.post<Body>(
        '/gateway/sessions/',
        sessionRequest({ cancel_url: 'https://:secret@shop.example.tn/cancel', webhook_url: 'https://hooks@hooks.shop.example.tn/', return_url: 'http://alice@shop.example.tn/ok' }),
      );
      assertRefused(res, ['cancel_url', 'webhook_url', 'return_url']);
      assert.equal(await sessionCount(merchantId), 0);
      // The same URLs without user information are taken (an @ in the path or query is no user).
      const fine = await api.post<Body>(
        '/gateway/sessions/',
        sessionRequest({ cancel_url: 'https://shop.example.tn/cancel?by=a@b.tn', webhook_url: 'https://hooks.shop.example.tn/@hook', return_url: 'http://shop.example.tn/ok' }),
      );
      assert.equal(fine.status, 201, fine.text);
    });

    it('when a payment link\'s return_url or a webhook endpoint\'s url carries user information, then each is refused on its field', async () => {
      const { api } = await merchant();
      assertRefused(await api.post<Body>('/gateway/payment_links/', { description: 'Dinner', amount: '80.000', return_url: 'https://user:pass@shop.example.tn/' }), ['return_url']);
      assertRefused(await api.post<Body>('/gateway/webhook_endpoints/', { url: 'https://user:pass@hooks.shop.example.tn/', enabled_events: ['*'] }), ['url']);
      const made = await endpoint(api);
      assertRefused(await api.request<Body>('PATCH', `/gateway/webhook_endpoints/${made.body.id}/`, { url: 'https://user@hooks.shop.example.tn/' }), ['url']);
      assert.equal((await api.get<Endpoint>(`/gateway/webhook_endpoints/${made.body.id}/`)).body.url, 'https://hooks.shop.example.tn/gateway');
    });
  });

  describe('one Idempotency-Key rule on every POST (D10)', () => {
    it('when a link is deactivated with a key and the key comes again with a body (the review\'s reproduction), then 422 idempotency-key-reused; the same request again is a replay', async () => {
      const { api } = await merchant();
      const made = await link(api);
      const key = randomUUID();
      const first = await api.post<Body>(`/gateway/payment_links/${made.id}/deactivate/`, undefined, { 'Idempotency-Key': key });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body['active'], false);
      assertProblem(await api.post<Body>(`/gateway/payment_links/${made.id}/deactivate/`, { reason: 'sold out' }, { 'Idempotency-Key': key }), 422, 'idempotency-key-reused');
      const again = await api.post<Body>(`/gateway/payment_links/${made.id}/deactivate/`, undefined, { 'Idempotency-Key': key });
      assert.deepEqual([again.status, again.text, again.headers.get('idempotent-replayed')], [200, first.text, 'true']);
    });

    it('when a session is canceled with a key and the key comes again with a body, then 422 idempotency-key-reused', async () => {
      const { api } = await merchant();
      const created = await api.post<Body>('/gateway/sessions/', sessionRequest());
      const key = randomUUID();
      const first = await api.post<Body>(`/gateway/sessions/${String(created.body['id'])}/cancel/`, undefined, { 'Idempotency-Key': key });
      assert.equal(first.status, 200, first.text);
      assertProblem(await api.post<Body>(`/gateway/sessions/${String(created.body['id'])}/cancel/`, { reason: 'duplicate' }, { 'Idempotency-Key': key }), 422, 'idempotency-key-reused');
    });

    it('when an endpoint\'s secret is rotated twice with one key, then it is rotated once and the answer replayed with the same secret; another body is refused; no secret is stored in clear', async () => {
      const { api, merchantId } = await merchant();
      const made = await endpoint(api);
      const key = randomUUID();
      const path = `/gateway/webhook_endpoints/${made.body.id}/rotate_secret/`;
      const first = await api.post<Endpoint & Body>(path, undefined, { 'Idempotency-Key': key });
      assert.equal(first.status, 200, first.text);
      assert.notEqual(first.body.secret, made.body.secret);
      const again = await api.post<Endpoint & Body>(path, undefined, { 'Idempotency-Key': key });
      assert.deepEqual([again.status, again.text, again.headers.get('idempotent-replayed')], [200, first.text, 'true']);
      assertProblem(await api.post<Body>(path, { expire_previous: true }, { 'Idempotency-Key': key }), 422, 'idempotency-key-reused');
      // Rotated once: the overlap the first answer told is the one stored (a second rotation would have moved it).
      assert.equal((await previousSecretExpiry(made.body.id))?.toISOString(), first.body['previous_secret_expires_at']);
      const rows = await system.db.query<{ response_body: string }>('SELECT response_body FROM api_gateway.idempotency_keys WHERE merchant_id = $1', [merchantId]);
      assert.ok(rows.length >= 1);
      for (const row of rows) assert.ok(!row.response_body.includes('whsec_'), 'a secret stored in clear with its Idempotency-Key');
    });

    it('when an endpoint is created twice with one key, then one endpoint exists and the second answer is the first, secret included; another body is refused', async () => {
      const { api } = await merchant();
      const key = randomUUID();
      const first = await endpoint(api, { 'Idempotency-Key': key });
      assert.equal(first.status, 201, first.text);
      const again = await endpoint(api, { 'Idempotency-Key': key });
      assert.deepEqual([again.status, again.text, again.headers.get('idempotent-replayed')], [201, first.text, 'true']);
      const other = await api.post<Body>('/gateway/webhook_endpoints/', { url: 'https://other.shop.example.tn/', enabled_events: ['refund.updated'] }, { 'Idempotency-Key': key });
      assertProblem(other, 422, 'idempotency-key-reused');
      const list = await api.get<{ data: Endpoint[] }>('/gateway/webhook_endpoints/');
      assert.deepEqual(
        list.body.data.map((e) => e.id),
        [first.body.id],
      );
    });
  });

  describe('endpoints that take no body', () => {
    it('when deactivate or rotate_secret is sent a JSON body (the review\'s reproduction), then 422 naming the body, and nothing is done', async () => {
      const { api } = await merchant();
      const made = await link(api);
      assertRefused(await api.post<Body>(`/gateway/payment_links/${made.id}/deactivate/`, { reason: 'sold out' }), ['body']);
      assert.equal((await api.get<{ active: boolean }>(`/gateway/payment_links/${made.id}/`)).body.active, true);
      const hook = await endpoint(api);
      assertRefused(await api.post<Body>(`/gateway/webhook_endpoints/${hook.body.id}/rotate_secret/`, { expire_previous: true }), ['body']);
      assert.equal(await previousSecretExpiry(hook.body.id), null, 'no rotation was made');
    });

    it('when cancel, checkout or a DELETE is sent a body, be it JSON, text or an array, then 422 naming the body; no body or an empty object is taken', async () => {
      const { api } = await merchant();
      const session = String((await api.post<Body>('/gateway/sessions/', sessionRequest())).body['id']);
      const hook = await endpoint(api);
      const refusals: [method: string, path: string, body: string][] = [
        ['POST', `/gateway/sessions/${session}/cancel/`, '{"reason":"duplicate"}'],
        ['POST', `/gateway/sessions/${session}/checkout/`, '[]'],
        ['POST', `/gateway/sessions/${session}/checkout/`, 'please'],
        ['POST', `/gateway/sessions/${session}/cancel/`, 'null'],
        ['DELETE', `/gateway/webhook_endpoints/${hook.body.id}/`, '{"force":true}'],
      ];
      for (const [method, path, body] of refusals) {
        const res = await api.request<Body>(method, path, body);
        try {
          assertRefused(res, ['body']);
          assert.match(res.body.errors?.[0]?.message ?? '', /takes no request body/);
        } catch (err) {
          assert.fail(`${method} ${path} ${body}: ${String(err)}`);
        }
      }
      assert.equal((await api.post(`/gateway/sessions/${session}/checkout/`, {})).status, 201);
      assert.equal((await api.post(`/gateway/sessions/${session}/checkout/`)).status, 201);
      assert.equal((await api.post(`/gateway/sessions/${session}/cancel/`, '{ }')).status, 200);
      assert.equal((await api.request('DELETE', `/gateway/webhook_endpoints/${hook.body.id}/`)).status, 200);
    });
  });

  describe('unknown query parameters', () => {
    it('when /balance/ or /webhook_endpoints/ is asked with a parameter it does not know (the review\'s reproduction), then 422 naming it', async () => {
      const { api } = await merchant();
      assertRefused(await api.get<Body>('/gateway/balance/?currency=EUR'), ['currency']);
      assertRefused(await api.get<Body>('/gateway/webhook_endpoints/?limit=5&colour=red'), ['limit', 'colour']);
      assert.equal((await api.get('/gateway/balance/')).status, 200);
      assert.equal((await api.get('/gateway/webhook_endpoints/')).status, 200);
    });

    it('when every GET of the OpenAPI document is asked with an unknown parameter besides its own, then each answers 422 naming only that one', async () => {
      const { api } = await merchant();
      const session = String((await api.post<Body>('/gateway/sessions/', sessionRequest())).body['id']);
      const hook = await endpoint(api);
      const made = await link(api);
      const ids: Record<string, string> = { session_id: session, endpoint_id: hook.body.id, payment_link_id: made.id, refund_id: 're_00000000000000000000' };
      const required: Record<string, string> = { '/gateway/reports/daily/': 'from=2026-01-01&to=2026-01-31&' };
      const openApi = (await system.api().get<{ paths: Record<string, Record<string, unknown>> }>('/openapi.json')).body;
      const gets = Object.entries(openApi.paths).filter(([, item]) => item['get'] !== undefined);
      assert.ok(gets.length >= 18, `${gets.length} GET operations`);
      for (const [template] of gets) {
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? '');
        const res = await api.get<Body>(`${path}?${required[template] ?? ''}colour=red`);
        try {
          assertRefused(res, ['colour']);
        } catch (err) {
          assert.fail(`GET ${path}: ${String(err)}`);
        }
      }
    });
  });
});
