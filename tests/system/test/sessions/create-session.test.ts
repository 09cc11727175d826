/**
 * Session creation through the gateway against real PostgreSQL, RabbitMQ and
 * Redis: validation (INTERFACE 7.2, D5, D6), conversion, idempotency (D3).
 */
import assert from 'node:assert/strict';
import { sessionRequest, TestSystem, type ApiClient, type EventCapture } from '@gateway/testkit';

type Body = Record<string, unknown> & { errors?: { field: string; code: string; message: string }[] };

describe('POST /gateway/sessions/', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let events: EventCapture;

  before(async () => {
    system = await TestSystem.start();
    events = await system.captureEvents(['session.*']);
  });
  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  async function merchantApi(): Promise<{ api: ApiClient; merchantId: string }> {
    const merchant = await system.newMerchant({ limits: { account: 1000, create: 1000 } });
    return { api: system.api(merchant.testKey), merchantId: merchant.merchantId };
  }

  async function countRows(merchantId: string): Promise<number> {
    const rows = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM session.sessions WHERE merchant_id = $1', [merchantId]);
    return rows[0]?.n ?? -1;
  }

  describe('when the request is valid', () => {
    it('then it answers 201 with the session detail, stores one row, and publishes nothing (no service consumes a creation)', async () => {
      const { api, merchantId } = await merchantApi();
      const request = sessionRequest({ description: 'Two books', items: [{ name: 'Book', quantity: 2, unit_price: '62.750' }], metadata: { cart: '42' } });
      const res = await api.post<Body>('/gateway/sessions/', request);
      assert.equal(res.status, 201);
      const body = res.body;
      assert.match(String(body['id']), /^ps_[0-9A-Za-z]{20,}$/);
      assert.equal(body['amount'], '125.500');
      assert.equal(body['currency'], 'TND');
      assert.deepEqual(body['original'], { amount: '125.500', currency: 'TND', rate: '1.000000' });
      assert.equal(body['status'], 'CREATED');
      assert.equal(body['livemode'], false);
      assert.equal(body['max_attempts'], 5);
      assert.equal(body['amount_refunded'], '0.000');
      assert.equal(body['locale'], 'auto');
      assert.deepEqual(body['attempts'], []);
      assert.deepEqual(body['items'], request['items']);
      assert.deepEqual(body['metadata'], { cart: '42' });
      assert.match(String(body['order_number']), /^[A-Z0-9]{1,3}-[0-9A-HJKMNP-TV-Z]{6}$/);
      assert.match(String(body['checkout_url']), new RegExp(`^${system.baseUrl}/checkout/[\\w-]+\\.[\\w-]+\\.[\\w-]+$`));
      const ttl = Date.parse(String(body['expires_at'])) - Date.parse(String(body['created_at']));
      assert.equal(ttl, 86_400_000);
      assert.equal(await countRows(merchantId), 1);
      // Its cancel is announced; the relay publishes in commit order, so an event of its creation would have come first.
      assert.equal((await api.post(`/gateway/sessions/${String(body['id'])}/cancel/`, {})).status, 200);
      await events.waitFor('session.canceled', (e) => (e.data as { session: { id: string } }).session.id === body['id']);
      const about = events.events.filter((e) => (e.data as { session?: { id: string } }).session?.id === body['id']);
      assert.deepEqual(about.map((e) => e.type), ['session.canceled']);
    });

    it('then a locale is stored and echoed in the detail (D18)', async () => {
      const { api } = await merchantApi();
      for (const locale of ['fr', 'en', 'ar', 'auto']) {
        const res = await api.post<Body>('/gateway/sessions/', sessionRequest({ locale }));
        assert.equal(res.status, 201, res.text);
        assert.equal(res.body['locale'], locale);
        const rows = await system.db.query<{ locale: string }>('SELECT locale FROM session.sessions WHERE id = $1', [res.body['id']]);
        assert.equal(rows[0]?.locale, locale);
        assert.equal((await api.get<Body>(`/gateway/sessions/${String(res.body['id'])}/`)).body['locale'], locale);
      }
    });

    it('then a foreign amount is converted at the merchant rate, half-up, and the request frozen in original', async () => {
      const { api, merchantId } = await merchantApi();
      await system.admin(['rate', 'set', merchantId, '--mode', 'test', '--currency', 'EUR', '--rate', '3.3325']);
      const res = await api.post<Body>('/gateway/sessions/', sessionRequest({ amount: '1.00', currency: 'eur' }));
      assert.equal(res.status, 201);
      assert.equal(res.body['amount'], '3.333');
      assert.deepEqual(res.body['original'], { amount: '1.00', currency: 'EUR', rate: '3.332500' });
      // A later rate change never alters it, and a replay still answers the stored snapshot.
      await system.admin(['rate', 'remove', merchantId, '--mode', 'test', '--currency', 'EUR']);
      const replay = await api.post<Body>('/gateway/sessions/', sessionRequest({ amount: '1.00', currency: 'EUR', merchant_reference: res.body['merchant_reference'] }));
      assert.equal(replay.status, 200);
      assert.equal(replay.body['id'], res.body['id']);
      assert.deepEqual(replay.body['original'], { amount: '1.00', currency: 'EUR', rate: '3.332500' });
    });

    it('then a test key accepts http URLs, while a live key needs https and gets a livemode session', async () => {
      const { api, merchantId } = await merchantApi();
      const res = await api.post<Body>('/gateway/sessions/', sessionRequest({ return_url: 'http://shop.example.tn/done' }));
      assert.equal(res.status, 201);
      assert.equal(res.body['return_url'], 'http://shop.example.tn/done');

      const live = system.api(await system.approveLive(merchantId, { terminal: true }));
      const http = await live.post<Body>('/gateway/sessions/', sessionRequest({ return_url: 'http://shop.example.tn/done' }));
      assert.equal(http.status, 422);
      assert.deepEqual(http.body.errors?.map((e) => [e.field, e.code]), [['return_url', 'invalid']]);
      const https = await live.post<Body>('/gateway/sessions/', sessionRequest({ return_url: 'https://shop.example.tn/done' }));
      assert.equal(https.status, 201);
      assert.equal(https.body['livemode'], true);
    });
  });

  describe('when fields are invalid', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['amount missing', { amount: undefined }, 'amount', 'required'],
      ['amount a number', { amount: 12.5 }, 'amount', 'invalid_type'],
      ['amount with thousands separators', { amount: '1,000.000' }, 'amount', 'invalid_format'],
      ['amount with a leading zero', { amount: '01.500' }, 'amount', 'invalid_format'],
      ['amount in exponent form', { amount: '1e3' }, 'amount', 'invalid_format'],
      ['TND amount with two decimals', { amount: '10.50' }, 'amount', 'invalid_precision'],
      ['TND amount without decimals', { amount: '10' }, 'amount', 'invalid_precision'],
      ['zero amount', { amount: '0.000' }, 'amount', 'invalid_value'],
      ['negative amount', { amount: '-5.000' }, 'amount', 'invalid_value'],
      ['amount over the maximum', { amount: '1000000.000' }, 'amount', 'amount_too_large'],
      ['currency without a rate', { amount: '10.00', currency: 'EUR' }, 'currency', 'currency_unsupported'],
      ['currency that is not ISO 4217', { currency: 'XYZ' }, 'currency', 'invalid'],
      ['email that is not an address', { email: 'amina-at-example' }, 'email', 'invalid'],
      ['first_name missing', { first_name: undefined }, 'first_name', 'required'],
      ['merchant_reference too long', { merchant_reference: 'r'.repeat(201) }, 'merchant_reference', 'invalid'],
      ['max_attempts above 10', { max_attempts: 11 }, 'max_attempts', 'invalid'],
      ['return_url not http(s)', { return_url: 'javascript:alert(1)' }, 'return_url', 'invalid'],
      ['unknown field', { amout: '1.000' }, 'amout', 'invalid'],
      ['locale the page does not speak', { locale: 'de' }, 'locale', 'invalid'],
      ['locale in another case', { locale: 'AR' }, 'locale', 'invalid'],
      ['item without a name', { items: [{ quantity: 1 }] }, 'items[0].name', 'required'],
      ['item with zero quantity', { items: [{ name: 'Book', quantity: 0 }] }, 'items[0].quantity', 'invalid'],
      ['metadata with a number value', { metadata: { a: 1 } }, 'metadata', 'invalid'],
      ['metadata with 51 keys', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata', 'invalid'],
    ];
    for (const [name, overrides, field, code] of cases) {
      it(`then ${name} answers 422 ${code} on ${field} and stores nothing`, async () => {
        const { api, merchantId } = await merchantApi();
        const res = await api.post<Body>('/gateway/sessions/', JSON.stringify(sessionRequest(overrides)));
        assert.equal(res.status, 422, res.text);
        assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
        assert.equal(res.body['title'], 'Validation Error');
        assert.equal(res.body['type'], `https://${new URL(system.baseUrl).host}/errors/validation-error`);
        assert.deepEqual(
          res.body.errors?.map((e) => [e.field, e.code]),
          [[field, code]],
        );
        assert.ok(res.body.errors?.[0]?.message);
        assert.equal(await countRows(merchantId), 0);
      });
    }

    it('then several errors come in one response, one per field, in request order, omitted fields last', async () => {
      const { api } = await merchantApi();
      const res = await api.post<Body>('/gateway/sessions/', {
        email: 'nope',
        amount: '10.5',
        currency: 'TND',
        merchant_reference: '',
        first_name: 'A',
        bogus: true,
      });
      assert.equal(res.status, 422);
      assert.deepEqual(
        res.body.errors?.map((e) => [e.field, e.code]),
        [
          ['email', 'invalid'],
          ['amount', 'invalid_precision'],
          ['merchant_reference', 'invalid'],
          ['bogus', 'invalid'],
          ['last_name', 'required'],
        ],
      );
    });

    it('then a foreign amount that rounds to nothing in TND is invalid_value and one too large after conversion is amount_too_large', async () => {
      const { api, merchantId } = await merchantApi();
      await system.admin(['rate', 'set', merchantId, '--mode', 'test', '--currency', 'USD', '--rate', '0.000049']);
      await system.admin(['rate', 'set', merchantId, '--mode', 'test', '--currency', 'EUR', '--rate', '3.5']);
      const tiny = await api.post<Body>('/gateway/sessions/', sessionRequest({ amount: '0.01', currency: 'USD' }));
      assert.deepEqual(tiny.body.errors?.map((e) => [e.field, e.code]), [['amount', 'invalid_value']]);
      const huge = await api.post<Body>('/gateway/sessions/', sessionRequest({ amount: '300000.00', currency: 'EUR' }));
      assert.deepEqual(huge.body.errors?.map((e) => [e.field, e.code]), [['amount', 'amount_too_large']]);
      assert.equal(await countRows(merchantId), 0);
    });
  });

  describe('when the same merchant_reference comes again', () => {
    it('then 50 concurrent creates give one 201 and 49 × 200, all the same session, one row', async () => {
      const { api, merchantId } = await merchantApi();
      const request = sessionRequest();
      const results = await Promise.all(Array.from({ length: 50 }, () => api.post<Body>('/gateway/sessions/', request)));
      const statuses = results.map((r) => r.status).sort();
      assert.deepEqual(statuses, [...Array(49).fill(200), 201].sort());
      const ids = new Set(results.map((r) => r.body['id']));
      assert.equal(ids.size, 1);
      const originals = new Set(results.map((r) => JSON.stringify(r.body['original'])));
      assert.equal(originals.size, 1);
      assert.equal(await countRows(merchantId), 1);
    });

    it('then a replay with another amount answers 409 conflict with existing_session_id, and changes nothing', async () => {
      const { api, merchantId } = await merchantApi();
      const request = sessionRequest();
      const first = await api.post<Body>('/gateway/sessions/', request);
      const other = await api.post<Body>('/gateway/sessions/', { ...request, amount: '99.000' });
      assert.equal(other.status, 409);
      assert.equal(other.body['type'], `https://${new URL(system.baseUrl).host}/errors/conflict`);
      assert.equal(other.body['existing_session_id'], first.body['id']);
      const otherCurrency = await api.post<Body>('/gateway/sessions/', { ...request, amount: '125.50', currency: 'EUR' });
      assert.equal(otherCurrency.status, 409);
      assert.equal(await countRows(merchantId), 1);
      const stored = await api.get<Body>(`/gateway/sessions/${String(first.body['id'])}/`);
      assert.equal(stored.body['amount'], '125.500');
    });

    it('then other differing fields are ignored and the stored snapshot returned', async () => {
      const { api } = await merchantApi();
      const request = sessionRequest({ description: 'first' });
      const first = await api.post<Body>('/gateway/sessions/', request);
      const replay = await api.post<Body>('/gateway/sessions/', { ...request, description: 'second', currency: 'tnd' });
      assert.equal(replay.status, 200);
      assert.equal(replay.body['description'], 'first');
      assert.equal(replay.body['checkout_url'], first.body['checkout_url']);
    });

    it('then the same reference for another merchant is a new session', async () => {
      const a = await merchantApi();
      const b = await merchantApi();
      const request = sessionRequest();
      const first = await a.api.post<Body>('/gateway/sessions/', request);
      const second = await b.api.post<Body>('/gateway/sessions/', request);
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.notEqual(first.body['id'], second.body['id']);
    });
  });
});
