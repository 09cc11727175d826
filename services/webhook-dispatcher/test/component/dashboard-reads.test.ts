/**
 * What the dashboard reads and does at the dispatcher (D14), in a running
 * system (gateway, session, dispatcher; real PostgreSQL, RabbitMQ and Redis):
 * the default endpoint and its secret, a managed endpoint's secret, one
 * attempt with what was sent and what came back, a resend held to its
 * merchant, the log's status filter.
 * Operator paths are signed as the test operator; a merchant user's, as the
 * dashboard signs them: by the same key, for an actor of one merchant.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuditEntry, CommandReply, CommandRequest, CommandType, WebhookDelivery, WebhookDeliveryList, WebhookEndpointWithSecret } from '@gateway/contracts';
import { Broker, OperatorSigner, RpcClient, type Actor, type JWK } from '@gateway/messaging';
import { createLogger } from '@gateway/observability';
import { type Merchant, pollUntil, TEST_OPERATOR, TestSystem, WebhookReceivers } from '@gateway/testkit';
import { verifySignature } from '@gateway/sdk';
import { sessionEvent, signatureParts } from './support.js';

type Problem = { type: string; status: number; errors?: { field: string; code: string; message: string }[] };

/** A merchant's endpoint that answers each request with the body `answer` gives it, and keeps what it got. */
async function answeringEndpoint(answer: (index: number) => { status: number; body: Buffer; type: string }): Promise<{ url: string; received: Buffer[]; close(): Promise<void> }> {
  const received: Buffer[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { status, body, type } = answer(received.length);
      received.push(Buffer.concat(chunks));
      res.writeHead(status, { 'content-type': type }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The operator commands of a dashboard user of `merchantId`, signed for them as the dashboard does (D14). */
async function userOf(system: TestSystem, merchantId: string): Promise<{ call<C extends CommandType>(type: C, data: CommandRequest<C>): Promise<CommandReply<C>>; stop(): Promise<void> }> {
  const broker = new Broker({ url: system.brokerUrls['gateway-admin'], prefix: system.prefix, log: createLogger({ service: 'test', level: 'silent' }) });
  await broker.start();
  const rpc = await broker.register(new RpcClient(broker, 5_000, await OperatorSigner.fromJwk(JSON.parse(system.operatorKey) as JWK, TEST_OPERATOR)));
  const actor: Actor = { type: 'user', id: 'usr_dashboardtest', email: 'dev@shop.example', address: '203.0.113.7', merchantId };
  return { call: async (type, data) => (await rpc.call(type, data, { actor })).body, stop: () => broker.stop() };
}

const codeOf = (code: string) => (err: unknown) => (err as { code?: string }).code === code;

describe('dashboard reads at the webhook dispatcher', function () {
  this.timeout(60_000);
  let system: TestSystem;
  const receivers = new WebhookReceivers();
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    system = await TestSystem.start({ services: ['api-gateway', 'session', 'webhook-dispatcher'], readyTimeoutMs: 60_000 });
  });
  after(async () => {
    await Promise.all(closers.map((close) => close()));
    await receivers.closeAll();
    await system?.shutdown();
  });

  async function deliveries(merchant: Merchant, query = ''): Promise<WebhookDelivery[]> {
    const res = await system.api(merchant.testKey).get<WebhookDeliveryList>(`/gateway/webhooks/?limit=100${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  /** Waits until the merchant's attempts of `eventIds` are all answered; their records, by event. */
  async function settled(merchant: Merchant, eventIds: readonly string[]): Promise<Map<string, WebhookDelivery>> {
    let byEvent = new Map<string, WebhookDelivery>();
    await pollUntil(
      async () => {
        byEvent = new Map((await deliveries(merchant)).filter((d) => d.status !== 'PENDING').map((d) => [d.event_id, d]));
        return eventIds.every((id) => byEvent.has(id));
      },
      10_000,
      'attempts recorded',
    );
    return byEvent;
  }

  it('when the dashboard shows a default endpoint, then it has the URL or null and the end of a rotation grace, never a secret', async () => {
    const receiver = await receivers.start();
    const withUrl = await system.newMerchant({ webhookUrl: receiver.url() });
    const without = await system.newMerchant();

    const shown = await system.send('webhook_endpoint.show', { merchant_id: withUrl.merchantId, mode: 'test' });
    assert.deepEqual(shown, { merchant_id: withUrl.merchantId, mode: 'test', url: receiver.url(), previous_secret_expires_at: null });
    assert.deepEqual(await system.send('webhook_endpoint.show', { merchant_id: without.merchantId, mode: 'test' }), {
      merchant_id: without.merchantId,
      mode: 'test',
      url: null,
      previous_secret_expires_at: null,
    });

    const rotated = (await system.admin(['webhook', 'rotate-secret', withUrl.merchantId, '--mode', 'test'])) as { webhook_secret: string; previous_secret_expires_at: string };
    const after = await system.send<Record<string, unknown>>('webhook_endpoint.show', { merchant_id: withUrl.merchantId, mode: 'test' });
    assert.equal(after['previous_secret_expires_at'], rotated.previous_secret_expires_at);
    assert.ok(Date.parse(String(after['previous_secret_expires_at'])) > Date.now());
    assert.ok(!JSON.stringify(after).includes('whsec_'), 'no secret shown');

    // Live mode exists only once the merchant is approved.
    await assert.rejects(system.send('webhook_endpoint.show', { merchant_id: without.merchantId, mode: 'live' }), codeOf('not-found'));
  });

  it('when the secret is revealed, then it is the secret that signs the webhooks, before and after a rotation', async () => {
    const receiver = await receivers.start();
    const merchant = await system.newMerchant({ webhookUrl: receiver.url() });
    const revealed = await system.send<{ webhook_secret: string }>('webhook_endpoint.reveal_secret', { merchant_id: merchant.merchantId, mode: 'test' });
    assert.equal(revealed.webhook_secret, merchant.webhookSecret);

    const first = sessionEvent('session.succeeded', merchant.merchantId);
    await system.publishEvents([first]);
    await receiver.waitFor((r) => r.length === 1);
    const [got] = receiver.received;
    assert.ok(got && verifySignature(got.raw, got.signature, revealed.webhook_secret));

    const rotated = (await system.admin(['webhook', 'rotate-secret', merchant.merchantId, '--mode', 'test'])) as { webhook_secret: string };
    const now = await system.send<{ webhook_secret: string }>('webhook_endpoint.reveal_secret', { merchant_id: merchant.merchantId, mode: 'test' });
    assert.equal(now.webhook_secret, rotated.webhook_secret);
    assert.notEqual(now.webhook_secret, merchant.webhookSecret);

    await system.publishEvents([sessionEvent('session.failed', merchant.merchantId)]);
    await receiver.waitFor((r) => r.length === 2);
    const second = receiver.received[1];
    assert.ok(second);
    // The new secret signs first (D11); the revealed one is it.
    const { t, v1 } = signatureParts(second);
    assert.ok(verifySignature(second.raw, `t=${t},v1=${v1[0] ?? ''}`, now.webhook_secret));
  });

  it('when one attempt is read, then it carries the record, the exact payload sent and the first 4 KiB of the answer as text, for its merchant only', async () => {
    // A 10 KiB HTML error page first; then a 2xx whose 4 KiB limit falls inside a two-byte character.
    const page = Buffer.from(`<html><body><script>alert("x")</script>${'<p>error</p>'.repeat(900)}</body></html>`, 'utf8');
    const cut = Buffer.concat([Buffer.from('a'.repeat(4095)), Buffer.from('é and more', 'utf8')]);
    const endpoint = await answeringEndpoint((index) =>
      index === 0 ? { status: 500, body: page, type: 'text/html' } : { status: 200, body: cut, type: 'text/plain; charset=utf-8' },
    );
    closers.push(endpoint.close);
    const merchant = await system.newMerchant({ webhookUrl: endpoint.url });
    const other = await system.newMerchant();

    const failing = sessionEvent('session.failed', merchant.merchantId);
    await system.publishEvents([failing]);
    await settled(merchant, [failing.id]);
    const succeeding = sessionEvent('session.succeeded', merchant.merchantId);
    await system.publishEvents([succeeding]);
    const byEvent = await settled(merchant, [failing.id, succeeding.id]);
    const failed = byEvent.get(failing.id) as WebhookDelivery;
    const succeeded = byEvent.get(succeeding.id) as WebhookDelivery;
    assert.equal(failed.status, 'FAILED');
    assert.equal(succeeded.status, 'SUCCEEDED');

    const attempt = await system.send<Record<string, unknown>>('webhook.attempt', { merchant_id: merchant.merchantId, delivery_id: failed.id });
    assert.deepEqual(attempt, { ...failed, payload: endpoint.received[0]?.toString('utf8'), response_body: page.subarray(0, 4096).toString('utf8') });
    assert.equal(String(attempt['response_body']).length, 4096);
    assert.ok(String(attempt['response_body']).startsWith('<html><body><script>'), 'kept as received, as text');

    const ok = await system.send<Record<string, unknown>>('webhook.attempt', { merchant_id: merchant.merchantId, delivery_id: succeeded.id });
    assert.equal(ok['payload'], endpoint.received[1]?.toString('utf8'));
    assert.equal(ok['response_body'], 'a'.repeat(4095), 'the character the limit cut is left out, not mangled');

    // Another merchant's attempt is unknown, like one that does not exist.
    await assert.rejects(system.send('webhook.attempt', { merchant_id: other.merchantId, delivery_id: failed.id }), codeOf('not-found'));
    await assert.rejects(system.send('webhook.attempt', { merchant_id: merchant.merchantId, delivery_id: 'whd_doesnotexist' }), codeOf('not-found'));
  });

  it('when an attempt fails without an answer, then it keeps no response body', async () => {
    const endpoint = await answeringEndpoint(() => ({ status: 200, body: Buffer.alloc(0), type: 'text/plain' }));
    const url = endpoint.url;
    await endpoint.close();
    const merchant = await system.newMerchant({ webhookUrl: url });
    const event = sessionEvent('session.failed', merchant.merchantId);
    await system.publishEvents([event]);
    const delivery = (await settled(merchant, [event.id])).get(event.id) as WebhookDelivery;
    const attempt = await system.send<Record<string, unknown>>('webhook.attempt', { merchant_id: merchant.merchantId, delivery_id: delivery.id });
    assert.equal(attempt['status'], 'FAILED');
    assert.equal(attempt['http_status_code'], null);
    assert.equal(attempt['response_body'], null);
  });

  it('when a resend names a merchant, then only a delivery of that merchant is resent', async () => {
    const receiver = await receivers.start();
    const merchant = await system.newMerchant({ webhookUrl: receiver.url() });
    const other = await system.newMerchant();
    const event = sessionEvent('session.succeeded', merchant.merchantId);
    await system.publishEvents([event]);
    const delivery = (await settled(merchant, [event.id])).get(event.id) as WebhookDelivery;

    await assert.rejects(system.send('webhook.resend', { delivery_id: delivery.id, merchant_id: other.merchantId }), codeOf('not-found'));
    assert.equal((await deliveries(merchant)).length, 1, 'nothing resent');

    const resent = await system.send<{ delivery_id: string }>('webhook.resend', { delivery_id: delivery.id, merchant_id: merchant.merchantId });
    await receiver.waitFor((r) => r.length === 2);
    assert.deepEqual(receiver.received.map((r) => r.eventId), [event.id, event.id]);
    assert.deepEqual((await deliveries(merchant)).map((d) => d.id), [resent.delivery_id, delivery.id]);
  });

  it("when a merchant's user asks, then only their own merchant's endpoint and attempts answer", async () => {
    const receiver = await receivers.start();
    const mine = await system.newMerchant({ webhookUrl: receiver.url() });
    const theirs = await system.newMerchant({ webhookUrl: receiver.url() });
    const myEvent = sessionEvent('session.succeeded', mine.merchantId);
    const theirEvent = sessionEvent('session.succeeded', theirs.merchantId);
    await system.publishEvents([myEvent, theirEvent]);
    const myDelivery = (await settled(mine, [myEvent.id])).get(myEvent.id) as WebhookDelivery;
    const theirDelivery = (await settled(theirs, [theirEvent.id])).get(theirEvent.id) as WebhookDelivery;

    const user = await userOf(system, mine.merchantId);
    closers.push(user.stop);
    assert.equal((await user.call('webhook_endpoint.show', { merchant_id: mine.merchantId, mode: 'test' })).url, receiver.url());
    assert.equal((await user.call('webhook_endpoint.reveal_secret', { merchant_id: mine.merchantId, mode: 'test' })).webhook_secret, mine.webhookSecret);
    assert.equal((await user.call('webhook.attempt', { merchant_id: mine.merchantId, delivery_id: myDelivery.id })).id, myDelivery.id);

    // Naming another merchant is refused before anything runs; naming their object under one's own merchant is not found.
    await assert.rejects(user.call('webhook_endpoint.show', { merchant_id: theirs.merchantId, mode: 'test' }), codeOf('forbidden'));
    await assert.rejects(user.call('webhook_endpoint.reveal_secret', { merchant_id: theirs.merchantId, mode: 'test' }), codeOf('forbidden'));
    await assert.rejects(user.call('webhook.attempt', { merchant_id: theirs.merchantId, delivery_id: theirDelivery.id }), codeOf('forbidden'));
    await assert.rejects(user.call('webhook.attempt', { merchant_id: mine.merchantId, delivery_id: theirDelivery.id }), codeOf('not-found'));
    await assert.rejects(user.call('webhook.resend', { delivery_id: theirDelivery.id, merchant_id: mine.merchantId }), codeOf('not-found'));
    await assert.rejects(user.call('webhook.resend', { delivery_id: theirDelivery.id }), codeOf('forbidden'));
    assert.equal((await deliveries(theirs)).length, 1, 'their delivery was not resent');
    await assert.rejects(user.call('webhooks.secrets.rewrap', {}), codeOf('forbidden'));

    const resent = await user.call('webhook.resend', { delivery_id: myDelivery.id, merchant_id: mine.merchantId });
    await pollUntil(async () => (await deliveries(mine)).some((d) => d.id === resent.delivery_id), 5_000, 'own delivery resent');
  });

  it("when a merchant's user reveals a managed endpoint's secret, then it is the one that signs its webhooks, after a rotation too, only within their merchant and mode, and the reveal is audited naming the endpoint", async () => {
    const audit = await system.captureEvents(['audit.recorded']);
    closers.push(() => audit.stop());
    const receiver = await receivers.start();
    const mine = await system.newMerchant();
    const theirs = await system.newMerchant();
    const create = async (merchant: Merchant) => {
      const res = await system.api(merchant.testKey).post<WebhookEndpointWithSecret>('/gateway/webhook_endpoints/', { url: receiver.url(), enabled_events: ['session.succeeded'] });
      assert.equal(res.status, 201, res.text);
      return res.body;
    };
    const endpoint = await create(mine);
    const theirEndpoint = await create(theirs);
    const user = await userOf(system, mine.merchantId);
    closers.push(user.stop);
    const reveal = (endpointId: string, mode: 'test' | 'live' = 'test') => user.call('webhook_endpoint.reveal_secret', { merchant_id: mine.merchantId, mode, endpoint_id: endpointId });

    assert.deepEqual(await reveal(endpoint.id), { merchant_id: mine.merchantId, mode: 'test', url: receiver.url(), webhook_secret: endpoint.secret });
    assert.equal((await user.call('webhook_endpoint.reveal_secret', { merchant_id: mine.merchantId, mode: 'test' })).webhook_secret, mine.webhookSecret, 'without an id: the default endpoint');

    const rotated = await system.api(mine.testKey).post<WebhookEndpointWithSecret>(`/gateway/webhook_endpoints/${endpoint.id}/rotate_secret/`);
    assert.equal(rotated.status, 200, rotated.text);
    const now = (await reveal(endpoint.id)).webhook_secret;
    assert.equal(now, rotated.body.secret);
    const event = sessionEvent('session.succeeded', mine.merchantId);
    await system.publishEvents([event]);
    await receiver.waitFor((r) => r.some((x) => x.eventId === event.id));
    const [sent] = receiver.forEvent(event.id);
    assert.ok(sent);
    assert.equal(signatureParts(sent).v1.length, 2, 'the old secret signs too during the overlap');
    assert.ok(verifySignature(sent.raw, sent.signature, now));

    // Another merchant's endpoint, or one's own in the other mode, is not found, as at the API.
    await assert.rejects(reveal(theirEndpoint.id), codeOf('not-found'));
    await assert.rejects(reveal(endpoint.id, 'live'), codeOf('not-found'));
    await assert.rejects(user.call('webhook_endpoint.reveal_secret', { merchant_id: theirs.merchantId, mode: 'test', endpoint_id: theirEndpoint.id }), codeOf('forbidden'));

    const [entry] = await audit.waitFor<AuditEntry>('audit.recorded', (e) => e.data.action === 'webhook_endpoint.reveal_secret' && e.data.target === endpoint.id);
    assert.equal(entry?.data.merchant_id, mine.merchantId);
    assert.equal(entry?.data.actor_type, 'user');
    assert.ok(!JSON.stringify(audit.of('audit.recorded')).includes('whsec_'), 'no secret in the audit log');
  });

  it('when the webhook log is filtered by status, then only those attempts come, cursors included, and a bad filter is refused', async () => {
    // Even requests fail, odd ones succeed.
    const endpoint = await answeringEndpoint((index) => ({ status: index % 2 === 0 ? 500 : 200, body: Buffer.from('{}'), type: 'application/json' }));
    closers.push(endpoint.close);
    const merchant = await system.newMerchant({ webhookUrl: endpoint.url, limits: { account: 1000 } });
    const events = [0, 1, 2, 3].map(() => sessionEvent('session.succeeded', merchant.merchantId));
    for (const event of events) {
      await system.publishEvents([event]);
      await settled(merchant, [event.id]);
    }
    const all = await deliveries(merchant);
    const failedIds = all.filter((d) => d.status === 'FAILED').map((d) => d.id);
    const succeededIds = all.filter((d) => d.status === 'SUCCEEDED').map((d) => d.id);
    assert.equal(failedIds.length, 2);
    assert.equal(succeededIds.length, 2);

    assert.deepEqual((await deliveries(merchant, '&status=FAILED')).map((d) => d.id), failedIds);
    assert.deepEqual((await deliveries(merchant, '&status=SUCCEEDED')).map((d) => d.id), succeededIds);
    assert.deepEqual(await deliveries(merchant, '&status=PENDING'), []);

    const api = system.api(merchant.testKey);
    const first = await api.get<WebhookDeliveryList>('/gateway/webhooks/?status=FAILED&limit=1');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual([first.body.data.map((d) => d.id), first.body.has_more], [[failedIds[0]], true]);
    const next = await api.get<WebhookDeliveryList>(`/gateway/webhooks/?status=FAILED&limit=1&starting_after=${failedIds[0]}`);
    assert.deepEqual([next.body.data.map((d) => d.id), next.body.has_more], [[failedIds[1]], false]);
    const back = await api.get<WebhookDeliveryList>(`/gateway/webhooks/?status=FAILED&ending_before=${failedIds[1]}`);
    assert.deepEqual(back.body.data.map((d) => d.id), [failedIds[0]]);

    const refused = async (query: string, field: string, message?: RegExp) => {
      const res = await api.get<Problem>(`/gateway/webhooks/?${query}`);
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.errors?.[0]?.field, field, res.text);
      if (message) assert.match(res.body.errors?.[0]?.message ?? '', message);
    };
    await refused('status=failed', 'status', /PENDING, SUCCEEDED, FAILED/);
    await refused('state=FAILED', 'state');
    // A cursor must match the filter it comes with.
    await refused(`status=FAILED&starting_after=${succeededIds[0]}`, 'starting_after');
  });
});
