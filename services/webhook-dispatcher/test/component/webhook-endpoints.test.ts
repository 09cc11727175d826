/**
 * Webhook endpoints the merchant manages (issue 19) in a running system
 * (gateway, session, dispatcher; real PostgreSQL, RabbitMQ and Redis), with
 * lifetimes shortened through configuration: retries after 1 s, an endpoint
 * failing for 2 s is disabled, sweeps every second, one event per replay page,
 * one day of retention (older rows are made by dating rows back).
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { WebhookDelivery, WebhookDeliveryList, WebhookEndpoint, WebhookEndpointWithSecret, WebhookReplayResult } from '@gateway/contracts';
import { type Merchant, pollUntil, type Responder, TestSystem, WebhookReceiver, WebhookReceivers } from '@gateway/testkit';
import { verifySignature } from '@gateway/sdk';
import { sessionEvent, signatureParts, sleep } from './support.js';

const DISPATCHER_ENV = {
  WEBHOOK_RETRY_DELAYS_SECONDS: '1,1,1',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_SECONDS: '3',
  SWEEP_INTERVAL_SECONDS: '1',
  WEBHOOK_SECRET_GRACE_SECONDS: '30',
  WEBHOOK_ENDPOINT_DISABLE_AFTER_SECONDS: '2',
  WEBHOOK_REPLAY_BATCH: '1',
  WEBHOOK_RETENTION_DAYS: '1',
  WEBHOOK_MAX_ENDPOINTS: '3',
};

/** The endpoint as every answer but create and rotation shows it. */
function withoutSecret(endpoint: WebhookEndpointWithSecret): WebhookEndpoint {
  const shown: Partial<WebhookEndpointWithSecret> = { ...endpoint };
  delete shown.secret;
  return shown as WebhookEndpoint;
}

type Problem = { type: string; status: number; errors?: { field: string; code: string; message: string }[] };

