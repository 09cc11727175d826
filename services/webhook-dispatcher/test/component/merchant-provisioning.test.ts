/**
 * A merchant's default webhook endpoints, provisioned by the dispatcher (the
 * owner of endpoints) from merchant.created (test mode) and
 * merchant.kyb_approved (live mode), which commit with the change: no second
 * call from gateway-admin or the console, so no merchant without an endpoint
 * when that call would have failed.
 */
import assert from 'node:assert/strict';
import type { AuditEntry, Envelope, EventData } from '@gateway/contracts';
import { pollUntil, TestSystem, type EventCapture } from '@gateway/testkit';

type Created = { merchant_id: string; test_secret_key: string; test_webhook_secret: string };
type Endpoint = { url: string; n: number };

describe('merchant.created and merchant.kyb_approved: the default webhook endpoints', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let events: EventCapture;

  before(async () => {
    system = await TestSystem.start({ services: ['api-gateway', 'webhook-dispatcher'], readyTimeoutMs: 60_000 });
    events = await system.captureEvents(['merchant.created', 'merchant.kyb_approved', 'audit.recorded']);
  });
  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  async function defaultEndpoint(merchantId: string): Promise<Endpoint | undefined> {
    const rows = await system.db.query<Endpoint>(
      'SELECT min(url) AS url, count(*)::int AS n FROM webhooks.endpoints WHERE merchant_id = $1 AND NOT livemode AND is_default HAVING count(*) > 0',
      [merchantId],
    );
    return rows[0];
  }

  const revealed = async (merchantId: string) =>
    (await system.send<{ webhook_secret: string }>('webhook_endpoint.reveal_secret', { merchant_id: merchantId, mode: 'test' })).webhook_secret;

  it('when gateway-admin creates a merchant, then its endpoint has the URL given and the secret printed, provisioned from merchant.created without a provisioning command', async () => {
    const created = (await system.admin(['merchant', 'create', '--name', 'Hooked Shop', '--webhook-url', 'https://hooked.example.tn/events'])) as Created;
    assert.match(created.test_webhook_secret, /^whsec_/);
    assert.deepEqual(await defaultEndpoint(created.merchant_id), { url: 'https://hooked.example.tn/events', n: 1 });
    assert.equal(await revealed(created.merchant_id), created.test_webhook_secret);
    // Reveal names the URL too: gateway-admin tells from it whether the URL it gave was kept.
    const shown = await system.send<{ url: string }>('webhook_endpoint.reveal_secret', { merchant_id: created.merchant_id, mode: 'test' });
    assert.equal(shown.url, 'https://hooked.example.tn/events');

    const [event] = await events.waitFor<EventData<'merchant.created'>>('merchant.created', (e) => e.data.merchant_id === created.merchant_id);
    assert.equal(event?.data.test_webhook_url, 'https://hooked.example.tn/events');
    // The CLI's last command is the read of the secret: once it is in the audit log, a provisioning command would be too.
    const ofThisMerchant = (action: string) => (e: Envelope<AuditEntry>) => e.data.action === action && e.data.merchant_id === created.merchant_id;
    await events.waitFor<AuditEntry>('audit.recorded', ofThisMerchant('webhook_endpoint.reveal_secret'));
    assert.deepEqual(events.of<AuditEntry>('audit.recorded', ofThisMerchant('webhook_endpoint.provision')), [], 'no provisioning command was sent');
  });

  it('when merchant.created is delivered again after the URL was changed, then the endpoint keeps its secret and its new URL, and stays one', async () => {
    const created = (await system.admin(['merchant', 'create', '--name', 'Redelivered Shop', '--webhook-url', 'https://first.example.tn/hooks'])) as Created;
    const [event] = await events.waitFor<EventData<'merchant.created'>>('merchant.created', (e) => e.data.merchant_id === created.merchant_id);
    await system.admin(['webhook', 'set-url', created.merchant_id, '--mode', 'test', '--url', 'https://second.example.tn/hooks']);

    await system.publishEvents([event as Envelope, event as Envelope]);
    await system.waitForQueueDrained(`${system.prefix}.webhook-dispatcher.events`);
    assert.deepEqual(await defaultEndpoint(created.merchant_id), { url: 'https://second.example.tn/hooks', n: 1 });
    assert.equal(await revealed(created.merchant_id), created.test_webhook_secret);
  });

  it('when KYB is approved, then the live-mode endpoint comes from merchant.kyb_approved with the secret gateway-admin printed, and a redelivery changes nothing', async () => {
    const created = (await system.admin(['merchant', 'create', '--name', 'Going Live Shop'])) as Created;
    const approved = (await system.admin(['merchant', 'approve-kyb', created.merchant_id])) as { live_webhook_secret: string };
    const live = async () =>
      (await system.db.query<Endpoint>('SELECT url, 1 AS n FROM webhooks.endpoints WHERE merchant_id = $1 AND livemode AND is_default', [created.merchant_id]));
    assert.deepEqual(await live(), [{ url: '', n: 1 }]);
    const liveSecret = async () => (await system.send<{ webhook_secret: string }>('webhook_endpoint.reveal_secret', { merchant_id: created.merchant_id, mode: 'live' })).webhook_secret;
    assert.equal(await liveSecret(), approved.live_webhook_secret);

    const [event] = await events.waitFor('merchant.kyb_approved', (e) => (e.data as { merchant_id: string }).merchant_id === created.merchant_id);
    await system.publishEvents([event as Envelope]);
    await system.waitForQueueDrained(`${system.prefix}.webhook-dispatcher.events`);
    assert.deepEqual(await live(), [{ url: '', n: 1 }]);
    assert.equal(await liveSecret(), approved.live_webhook_secret);
    await events.waitFor<AuditEntry>('audit.recorded', (e) => e.data.action === 'webhook_endpoint.reveal_secret' && e.data.merchant_id === created.merchant_id, 2);
    assert.deepEqual(events.of<AuditEntry>('audit.recorded', (e) => e.data.action === 'webhook_endpoint.provision' && e.data.merchant_id === created.merchant_id), []);
  });

  it('when the webhook dispatcher is down while a merchant is created, then the creation stands and the endpoint is provisioned once the dispatcher is back', async () => {
    await system.stopService('webhook-dispatcher');
    try {
      const created = await system.send<{ merchant_id: string }>('merchant.create', { name: 'Patient Shop', webhook_url: 'https://patient.example.tn/hooks' });
      assert.equal(await defaultEndpoint(created.merchant_id), undefined, 'nothing yet: the event waits on the queue');
      await system.startService('webhook-dispatcher');
      await pollUntil(async () => (await defaultEndpoint(created.merchant_id)) !== undefined, 20_000, 'the endpoint provisioned after the restart');
      assert.deepEqual(await defaultEndpoint(created.merchant_id), { url: 'https://patient.example.tn/hooks', n: 1 });
    } finally {
      if (!system.replicasOf('webhook-dispatcher').length) await system.startService('webhook-dispatcher');
    }
  });

  it('when the webhook URL is not an http(s) URL, then merchant.create is refused naming webhook_url and no merchant is made', async () => {
    const name = `Refused Shop ${Date.now()}`;
    await assert.rejects(system.send('merchant.create', { name, webhook_url: 'ftp://files.example.tn/' }), (err: { code?: string }) => err.code === 'validation-error');
    const rows = await system.db.query('SELECT 1 FROM api_gateway.merchants WHERE name = $1', [name]);
    assert.equal(rows.length, 0);
  });
});
