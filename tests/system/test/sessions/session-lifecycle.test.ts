/**
 * Reading, listing, canceling sessions and issuing checkout links through the
 * gateway (INTERFACE 4.2-4.6; DECISIONS D2, D4, D6).
 */
import assert from 'node:assert/strict';
import { sessionRequest, TestSystem, type ApiClient, type EventCapture } from '@gateway/testkit';

type Body = Record<string, unknown> & { errors?: { field: string; code: string }[] };
type ListBody = { data: { id: string; created_at: string }[]; has_more: boolean };

describe('Session lifecycle', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let events: EventCapture;
  let host: string;

  before(async () => {
    system = await TestSystem.start();
    events = await system.captureEvents(['session.*']);
    host = new URL(system.baseUrl).host;
  });
  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  async function merchant(): Promise<{ api: ApiClient; merchantId: string; key: string }> {
    const m = await system.newMerchant({ limits: { account: 5000, create: 5000 } });
    return { api: system.api(m.testKey), merchantId: m.merchantId, key: m.testKey };
  }

  async function create(api: ApiClient, overrides: Record<string, unknown> = {}): Promise<Body> {
    const res = await api.post<Body>('/gateway/sessions/', sessionRequest(overrides));
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  describe('GET /gateway/sessions/{id}/', () => {
    it('when the session is the caller’s, then it answers 200 with the detail, same as at create', async () => {
      const { api } = await merchant();
      const created = await create(api);
      for (const path of [`/gateway/sessions/${String(created['id'])}/`, `/gateway/sessions/${String(created['id'])}`]) {
        const res = await api.get<Body>(path);
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, created);
      }
    });

    it('when another merchant, or the same merchant’s key of the other mode, asks, then it answers 404 not-found', async () => {
      const a = await merchant();
      const b = await merchant();
      const created = await create(a.api);
      const path = `/gateway/sessions/${String(created['id'])}/`;
      const other = await b.api.get<Body>(path);
      assert.equal(other.status, 404);
      assert.equal(other.body['type'], `https://${host}/errors/not-found`);
      const live = system.api(String((await system.admin(['merchant', 'approve-kyb', a.merchantId]))['live_secret_key']));
      assert.equal((await live.get(path)).status, 404);
      assert.equal((await b.api.post(`${path}cancel/`)).status, 404);
      assert.equal((await b.api.post(`${path}checkout/`)).status, 404);
      assert.equal((await a.api.get('/gateway/sessions/ps_doesnotexist000000000000/')).status, 404);
    });
  });

  describe('POST /gateway/sessions/{id}/cancel/', () => {
    it('when the session is CREATED, then it answers 200 CANCELED, stores it and emits session.canceled once', async () => {
      const { api } = await merchant();
      const created = await create(api);
      const id = String(created['id']);
      const res = await api.post<Body>(`/gateway/sessions/${id}/cancel/`);
      assert.equal(res.status, 200);
      assert.equal(res.body['status'], 'CANCELED');
      assert.ok(res.body['completed_at']);
      const rows = await system.db.query<{ status: string }>('SELECT status FROM session.sessions WHERE id = $1', [id]);
      assert.equal(rows[0]?.status, 'CANCELED');
      const [event] = await events.waitFor<{ session: { id: string; status: string } }>('session.canceled', (e) => e.data.session.id === id);
      assert.equal(event?.data.session.status, 'CANCELED');

      const again = await api.post<Body>(`/gateway/sessions/${id}/cancel/`);
      assert.equal(again.status, 409);
      assert.equal(again.body['type'], `https://${host}/errors/session-terminal`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(events.of<{ session: { id: string } }>('session.canceled', (e) => e.data.session.id === id).length, 1);
    });

    it('when an attempt is PROCESSING, then it answers 409 conflict and the session stays PROCESSING', async () => {
      const { api } = await merchant();
      const id = String((await create(api))['id']);
      await system.db.query(`UPDATE session.sessions SET status = 'PROCESSING' WHERE id = $1`, [id]);
      const res = await api.post<Body>(`/gateway/sessions/${id}/cancel/`);
      assert.equal(res.status, 409);
      assert.equal(res.body['type'], `https://${host}/errors/conflict`);
      assert.equal((await api.get<Body>(`/gateway/sessions/${id}/`)).body['status'], 'PROCESSING');
    });
  });

  describe('POST /gateway/sessions/{id}/checkout/', () => {
    it('when links are issued, then the fifth active one is accepted and the sixth answers 422 checkout-limit-exceeded', async () => {
      const { api } = await merchant();
      const created = await create(api);
      const id = String(created['id']);
      const urls = new Set([String(created['checkout_url'])]);
      for (let i = 0; i < 4; i += 1) {
        const res = await api.post<Body>(`/gateway/sessions/${id}/checkout/`);
        assert.equal(res.status, 201, res.text);
        assert.ok(Date.parse(String(res.body['expires_at'])) > Date.now());
        urls.add(String(res.body['checkout_url']));
      }
      assert.equal(urls.size, 5);
      const sixth = await api.post<Body>(`/gateway/sessions/${id}/checkout/`);
      assert.equal(sixth.status, 422);
      assert.equal(sixth.body['type'], `https://${host}/errors/checkout-limit-exceeded`);
      // The session shows the newest link.
      const detail = await api.get<Body>(`/gateway/sessions/${id}/`);
      assert.ok(urls.has(String(detail.body['checkout_url'])));
      assert.notEqual(detail.body['checkout_url'], created['checkout_url']);
    });

    it('when six links are requested at once, then exactly four more are issued (five active in all)', async () => {
      const { api } = await merchant();
      const id = String((await create(api))['id']);
      const results = await Promise.all(Array.from({ length: 6 }, () => api.post(`/gateway/sessions/${id}/checkout/`)));
      assert.deepEqual(results.map((r) => r.status).sort(), [201, 201, 201, 201, 422, 422]);
      const rows = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM session.checkout_links WHERE session_id = $1', [id]);
      assert.equal(rows[0]?.n, 5);
    });

    it('when the session is terminal or processing, then it answers 409 session-terminal or conflict', async () => {
      const { api } = await merchant();
      const canceled = String((await create(api))['id']);
      await api.post(`/gateway/sessions/${canceled}/cancel/`);
      const terminal = await api.post<Body>(`/gateway/sessions/${canceled}/checkout/`);
      assert.equal(terminal.status, 409);
      assert.equal(terminal.body['type'], `https://${host}/errors/session-terminal`);
      const processing = String((await create(api))['id']);
      await system.db.query(`UPDATE session.sessions SET status = 'PROCESSING' WHERE id = $1`, [processing]);
      const busy = await api.post<Body>(`/gateway/sessions/${processing}/checkout/`);
      assert.equal(busy.status, 409);
      assert.equal(busy.body['type'], `https://${host}/errors/conflict`);
    });

    it('when the newest link has lapsed, then a create replay mints a fresh one; once the session expired, it has none', async () => {
      const { api } = await merchant();
      const request = sessionRequest();
      const created = (await api.post<Body>('/gateway/sessions/', request)).body;
      const id = String(created['id']);
      await system.db.query(`UPDATE session.sessions SET checkout_expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
      const replay = await api.post<Body>('/gateway/sessions/', request);
      assert.equal(replay.status, 200);
      assert.equal(replay.body['id'], id);
      assert.notEqual(replay.body['checkout_url'], created['checkout_url']);

      await system.db.query(`UPDATE session.sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
      const expired = await api.post<Body>('/gateway/sessions/', request);
      assert.equal(expired.status, 200);
      assert.equal(expired.body['status'], 'EXPIRED');
      assert.equal('checkout_url' in expired.body, false);
      assert.equal((await api.post<Body>(`/gateway/sessions/${id}/checkout/`)).body['type'], `https://${host}/errors/session-terminal`);
    });
  });

  describe('GET /gateway/sessions/list/', () => {
    it('when 250 sessions share few timestamps, then paging forward and backward returns every one exactly once', async () => {
      const { api, merchantId } = await merchant();
      const created: string[] = [];
      for (let batch = 0; batch < 5; batch += 1) {
        const bodies = await Promise.all(Array.from({ length: 50 }, () => create(api)));
        created.push(...bodies.map((b) => String(b['id'])));
      }
      // Five instants only: 50 sessions on each.
      await system.db.query(
        `UPDATE session.sessions SET created_at = timestamptz '2026-01-01T00:00:00Z' + (abs(hashtext(id)) % 5) * interval '1 millisecond'
         WHERE merchant_id = $1`,
        [merchantId],
      );
      const limit = 17;
      const forward: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 50; page += 1) {
        const query = `?limit=${limit}${cursor ? `&starting_after=${cursor}` : ''}`;
        const res = await api.get<ListBody>(`/gateway/sessions/list/${query}`);
        assert.equal(res.status, 200);
        forward.push(...res.body.data.map((s) => s.id));
        if (!res.body.has_more) break;
        cursor = res.body.data.at(-1)?.id;
      }
      assert.equal(forward.length, 250);
      assert.equal(new Set(forward).size, 250);
      assert.deepEqual([...forward].sort(), [...created].sort());

      // Newest first: (created_at, id) strictly decreasing.
      const rows = await system.db.query<{ id: string }>(
        'SELECT id FROM session.sessions WHERE merchant_id = $1 ORDER BY created_at DESC, id DESC',
        [merchantId],
      );
      assert.deepEqual(forward, rows.map((r) => r.id));

      const backward: string[] = [];
      cursor = forward.at(-1);
      for (let page = 0; page < 50; page += 1) {
        const res = await api.get<ListBody>(`/gateway/sessions/list/?limit=${limit}&ending_before=${cursor}`);
        assert.equal(res.status, 200);
        const ids = res.body.data.map((s) => s.id);
        // Each page is still newest first, and is the run of sessions just newer than the cursor.
        const at = forward.indexOf(String(cursor));
        assert.deepEqual(ids, forward.slice(Math.max(0, at - ids.length), at));
        backward.unshift(...ids);
        if (!res.body.has_more) break;
        cursor = ids[0];
      }
      assert.deepEqual(backward, forward.slice(0, -1));
    });

    it('when the query is wrong, then it answers 422 with the D6 field errors', async () => {
      const { api } = await merchant();
      const id = String((await create(api))['id']);
      const other = await merchant();
      const otherId = String((await create(other.api))['id']);
      const cases: [string, [string, string][]][] = [
        ['limit=0', [['limit', 'invalid']]],
        ['limit=101', [['limit', 'invalid']]],
        ['limit=ten', [['limit', 'invalid']]],
        [`starting_after=${id}&ending_before=${id}`, [['ending_before', 'invalid']]],
        [`starting_after=${otherId}`, [['starting_after', 'invalid']]],
        ['ending_before=ps_nope', [['ending_before', 'invalid']]],
      ];
      for (const [query, expected] of cases) {
        const res = await api.get<Body>(`/gateway/sessions/list/?${query}`);
        assert.equal(res.status, 422, query);
        assert.deepEqual(res.body.errors?.map((e) => [e.field, e.code]), expected, query);
      }
    });

    it('when no parameters are given, then it answers the 20 newest and has_more', async () => {
      const { api } = await merchant();
      await Promise.all(Array.from({ length: 21 }, () => create(api)));
      const res = await api.get<ListBody>('/gateway/sessions/list');
      assert.equal(res.status, 200);
      assert.equal(res.body.data.length, 20);
      assert.equal(res.body.has_more, true);
      assert.deepEqual(Object.keys(res.body.data[0] ?? {}).sort(), [
        'amount', 'buyer_email', 'buyer_first_name', 'buyer_last_name', 'created_at', 'currency', 'customer', 'id', 'livemode',
        'merchant_reference', 'order_id', 'order_number', 'original', 'payment_method', 'status',
      ]);
    });

  describe('GET /gateway/sessions/list/ with filters', () => {
    /** Twelve sessions an hour apart (the first oldest), every third one canceled. */
    async function twelve(): Promise<{ api: ApiClient; ids: string[]; canceled: Set<string>; at: (hour: number) => string }> {
      const { api } = await merchant();
      const ids: string[] = [];
      for (let n = 0; n < 12; n += 1) ids.push(String((await create(api, { merchant_reference: `filter-${n}-${ids.length}-${Date.now()}` }))['id']));
      const at = (hour: number) => new Date(Date.UTC(2026, 0, 1, hour)).toISOString();
      for (const [n, id] of ids.entries()) await system.db.query('UPDATE session.sessions SET created_at = $2 WHERE id = $1', [id, at(n)]);
      const canceled = new Set(ids.filter((_, n) => n % 3 === 0));
      for (const id of canceled) assert.equal((await api.post(`/gateway/sessions/${id}/cancel/`)).status, 200);
      return { api, ids, canceled, at };
    }

    async function listAll(api: ApiClient, filter: string, limit = 100): Promise<string[]> {
      const res = await api.get<ListBody & { data: { status: string }[] }>(`/gateway/sessions/list/?limit=${limit}&${filter}`);
      assert.equal(res.status, 200, `${filter}: ${res.text}`);
      return res.body.data.map((s) => s.id);
    }

    it('when status, created[gte], created[lte] or merchant_reference is given, then only the matching sessions come, newest first', async () => {
      const { api, ids, canceled, at } = await twelve();
      const newestFirst = [...ids].reverse();
      assert.deepEqual(await listAll(api, 'status=CANCELED'), newestFirst.filter((id) => canceled.has(id)));
      assert.deepEqual(await listAll(api, 'status=CREATED'), newestFirst.filter((id) => !canceled.has(id)));
      assert.deepEqual(await listAll(api, 'status=SUCCEEDED'), []);
      // Both bounds are inclusive; an offset other than Z names the same instant.
      assert.deepEqual(await listAll(api, `created[gte]=${encodeURIComponent(at(3))}&created[lte]=${encodeURIComponent('2026-01-01T09:00:00+01:00')}`), newestFirst.filter((_, i) => i >= 3 && i <= 8));
      assert.deepEqual(await listAll(api, `created%5Bgte%5D=${encodeURIComponent(at(10))}`), newestFirst.slice(0, 2));
      const reference = String((await api.get<Body>(`/gateway/sessions/${ids[5]}/`)).body['merchant_reference']);
      assert.deepEqual(await listAll(api, `merchant_reference=${encodeURIComponent(reference)}`), [ids[5]]);
      assert.deepEqual(await listAll(api, `merchant_reference=${encodeURIComponent(reference)}&status=CANCELED`), []);
    });

    it('when filters are combined with cursors, then pages walk exactly the filtered list both ways, and a cursor outside the filters is refused', async () => {
      const { api, ids, canceled, at } = await twelve();
      const filter = `status=CREATED&created[gte]=${at(1)}&created[lte]=${at(10)}`;
      const expected = [...ids].reverse().filter((id, i) => !canceled.has(id) && 11 - i >= 1 && 11 - i <= 10);
      assert.equal(expected.length, 7);
      const forward: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page += 1) {
        const res = await api.get<ListBody>(`/gateway/sessions/list/?limit=2&${filter}${cursor ? `&starting_after=${cursor}` : ''}`);
        assert.equal(res.status, 200, res.text);
        forward.push(...res.body.data.map((s) => s.id));
        if (!res.body.has_more) break;
        cursor = res.body.data.at(-1)?.id;
      }
      assert.deepEqual(forward, expected);
      const back = await api.get<ListBody>(`/gateway/sessions/list/?limit=3&${filter}&ending_before=${expected.at(-1)}`);
      assert.deepEqual(back.body.data.map((s) => s.id), expected.slice(-4, -1));
      assert.equal(back.body.has_more, true);

      // A canceled session is no cursor of the CREATED list: the problem names the cursor.
      const foreign = [...canceled][1];
      const refused = await api.get<Body>(`/gateway/sessions/list/?${filter}&starting_after=${foreign}`);
      assert.equal(refused.status, 422);
      assert.deepEqual(refused.body.errors?.map((e) => [e.field, e.code]), [['starting_after', 'invalid']]);
    });

    it('when a parameter is unknown or a filter is malformed, then it answers 422 validation-error naming each field, in query order', async () => {
      const { api } = await merchant();
      await create(api);
      const cases: [string, [string, string][]][] = [
        ['stauts=CREATED&page=2', [['stauts', 'invalid'], ['page', 'invalid']]],
        ['created[gt]=2026-01-01T00:00:00Z', [['created[gt]', 'invalid']]],
        ['status=PAID', [['status', 'invalid']]],
        ['status=CREATED&status=FAILED', [['status', 'invalid']]],
        ['created[gte]=2026-01-01', [['created[gte]', 'invalid']]],
        ['created[lte]=2026-01-01T00:00:00', [['created[lte]', 'invalid']]],
        ['created[gte]=2026-02-01T00:00:00Z&created[lte]=2026-01-01T00:00:00Z', [['created[gte]', 'invalid']]],
        ['merchant_reference=', [['merchant_reference', 'invalid']]],
        ['status=PAID&limit=0', [['status', 'invalid'], ['limit', 'invalid']]],
        ['limit=0&merchant_reference=&status=PAID', [['limit', 'invalid'], ['merchant_reference', 'invalid'], ['status', 'invalid']]],
      ];
      for (const [query, expected] of cases) {
        const res = await api.get<Body>(`/gateway/sessions/list/?${query}`);
        assert.equal(res.status, 422, query);
        assert.equal(res.body['type'], `https://${host}/errors/validation-error`, query);
        assert.deepEqual(res.body.errors?.map((e) => [e.field, e.code]), expected, query);
      }
      const status = await api.get<Body & { errors: { message: string }[] }>('/gateway/sessions/list/?status=PAID');
      assert.match(status.body.errors[0]?.message ?? '', /CREATED, PENDING, PROCESSING, AUTHORIZED, SUCCEEDED, FAILED, EXPIRED, CANCELED/);
    });
  });
  });
});