describe('webhook endpoints', function () {
  this.timeout(60_000);
  let system: TestSystem;
  const receivers = new WebhookReceivers();
  const secretsSeen: string[] = [];

  before(async () => {
    system = await TestSystem.start({ services: ['api-gateway', 'session', 'webhook-dispatcher'], serviceEnv: { 'webhook-dispatcher': DISPATCHER_ENV } });
  });
  after(async () => {
    await receivers.closeAll();
    await system?.shutdown();
  });

  const receiver = (answer?: Responder): Promise<WebhookReceiver> => receivers.start(answer);

  async function merchantFor(target?: WebhookReceiver): Promise<Merchant> {
    return system.newMerchant({ limits: { account: 1000 }, ...(target && { webhookUrl: target.url() }) });
  }

  async function createEndpoint(merchant: Merchant, body: Record<string, unknown>, headers?: Record<string, string>): Promise<WebhookEndpointWithSecret> {
    const res = await system.api(merchant.testKey).post<WebhookEndpointWithSecret>('/gateway/webhook_endpoints/', body, headers);
    assert.equal(res.status, 201, res.text);
    secretsSeen.push(res.body.secret);
    return res.body;
  }

  async function deliveries(merchant: Merchant): Promise<WebhookDelivery[]> {
    const res = await system.api(merchant.testKey).get<WebhookDeliveryList>('/gateway/webhooks/?limit=100');
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  it('when two endpoints want different events, then each receives exactly its events signed with its own secret, and the default URL and a session URL keep their meaning', async () => {
    const main = await receiver();
    const fulfilment = await receiver();
    const accounting = await receiver();
    const sessionOwn = await receiver();
    const merchant = await merchantFor(main);
    const a = await createEndpoint(merchant, { url: fulfilment.url(), enabled_events: ['session.succeeded'], description: 'fulfilment' });
    const b = await createEndpoint(merchant, { url: accounting.url(), enabled_events: ['session.failed', 'refund.created'] });
    assert.match(a.id, /^we_/);
    assert.match(a.secret, /^whsec_/);
    assert.notEqual(a.secret, b.secret);
    assert.deepEqual([a.status, a.livemode, a.description, a.disabled_reason], ['enabled', false, 'fulfilment', null]);

    const succeeded = sessionEvent('session.succeeded', merchant.merchantId);
    const failed = sessionEvent('session.failed', merchant.merchantId);
    const canceled = sessionEvent('session.canceled', merchant.merchantId);
    // Its session names its own URL: it replaces the default endpoint's, not the managed endpoints'.
    const ownUrl = sessionEvent('session.succeeded', merchant.merchantId, { webhookUrl: sessionOwn.url() });
    await system.publishEvents([succeeded, failed, canceled, ownUrl]);

    await main.waitFor((r) => r.length >= 3);
    await fulfilment.waitFor((r) => r.length >= 2);
    await accounting.waitFor((r) => r.length >= 1);
    await sessionOwn.waitFor((r) => r.length >= 1);
    await sleep(300);
    assert.deepEqual(main.received.map((r) => r.eventId).sort(), [succeeded.id, failed.id, canceled.id].sort());
    assert.deepEqual(fulfilment.received.map((r) => r.eventId).sort(), [succeeded.id, ownUrl.id].sort());
    assert.deepEqual(accounting.received.map((r) => r.eventId), [failed.id]);
    assert.deepEqual(sessionOwn.received.map((r) => r.eventId), [ownUrl.id]);

    for (const got of fulfilment.received) {
      assert.ok(verifySignature(got.raw, got.signature, a.secret));
      assert.ok(!verifySignature(got.raw, got.signature, merchant.webhookSecret), 'a managed endpoint is not signed with the default secret');
    }
    const [toAccounting] = accounting.received;
    assert.ok(toAccounting && verifySignature(toAccounting.raw, toAccounting.signature, b.secret));
    assert.ok(main.received.every((r) => verifySignature(r.raw, r.signature, merchant.webhookSecret)));
    assert.ok(fulfilment.received[0]?.raw.equals(main.received.find((r) => r.eventId === fulfilment.received[0]?.eventId)?.raw ?? Buffer.alloc(0)), 'one body for every endpoint');

    await pollUntil(async () => (await deliveries(merchant)).filter((d) => d.status === 'SUCCEEDED').length === 7, 5_000, 'seven deliveries recorded');
    const history = await deliveries(merchant);
    const byEndpoint = (id: string) => history.filter((d) => d.endpoint_id === id).map((d) => d.event_id).sort();
    assert.deepEqual(byEndpoint(a.id), [succeeded.id, ownUrl.id].sort());
    assert.deepEqual(byEndpoint(b.id), [failed.id]);
    const defaultRows = history.filter((d) => d.endpoint_id !== a.id && d.endpoint_id !== b.id);
    assert.equal(new Set(defaultRows.map((d) => d.endpoint_id)).size, 1, 'the default endpoint has one id');
    assert.equal(defaultRows.find((d) => d.event_id === ownUrl.id)?.url, sessionOwn.url());

    // A change of enabled_events applies to the next event.
    const patched = await system.api(merchant.testKey).request<WebhookEndpoint>('PATCH', `/gateway/webhook_endpoints/${b.id}/`, { enabled_events: ['*'], description: 'all' });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual([patched.body.enabled_events, patched.body.description, patched.body.url], [['*'], 'all', accounting.url()]);
    const expired = sessionEvent('session.expired', merchant.merchantId);
    await system.publishEvents([expired]);
    await accounting.waitFor((r) => r.some((x) => x.eventId === expired.id));
    await sleep(300);
    assert.equal(fulfilment.forEvent(expired.id).length, 0);
  });

  it('when an endpoint is created, read, listed, rotated and deleted, then the secret shows only on create and rotation, and both secrets sign during the overlap', async () => {
    const target = await receiver();
    const merchant = await merchantFor();
    const api = system.api(merchant.testKey);
    // With an Idempotency-Key the answer is kept for a replay, encrypted only (D17): the last test checks the dump.
    const made = await createEndpoint(merchant, { url: target.url(), enabled_events: ['session.succeeded', 'session.failed'] }, { 'Idempotency-Key': `create-${merchant.merchantId}` });

    const read = await api.get<Record<string, unknown>>(`/gateway/webhook_endpoints/${made.id}/`);
    assert.equal(read.status, 200);
    assert.equal(read.body['secret'], undefined);
    const shown = withoutSecret(made);
    assert.deepEqual(read.body, shown);
    const list = await api.get<{ data: WebhookEndpoint[]; has_more: boolean }>('/gateway/webhook_endpoints/');
    assert.deepEqual(list.body, { data: [shown], has_more: false });
    assert.ok(!list.text.includes('whsec_'));

    const rotated = await api.post<WebhookEndpointWithSecret>(`/gateway/webhook_endpoints/${made.id}/rotate_secret/`);
    assert.equal(rotated.status, 200, rotated.text);
    secretsSeen.push(rotated.body.secret);
    assert.notEqual(rotated.body.secret, made.secret);
    const overlap = Date.parse(rotated.body.previous_secret_expires_at ?? '') - Date.now();
    assert.ok(overlap > 25_000 && overlap <= 30_000, `the old secret signs for ${overlap} ms more`);

    const event = sessionEvent('session.succeeded', merchant.merchantId);
    await system.publishEvents([event]);
    await target.waitFor((r) => r.length === 1);
    const got = target.received[0];
    assert.ok(got);
    const { v1 } = signatureParts(got);
    assert.equal(v1.length, 2, 'new secret first, then the old one');
    assert.ok(verifySignature(got.raw, got.signature, rotated.body.secret));
    assert.ok(verifySignature(got.raw, got.signature, made.secret));

    const deleted = await api.request<{ id: string; deleted: boolean }>('DELETE', `/gateway/webhook_endpoints/${made.id}/`);
    assert.deepEqual([deleted.status, deleted.body], [200, { id: made.id, deleted: true }]);
    assert.equal((await api.get(`/gateway/webhook_endpoints/${made.id}/`)).status, 404);
    await system.publishEvents([sessionEvent('session.succeeded', merchant.merchantId)]);
    await sleep(500);
    assert.equal(target.received.length, 1, 'a deleted endpoint receives nothing');
    assert.ok((await deliveries(merchant)).some((d) => d.endpoint_id === made.id), 'its history stays readable');
  });

  it('when endpoints are deleted while their attempts are being delivered and recorded, then each delete answers 200, none deadlocks with the dispatcher, and no attempt of theirs is left pending', async () => {
    const target = await receiver(() => ({ status: 500, delayMs: 20 }));
    const merchant = await merchantFor();
    const api = system.api(merchant.testKey);
    for (let round = 0; round < 3; round += 1) {
      const made = await Promise.all([0, 1].map(() => createEndpoint(merchant, { url: target.url(), enabled_events: ['session.failed'] })));
      const before = target.received.length;
      await system.publishEvents(Array.from({ length: 30 }, () => sessionEvent('session.failed', merchant.merchantId)));
      // Deleted while the dispatcher records the first results (failures: each writes its endpoint's failing_since).
      await target.waitFor((received) => received.length >= before + 4, 10_000);
      const deleted = await Promise.all(made.map((endpoint) => api.request('DELETE', `/gateway/webhook_endpoints/${endpoint.id}/`)));
      assert.deepEqual(
        deleted.map((answer) => answer.status),
        [200, 200],
        deleted.map((answer) => answer.text).join(' '),
      );
      const ids = made.map((endpoint) => endpoint.id);
      await pollUntil(
        async () => (await system.db.query(`SELECT 1 FROM webhooks.deliveries WHERE endpoint_id = ANY($1) AND status = 'PENDING'`, [ids])).length === 0,
        10_000,
        'no attempt of a deleted endpoint pending',
      );
    }
    const logs = await Promise.all((await readdir(system.logDir)).map((file) => readFile(join(system.logDir, file), 'utf8')));
    assert.ok(!logs.some((text) => text.includes('deadlock')), 'no deadlock in any log');
  });

  it('when the input is bad or the endpoint is another merchant’s, then the answer is a clear problem and nothing changes', async () => {
    const owner = await merchantFor();
    const other = await merchantFor();
    const mine = await createEndpoint(owner, { url: 'https://hooks.shop.example.tn/a', enabled_events: ['*'] });
    const api = system.api(owner.testKey);

    const bad = await api.post<Problem>('/gateway/webhook_endpoints/', { url: 'ftp://hooks.shop.example.tn/', enabled_events: ['session.paid'], colour: 'red' });
    assert.equal(bad.status, 422);
    assert.match(String(bad.headers.get('content-type')), /application\/problem\+json/);
    assert.deepEqual(bad.body.errors?.map((e) => [e.field, e.code]).sort(), [
      ['colour', 'invalid'],
      ['enabled_events[0]', 'invalid'],
      ['url', 'invalid'],
    ]);
    assert.match(bad.body.errors?.find((e) => e.field === 'enabled_events[0]')?.message ?? '', /must be one of \*, session\.authorized, session\.succeeded/);
    const missing = await api.post<Problem>('/gateway/webhook_endpoints/', { url: 'https://hooks.shop.example.tn/b' });
    assert.deepEqual(missing.body.errors?.map((e) => [e.field, e.code]), [['enabled_events', 'required']]);
    const empty = await api.request<Problem>('PATCH', `/gateway/webhook_endpoints/${mine.id}/`, {});
    assert.equal(empty.status, 422);
    const badStatus = await api.request<Problem>('PATCH', `/gateway/webhook_endpoints/${mine.id}/`, { status: 'paused' });
    assert.deepEqual(badStatus.body.errors?.map((e) => e.field), ['status']);
    // Replay: since must be a time, within the retention period (1 day here).
    const tooOld = await api.post<Problem>(`/gateway/webhook_endpoints/${mine.id}/replay/`, { since: new Date(Date.now() - 2 * 86_400_000).toISOString() });
    assert.deepEqual([tooOld.status, tooOld.body.errors?.map((e) => e.field)], [422, ['since']]);
    const notATime = await api.post<Problem>(`/gateway/webhook_endpoints/${mine.id}/replay/`, { since: 'yesterday' });
    assert.deepEqual([notATime.status, notATime.body.errors?.map((e) => [e.field, e.code])], [422, [['since', 'invalid']]]);
    // A time PostgreSQL cannot read (RFC 3339 allows a +23:59 offset) and text it cannot store (NUL) are problems, not 500s.
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the replay budget is 2/s
    const farOffset = await api.post<Problem>(`/gateway/webhook_endpoints/${mine.id}/replay/`, { since: '2026-11-25T10:00:00+23:59' });
    assert.deepEqual([farOffset.status, farOffset.body.errors?.map((e) => [e.field, e.code])], [422, [['since', 'invalid']]]);
    const nul = await api.request<Problem>('PATCH', `/gateway/webhook_endpoints/${mine.id}/`, { description: 'a\u0000b' });
    assert.deepEqual([nul.status, nul.body.errors?.map((e) => [e.field, e.code])], [422, [['description', 'invalid']]]);
    const nulId = await api.get<Problem>('/gateway/webhook_endpoints/%00/');
    assert.equal(nulId.status, 404);

    // The live mode needs https (D11), checked with the same rule.
    const liveKey = await system.approveLive(owner.merchantId);
    const insecure = await system.api(liveKey).post<Problem>('/gateway/webhook_endpoints/', { url: 'http://hooks.shop.example.tn/live', enabled_events: ['*'] });
    assert.deepEqual([insecure.status, insecure.body.errors?.[0]?.field], [422, 'url']);
    // Another mode's key does not see the test endpoint.
    assert.equal((await system.api(liveKey).get(`/gateway/webhook_endpoints/${mine.id}/`)).status, 404);

    const stranger = system.api(other.testKey);
    const path = `/gateway/webhook_endpoints/${mine.id}/`;
    const attempts = [
      await stranger.get<Problem>(path),
      await stranger.request<Problem>('PATCH', path, { url: 'https://evil.example/' }),
      await stranger.post<Problem>(`${path}rotate_secret/`),
      await stranger.post<Problem>(`${path}replay/`, { since: new Date().toISOString() }),
      await stranger.request<Problem>('DELETE', path),
    ];
    for (const res of attempts) assert.deepEqual([res.status, res.body.type.endsWith('/errors/not-found')], [404, true], res.text);
    assert.deepEqual((await stranger.get<{ data: unknown[] }>('/gateway/webhook_endpoints/')).body.data, []);

    const after = await api.get<Record<string, unknown>>(path);
    assert.deepEqual(after.body, withoutSecret(mine));

    // The cap per account and mode (3 here): the fourth is a conflict.
    await createEndpoint(owner, { url: 'https://hooks.shop.example.tn/b', enabled_events: ['*'] });
    await createEndpoint(owner, { url: 'https://hooks.shop.example.tn/c', enabled_events: ['*'] });
    const fourth = await api.post<Problem>('/gateway/webhook_endpoints/', { url: 'https://hooks.shop.example.tn/d', enabled_events: ['*'] });
    assert.equal(fourth.status, 409);
    assert.equal((await api.get<{ data: unknown[] }>('/gateway/webhook_endpoints/')).body.data.length, 3);
  });

  it('when an endpoint replays since T, then exactly the events it wants after T are sent again, a page per call, with the same ids and fresh signatures', async () => {
    const target = await receiver();
    const merchant = await merchantFor();
    const api = system.api(merchant.testKey);
    const endpoint = await createEndpoint(merchant, { url: target.url(), enabled_events: ['session.succeeded', 'session.failed'] });
    const before = [sessionEvent('session.succeeded', merchant.merchantId), sessionEvent('session.failed', merchant.merchantId)];
    await system.publishEvents(before);
    await target.waitFor((r) => r.length === 2);
    await sleep(20);
    const since = new Date().toISOString();
    await sleep(20);
    const afterT = [sessionEvent('session.succeeded', merchant.merchantId), sessionEvent('session.failed', merchant.merchantId)];
    const unwanted = sessionEvent('session.canceled', merchant.merchantId);
    await system.publishEvents([...afterT, unwanted]);
    await target.waitFor((r) => r.length === 4);

    const first = await api.post<WebhookReplayResult>(`/gateway/webhook_endpoints/${endpoint.id}/replay/`, { since });
    assert.equal(first.status, 202, first.text);
    assert.deepEqual([first.body.queued, first.body.has_more], [1, true]);
    const second = await api.post<WebhookReplayResult>(`/gateway/webhook_endpoints/${endpoint.id}/replay/`, {
      since: first.body.next_since,
      starting_after: first.body.next_starting_after,
    });
    assert.equal(second.status, 202, second.text);
    assert.deepEqual(second.body, { queued: 1, has_more: false, next_since: null, next_starting_after: null });

    await target.waitFor((r) => r.length === 6);
    await sleep(300);
    assert.equal(target.received.length, 6);
    for (const e of before) assert.equal(target.forEvent(e.id).length, 1, 'an event before T is not replayed');
    assert.equal(target.forEvent(unwanted.id).length, 0);
    for (const e of afterT) {
      const [original, replayed] = target.forEvent(e.id);
      assert.ok(original && replayed, 'an event after T is sent again');
      assert.ok(replayed.raw.equals(original.raw));
      assert.ok(verifySignature(replayed.raw, replayed.signature, endpoint.secret));
    }
    const rows = (await deliveries(merchant)).filter((d) => afterT.some((e) => e.id === d.event_id));
    assert.deepEqual(rows.map((d) => d.attempt_number).sort(), [1, 1, 2, 2]);

  });

  it('when replays come faster than the replay budget, then some answer 429 with Retry-After', async () => {
    const merchant = await merchantFor();
    const endpoint = await createEndpoint(merchant, { url: 'https://hooks.shop.example.tn/r', enabled_events: ['*'] });
    const since = new Date().toISOString();
    const answers = await Promise.all(Array.from({ length: 5 }, () => system.api(merchant.testKey).post(`/gateway/webhook_endpoints/${endpoint.id}/replay/`, { since })));
    const limited = answers.filter((r) => r.status === 429);
    assert.ok(limited.length >= 2, `statuses ${answers.map((r) => r.status).join(',')}`);
    assert.ok(Number(limited[0]?.headers.get('retry-after')) >= 1);
  });

  it('when an endpoint fails every attempt for the configured time, then it is disabled and the merchant’s other endpoints are told', async () => {
    const dead = await receiver(() => ({ status: 500 }));
    const alive = await receiver();
    const main = await receiver();
    const merchant = await merchantFor(main);
    const api = system.api(merchant.testKey);
    const failing = await createEndpoint(merchant, { url: dead.url(), enabled_events: ['*'] });
    const healthy = await createEndpoint(merchant, { url: alive.url(), enabled_events: ['*'] });
    const started = Date.now();
    await system.publishEvents([sessionEvent('session.succeeded', merchant.merchantId)]);

    await alive.waitFor((r) => r.some((x) => x.body.event === 'webhook_endpoint.disabled'), 15_000);
    const tookMs = Date.now() - started;
    assert.ok(tookMs >= 2_000, `disabled after ${tookMs} ms, before the configured 2 s`);
    const notice = alive.received.find((x) => x.body.event === 'webhook_endpoint.disabled');
    assert.ok(notice && verifySignature(notice.raw, notice.signature, healthy.secret));
    assert.equal(notice.headers['x-service-event'], 'webhook_endpoint.disabled');
    assert.equal(notice.body.data['id'], failing.id);
    assert.equal(notice.body.data['status'], 'disabled');
    assert.equal(notice.body.data['disabled_reason'], 'failing');
    assert.equal(dead.received.filter((x) => x.body.event === 'webhook_endpoint.disabled').length, 0, 'the disabled endpoint is not told');
    await main.waitFor((r) => r.some((x) => x.eventId === notice.eventId));
    const toDefault = main.forEvent(notice.eventId)[0];
    assert.ok(toDefault && verifySignature(toDefault.raw, toDefault.signature, merchant.webhookSecret), 'the default endpoint is told too');

    const read = await api.get<WebhookEndpoint>(`/gateway/webhook_endpoints/${failing.id}/`);
    assert.deepEqual([read.body.status, read.body.disabled_reason], ['disabled', 'failing']);
    assert.ok(read.body.disabled_at);
    const disabledReplay = await api.post<Problem>(`/gateway/webhook_endpoints/${failing.id}/replay/`, { since: new Date(started).toISOString() });
    assert.equal(disabledReplay.status, 409);

    // Disabled: no further attempts, not even the retries already planned.
    await sleep(1_500);
    const seen = dead.received.length;
    await system.publishEvents([sessionEvent('session.failed', merchant.merchantId)]);
    await alive.waitFor((r) => r.filter((x) => x.body.event === 'session.failed').length === 1);
    await sleep(1_500);
    assert.equal(dead.received.length, seen);
    assert.equal(alive.received.filter((x) => x.body.event === 'webhook_endpoint.disabled').length, 1, 'one notice');

    const enabled = await api.request<WebhookEndpoint>('PATCH', `/gateway/webhook_endpoints/${failing.id}/`, { status: 'enabled' });
    assert.deepEqual([enabled.body.status, enabled.body.disabled_reason, enabled.body.disabled_at], ['enabled', null, null]);
  });

  it('when delivery records and events pass the retention period, then the sweep deletes them and only them', async () => {
    const target = await receiver();
    const merchant = await merchantFor(target);
    const old = sessionEvent('session.succeeded', merchant.merchantId);
    const recent = sessionEvent('session.succeeded', merchant.merchantId);
    await system.publishEvents([old, recent]);
    await pollUntil(async () => (await deliveries(merchant)).filter((d) => d.status === 'SUCCEEDED').length === 2, 5_000, 'both delivered');
    await system.db.query(`UPDATE webhooks.events SET created_at = now() - interval '2 days' WHERE id = $1`, [old.id]);
    await system.db.query(`UPDATE webhooks.deliveries SET created_at = now() - interval '2 days' WHERE event_id = $1`, [old.id]);

    await pollUntil(async () => (await system.db.query('SELECT 1 FROM webhooks.events WHERE id = $1', [old.id])).length === 0, 5_000, 'the old event deleted');
    assert.deepEqual(await system.db.query('SELECT id FROM webhooks.deliveries WHERE event_id = $1', [old.id]), []);
    assert.equal((await system.db.query('SELECT 1 FROM webhooks.events WHERE id = $1', [recent.id])).length, 1);
    assert.deepEqual((await deliveries(merchant)).map((d) => d.event_id), [recent.id]);
  });

  it('when endpoints have been made and rotated, then no secret shown to the merchant is in the database dump or any service log', async () => {
    assert.ok(secretsSeen.length >= 5);
    const dump = await system.dumpDatabase();
    const logs = await Promise.all((await readdir(system.logDir)).map((f) => readFile(join(system.logDir, f), 'utf8')));
    for (const secret of secretsSeen) {
      assert.ok(!dump.includes(secret), 'a secret in the dump');
      assert.ok(!logs.some((log) => log.includes(secret)), 'a secret in a log');
    }
  });
});
