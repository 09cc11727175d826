/**
 * D11's address rule, on (as in production): webhook URLs on loopback,
 * private, link-local, CGNAT or metadata addresses are refused when they are
 * given, and again when an attempt connects, after DNS.
 */
import assert from 'node:assert/strict';
import type { WebhookDelivery, WebhookDeliveryList } from '@gateway/contracts';
import { AppError } from '@gateway/problem';
import { sessionRequest, TestSystem, WebhookReceiver } from '@gateway/testkit';
import { sessionEvent, sleep } from './support.js';

const FORBIDDEN = [
  'http://127.0.0.1/hooks',
  'http://[::1]/hooks',
  'http://[::ffff:127.0.0.1]/hooks',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.1/hooks',
  'http://100.64.0.7/hooks',
  'http://192.168.1.20/hooks',
  'http://[fd00::1]/hooks',
  'http://localhost:8080/hooks',
];

describe('webhook address rule (WEBHOOK_ALLOW_PRIVATE off)', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let receiver: WebhookReceiver;

  before(async () => {
    system = await TestSystem.start({
      services: ['api-gateway', 'session', 'webhook-dispatcher'],
      serviceEnv: { 'webhook-dispatcher': { WEBHOOK_ALLOW_PRIVATE: 'false', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_LEASE_SECONDS: '3' }, session: { WEBHOOK_ALLOW_PRIVATE: 'false' }, 'api-gateway': { WEBHOOK_ALLOW_PRIVATE: 'false' } },
    });
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await receiver?.close();
    await system?.shutdown();
  });

  it('when an operator sets a forbidden default URL, then it is refused and the endpoint keeps its URL', async () => {
    const merchant = await system.newMerchant();
    for (const url of FORBIDDEN) {
      await assert.rejects(
        system.admin(['webhook', 'set-url', merchant.merchantId, '--mode', 'test', '--url', url]),
        (err: unknown) => err instanceof AppError && err.code === 'validation-error' && err.errors[0]?.field === 'url',
        url,
      );
      await assert.rejects(system.admin(['merchant', 'create', '--name', 'Shop', '--webhook-url', url]), AppError, url);
    }
    const endpoint = await system.db.query<{ url: string }>('SELECT url FROM webhooks.endpoints WHERE merchant_id = $1', [merchant.merchantId]);
    assert.equal(endpoint[0]?.url, '');
    const ok = await system.admin(['webhook', 'set-url', merchant.merchantId, '--mode', 'test', '--url', 'https://hooks.shop.example.tn/gateway']);
    assert.equal(ok['url'], 'https://hooks.shop.example.tn/gateway');
  });

  it('when a session names a forbidden webhook_url, then create answers 422 on that field and no session is made', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000, create: 1000 } });
    for (const url of FORBIDDEN) {
      const res = await system.api(merchant.testKey).post<{ errors: { field: string; code: string }[] }>('/gateway/sessions/', sessionRequest({ webhook_url: url }));
      assert.equal(res.status, 422, url);
      assert.deepEqual(res.body.errors.map((e) => [e.field, e.code]), [['webhook_url', 'invalid']], url);
    }
    const list = await system.api(merchant.testKey).get<{ data: unknown[] }>('/gateway/sessions/list/');
    assert.deepEqual(list.body.data, []);
  });

  it('when a merchant adds or moves a webhook endpoint to a forbidden address, then it answers 422 on url and nothing changes', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000 } });
    const api = system.api(merchant.testKey);
    for (const url of FORBIDDEN) {
      const res = await api.post<{ errors: { field: string; code: string }[] }>('/gateway/webhook_endpoints/', { url, enabled_events: ['*'] });
      assert.equal(res.status, 422, url);
      assert.deepEqual(res.body.errors.map((e) => [e.field, e.code]), [['url', 'invalid']], url);
    }
    const made = await api.post<{ id: string }>('/gateway/webhook_endpoints/', { url: 'https://hooks.shop.example.tn/a', enabled_events: ['*'] });
    assert.equal(made.status, 201, made.text);
    for (const url of FORBIDDEN) {
      const res = await api.request('PATCH', `/gateway/webhook_endpoints/${made.body.id}/`, { url });
      assert.equal(res.status, 422, url);
    }
    const list = await api.get<{ data: { url: string }[] }>('/gateway/webhook_endpoints/');
    assert.deepEqual(list.body.data.map((e) => e.url), ['https://hooks.shop.example.tn/a']);
  });

  it('when an event reaches a forbidden address anyway, then the attempt is refused at connect time, after DNS, and nothing is sent', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000 } });
    const urls = [receiver.url(), `http://localhost:${receiver.port}/hooks`, `http://[::ffff:127.0.0.1]:${receiver.port}/hooks`];
    const events = urls.map((webhookUrl) => sessionEvent('session.succeeded', merchant.merchantId, { webhookUrl }));
    await system.publishEvents(events);
    for (const event of events) {
      let rows: WebhookDelivery[] = [];
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        // 404 until the dispatcher has stored the event: the session exists nowhere else.
        const res = await system.api(merchant.testKey).get<WebhookDeliveryList>(`/gateway/sessions/${event.data.session.id}/webhooks/`);
        rows = res.status === 200 ? res.body.data : [];
        if (rows[0]?.status === 'FAILED') break;
        await sleep(100);
      }
      assert.equal(rows[0]?.status, 'FAILED', event.data.webhook_url);
      assert.match(rows[0]?.error_message ?? '', /not allowed/, event.data.webhook_url);
      assert.equal(rows[0]?.http_status_code, null);
    }
    assert.equal(receiver.received.length, 0);
  });
});
