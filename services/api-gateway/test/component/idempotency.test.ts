/**
 * Idempotency-Key on the API's POSTs (D10), against a real gateway and session
 * service: the first answer is kept per (merchant, mode, key, route) and
 * replayed byte for byte; another body under the key is refused; a request
 * still in flight holds the key; 5xx answers are never kept; keys expire.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sessionRequest, TestSystem, type ApiClient, type ApiResponse } from '@gateway/testkit';

type Body = Record<string, unknown> & { errors?: { field: string; code: string }[] };

interface KeyRow {
  key: string;
  route: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
}

describe('Idempotency-Key', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let host: string;

  before(async () => {
    system = await TestSystem.start({ services: ['api-gateway', 'session', 'webhook-dispatcher'], serviceEnv: { 'api-gateway': { SWEEP_INTERVAL_SECONDS: '1' } } });
    host = new URL(system.baseUrl).host;
  });
  after(async () => {
    await system?.shutdown();
  });

  async function merchant(limits: { account?: number; create?: number } = { account: 1000, create: 1000 }) {
    const m = await system.newMerchant({ limits });
    return { ...m, api: system.api(m.testKey) };
  }

  const newKey = () => `order-attempt-${randomUUID()}`;
  const withKey = (key: string) => ({ 'idempotency-key': key });

  async function sessionCount(merchantId: string): Promise<number> {
    const rows = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM session.sessions WHERE merchant_id = $1', [merchantId]);
    return rows[0]?.n ?? -1;
  }

  async function keyRows(merchantId: string): Promise<KeyRow[]> {
    return system.db.query<KeyRow>(
      'SELECT key, route, state, response_status, response_body FROM api_gateway.idempotency_keys WHERE merchant_id = $1 ORDER BY created_at',
      [merchantId],
    );
  }

  function assertReplay(first: ApiResponse<Body>, again: ApiResponse<Body>): void {
    assert.equal(again.status, first.status);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(first.headers.get('idempotent-replayed'), null);
  }

  function assertProblem(res: ApiResponse<Body>, status: number, suffix: string): void {
    assert.equal(res.status, status, res.text);
    assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.equal(res.body['type'], `https://${host}/errors/${suffix}`);
  }

  async function create(api: ApiClient, key: string, body: unknown = sessionRequest()) {
    return api.post<Body>('/gateway/sessions/', body, withKey(key));
  }

  it('when a create is sent twice with one key and one body, then one session exists and the second answer is the first, byte for byte, marked replayed', async () => {
    const m = await merchant();
    const key = newKey();
    const body = sessionRequest();
    const first = await create(m.api, key, body);
    assert.equal(first.status, 201, first.text);
    const again = await create(m.api, key, body);
    assertReplay(first, again);
    // The trailing slash does not make another route (D1).
    const noSlash = await m.api.post<Body>('/gateway/sessions', body, withKey(key));
    assertReplay(first, noSlash);
    assert.equal(await sessionCount(m.merchantId), 1);
    const rows = await keyRows(m.merchantId);
    assert.deepEqual(
      rows.map((r) => [r.key, r.route, r.state, r.response_status, r.response_body]),
      [[key, 'POST /gateway/sessions', 'done', 201, first.text]],
    );
  });

  it('when the same body is sent again with its keys reordered and other whitespace, then it is the same request and is replayed', async () => {
    const m = await merchant();
    const key = newKey();
    const body = sessionRequest({ metadata: { a: '1', b: '2' }, items: [{ name: 'Tea', quantity: 2 }] });
    const first = await create(m.api, key, JSON.stringify(body));
    assert.equal(first.status, 201, first.text);
    const reordered = Object.fromEntries(Object.entries({ ...body, metadata: { b: '2', a: '1' }, items: [{ quantity: 2, name: 'Tea' }] }).reverse());
    const again = await create(m.api, key, JSON.stringify(reordered, null, 3));
    assertReplay(first, again);
    assert.equal(await sessionCount(m.merchantId), 1);
  });

  it('when a key is sent again with another body, then it answers 422 idempotency-key-reused and creates nothing', async () => {
    const m = await merchant();
    const key = newKey();
    const first = await create(m.api, key);
    assert.equal(first.status, 201, first.text);
    const other = await create(m.api, key, sessionRequest());
    assertProblem(other, 422, 'idempotency-key-reused');
    assert.equal(other.headers.get('idempotent-replayed'), null);
    assert.equal(await sessionCount(m.merchantId), 1);
    // The first answer is still the one kept.
    assert.equal((await keyRows(m.merchantId))[0]?.response_body, first.text);
  });

  it('when one key is used on other routes or for other sessions, then each route and path is its own scope', async () => {
    const m = await merchant();
    const key = newKey();
    const a = await create(m.api, key);
    const b = await m.api.post<Body>('/gateway/sessions/', sessionRequest());
    assert.equal(a.status, 201, a.text);
    assert.equal(b.status, 201, b.text);

    const cancelA = await m.api.post<Body>(`/gateway/sessions/${String(a.body['id'])}/cancel/`, undefined, withKey(key));
    assert.equal(cancelA.status, 200, cancelA.text);
    assert.equal(cancelA.body['status'], 'CANCELED');
    assert.equal(cancelA.headers.get('idempotent-replayed'), null);
    const cancelB = await m.api.post<Body>(`/gateway/sessions/${String(b.body['id'])}/cancel/`, undefined, withKey(key));
    assert.equal(cancelB.status, 200, cancelB.text);
    assert.equal(cancelB.body['id'], b.body['id']);
    assert.equal(cancelB.headers.get('idempotent-replayed'), null);

    // Without the key a second cancel is refused (D2); with it, the first answer is replayed.
    assertProblem(await m.api.post<Body>(`/gateway/sessions/${String(a.body['id'])}/cancel/`), 409, 'session-terminal');
    assertReplay(cancelA, await m.api.post<Body>(`/gateway/sessions/${String(a.body['id'])}/cancel`, undefined, withKey(key)));

    const rows = await keyRows(m.merchantId);
    assert.deepEqual(
      rows.map((r) => r.route).sort(),
      ['POST /gateway/sessions', `POST /gateway/sessions/${String(a.body['id'])}/cancel`, `POST /gateway/sessions/${String(b.body['id'])}/cancel`].sort(),
    );
  });

  it('when the path is far longer than any route, then a keyed POST answers 404 not-found as an unkeyed one does, and stores nothing', async () => {
    const m = await merchant();
    const path = `/gateway/sessions/ps_${randomUUID().repeat(60)}/cancel/`;
    assertProblem(await m.api.post<Body>(path), 404, 'not-found');
    assertProblem(await m.api.post<Body>(path, undefined, withKey(newKey())), 404, 'not-found');
    assert.deepEqual(await keyRows(m.merchantId), []);
  });

  it('when another merchant uses the same key and body, then it gets its own session', async () => {
    const m1 = await merchant();
    const m2 = await merchant();
    const key = newKey();
    const body = sessionRequest();
    const first = await create(m1.api, key, body);
    const second = await create(m2.api, key, body);
    assert.equal(first.status, 201, first.text);
    assert.equal(second.status, 201, second.text);
    assert.equal(second.headers.get('idempotent-replayed'), null);
    assert.notEqual(second.body['id'], first.body['id']);
    assert.equal(await sessionCount(m1.merchantId), 1);
    assert.equal(await sessionCount(m2.merchantId), 1);
  });

  it('when the first answer is a 4xx problem, then the same request gets the same problem again, and a corrected body under the key is refused', async () => {
    const m = await merchant();
    const key = newKey();
    const invalid = sessionRequest({ amount: '10.50', amuont: '1.000' });
    const first = await create(m.api, key, invalid);
    assertProblem(first, 422, 'validation-error');
    const again = await create(m.api, key, invalid);
    assertReplay(first, again);
    assertProblem(await create(m.api, key, { ...invalid, amount: '10.500', amuont: undefined }), 422, 'idempotency-key-reused');
    assert.equal(await sessionCount(m.merchantId), 0);
    assert.deepEqual((await keyRows(m.merchantId)).map((r) => [r.state, r.response_status]), [['done', 422]]);
  });

  it('when 10 requests with one key arrive at once, then exactly one runs (201); the others get 409 conflict or its replay', async () => {
    const m = await merchant();
    const key = newKey();
    const body = sessionRequest();
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(m.api, key, body)));
    const ran = answers.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    assert.equal(ran.length, 1, answers.map((r) => r.status).join(','));
    const original = ran[0] as ApiResponse<Body>;
    for (const res of answers) {
      if (res === original) continue;
      if (res.status === 409) {
        assertProblem(res, 409, 'conflict');
        assert.match(String(res.body['detail']), /in flight/);
      } else {
        assertReplay(original, res);
      }
    }
    assert.equal(await sessionCount(m.merchantId), 1);
  });

  for (const [name, key] of [
    ['empty', ''],
    ['300 characters long', 'k'.repeat(300)],
    ['holding a tab', 'order\t42'],
    ['holding a non-ASCII character', 'commande-é'],
  ] as const) {
    it(`when the key is ${name}, then it answers 422 validation-error on field Idempotency-Key and creates nothing`, async () => {
      const m = await merchant();
      const res = await create(m.api, key);
      assertProblem(res, 422, 'validation-error');
      assert.deepEqual(res.body.errors?.map((e) => [e.field, e.code]), [['Idempotency-Key', 'invalid']]);
      assert.equal(await sessionCount(m.merchantId), 0);
      assert.deepEqual(await keyRows(m.merchantId), []);
    });
  }

  it('when the key is 255 printable characters, then it is accepted', async () => {
    const m = await merchant();
    // Inner spaces only: HTTP trims a header value's leading and trailing whitespace.
    const key = `a !"#$%&'()*+,-./09:;<=>?@AZ[\\]^_\`az{|}~`.padEnd(255, 'x');
    const first = await create(m.api, key);
    assert.equal(first.status, 201, first.text);
    assert.deepEqual((await keyRows(m.merchantId)).map((r) => r.key), [key]);
  });

  it('when no key is sent, then nothing changes: create stays idempotent on merchant_reference alone, and no key is stored', async () => {
    const m = await merchant();
    const body = sessionRequest();
    const first = await m.api.post<Body>('/gateway/sessions/', body);
    const again = await m.api.post<Body>('/gateway/sessions/', body);
    assert.equal(first.status, 201, first.text);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), null);
    assert.equal(await sessionCount(m.merchantId), 1);
    assert.deepEqual(await keyRows(m.merchantId), []);
  });

  it('when a GET carries a key, then the key is ignored', async () => {
    const m = await merchant();
    const res = await m.api.get<Body>('/gateway/sessions/list/', withKey(''));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await keyRows(m.merchantId), []);
  });

  it('when a key has expired, then it is new again: another body runs instead of being refused', async () => {
    const m = await merchant();
    const key = newKey();
    const first = await create(m.api, key);
    assert.equal(first.status, 201, first.text);
    await system.db.query("UPDATE api_gateway.idempotency_keys SET expires_at = now() - interval '1 second' WHERE merchant_id = $1", [m.merchantId]);
    const second = await create(m.api, key, sessionRequest());
    assert.equal(second.status, 201, second.text);
    assert.equal(second.headers.get('idempotent-replayed'), null);
    assert.notEqual(second.body['id'], first.body['id']);
    assert.equal(await sessionCount(m.merchantId), 2);
    assert.deepEqual((await keyRows(m.merchantId)).map((r) => [r.state, r.response_body]), [['done', second.text]]);
  });

  it('when a request holding a key died, then the key answers 409 while the claim is recent, and runs again once it is abandoned', async () => {
    const m = await merchant();
    const key = newKey();
    const body = sessionRequest();
    assert.equal((await create(m.api, key, body)).status, 201);
    // As the row of a gateway that crashed mid-request would look.
    await system.db.query(
      "UPDATE api_gateway.idempotency_keys SET state = 'started', response_status = NULL, response_body = NULL WHERE merchant_id = $1",
      [m.merchantId],
    );
    const inFlight = await create(m.api, key, body);
    assertProblem(inFlight, 409, 'conflict');
    assert.match(String(inFlight.body['detail']), /still in flight/);
    // Older than the command deadline (3 s in tests) plus the margin: nothing can still be running it.
    await system.db.query("UPDATE api_gateway.idempotency_keys SET created_at = now() - interval '1 minute' WHERE merchant_id = $1", [m.merchantId]);
    const rerun = await create(m.api, key, body);
    assert.equal(rerun.status, 200, rerun.text); // the session's own replay on merchant_reference (D3)
    assert.equal(rerun.headers.get('idempotent-replayed'), null);
    assert.equal(await sessionCount(m.merchantId), 1);
    assert.deepEqual((await keyRows(m.merchantId)).map((r) => [r.state, r.response_status]), [['done', 200]]);
  });

  it('when expired keys are left, then the periodic purge deletes them and keeps the live ones', async () => {
    const m = await merchant();
    const [stale, live] = [newKey(), newKey()];
    assert.equal((await create(m.api, stale)).status, 201);
    assert.equal((await create(m.api, live)).status, 201);
    await system.db.query("UPDATE api_gateway.idempotency_keys SET expires_at = now() - interval '1 second' WHERE merchant_id = $1 AND key = $2", [m.merchantId, stale]);
    const deadline = Date.now() + 5_000;
    while ((await keyRows(m.merchantId)).length > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual((await keyRows(m.merchantId)).map((r) => r.key), [live]);
  });

  it('when replays come faster than the create budget, then they are limited like any request (429)', async () => {
    const m = await merchant({ account: 1000, create: 2 });
    const key = newKey();
    const body = sessionRequest();
    const first = await create(m.api, key, body);
    assert.equal(first.status, 201, first.text);
    const burst = await Promise.all(Array.from({ length: 6 }, () => create(m.api, key, body)));
    const limited = burst.filter((r) => r.status === 429);
    assert.ok(limited.length >= 2, burst.map((r) => r.status).join(','));
    for (const res of burst) if (res.status !== 429) assertReplay(first, res);
  });

  it('when the first answer is 409 conflict (a payment still under way), then it is not kept: a retry with the key runs again once that has ended', async () => {
    const m = await merchant();
    const created = await m.api.post<Body>('/gateway/sessions/', sessionRequest());
    const id = String(created.body['id']);
    await system.db.query(`UPDATE session.sessions SET status = 'PROCESSING' WHERE id = $1`, [id]);
    const key = newKey();
    const busy = await m.api.post<Body>(`/gateway/sessions/${id}/cancel/`, undefined, withKey(key));
    assertProblem(busy, 409, 'conflict');
    await system.db.query(`UPDATE session.sessions SET status = 'PENDING' WHERE id = $1`, [id]);
    const again = await m.api.post<Body>(`/gateway/sessions/${id}/cancel/`, undefined, withKey(key));
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body['status'], 'CANCELED');
    assert.equal(again.headers.get('idempotent-replayed'), null);
  });

  it('when the command fails with a 5xx, then the key is given back and a retry with it runs once the service is back', async () => {
    const m = await merchant();
    const key = newKey();
    const body = sessionRequest();
    await system.stopService('session');
    let failed: ApiResponse<Body>;
    try {
      failed = await create(m.api, key, body);
    } finally {
      await system.startService('session');
    }
    assert.ok(failed.status >= 500, failed.text);
    assertProblem(failed, failed.status, 'internal-error');
    assert.deepEqual(await keyRows(m.merchantId), []);
    const retry = await create(m.api, key, body);
    assert.equal(retry.status, 201, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    assert.equal(await sessionCount(m.merchantId), 1);
    assert.deepEqual((await keyRows(m.merchantId)).map((r) => [r.state, r.response_status]), [['done', 201]]);
  });
});
