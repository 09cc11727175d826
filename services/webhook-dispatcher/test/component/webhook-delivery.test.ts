/**
 * The webhook dispatcher in a running system (gateway, session, dispatcher as
 * child processes, real PostgreSQL and RabbitMQ), with lifetimes shortened
 * through its configuration: retries after 1 s and 2 s, a 1 s timeout, 10 s
 * leases (far from anything that does not wait one out), a 3 s grace after a secret rotation. Receivers are real HTTP
 * servers on loopback.
 */
import assert from 'node:assert/strict';
import type { WebhookDelivery, WebhookDeliveryList } from '@gateway/contracts';
import { type Merchant, type Responder, sessionRequest, TestSystem, WebhookReceiver, WebhookReceivers } from '@gateway/testkit';
import { verifySignature } from '@gateway/sdk';
import { independentSignature, sessionEvent, signatureParts, sleep } from './support.js';

const DISPATCHER_ENV = {
  WEBHOOK_RETRY_DELAYS_SECONDS: '1,2,2',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_SECONDS: '10',
  // Long enough that retries on time must come from the sweeper's own wake-ups, not the periodic sweep.
  SWEEP_INTERVAL_SECONDS: '5',
  WEBHOOK_SECRET_GRACE_SECONDS: '3',
  WEBHOOK_CONCURRENCY: '8',
  WEBHOOK_ENDPOINT_CONCURRENCY: '4',
  WEBHOOK_ENDPOINT_BACKLOG: '20',
};

describe('webhook delivery', function () {
  this.timeout(60_000);
  let system: TestSystem;
  const receivers = new WebhookReceivers();

  before(async () => {
    // Child processes: one test kills the dispatcher (SIGKILL).
    system = await TestSystem.start({ launch: 'child-process', services: ['api-gateway', 'session', 'webhook-dispatcher'], serviceEnv: { 'webhook-dispatcher': DISPATCHER_ENV } });
  });
  after(async () => {
    await receivers.closeAll();
    await system?.shutdown();
  });

  const receiver = (answer?: Responder): Promise<WebhookReceiver> => receivers.start(answer);

  async function merchantFor(target?: WebhookReceiver): Promise<Merchant> {
    return system.newMerchant({ limits: { account: 1000 }, ...(target && { webhookUrl: target.url() }) });
  }

  /** The merchant's delivery history of one session, through the gateway. */
  async function sessionHistory(merchant: Merchant, sessionId: string): Promise<WebhookDelivery[]> {
    const res = await system.api(merchant.testKey).get<WebhookDeliveryList>(`/gateway/sessions/${sessionId}/webhooks/`);
    assert.equal(res.status, 200, res.text);
    return res.body.data;
  }

  /**
   * Waits until the session's history satisfies `test`. The sessions of
   * published events exist only in the dispatcher: until it has stored the
   * event, it asks the session service, which answers 404.
   */
  async function historyUntil(merchant: Merchant, sessionId: string, test: (rows: WebhookDelivery[]) => boolean, timeoutMs = 10_000): Promise<WebhookDelivery[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await system.api(merchant.testKey).get<WebhookDeliveryList>(`/gateway/sessions/${sessionId}/webhooks/`);
      assert.ok(res.status === 200 || res.status === 404, res.text);
      const rows = res.status === 200 ? res.body.data : [];
      if (test(rows)) return rows;
      if (Date.now() > deadline) throw new Error(`history not as expected: ${JSON.stringify(rows)}`);
      await sleep(100);
    }
  }

  it('when a receiver fails twice, then attempts come at about 0, d1 and d1+d2 with one webhook id, a new t and a valid signature each time', async () => {
    const target = await receiver((_, index) => ({ status: index < 2 ? 500 : 200 }));
    const merchant = await merchantFor(target);
    const event = sessionEvent('session.succeeded', merchant.merchantId);
    await system.publishEvents([event]);
    await target.waitFor((r) => r.length >= 3, 15_000);

    const attempts = target.forEvent(event.id);
    assert.equal(attempts.length, 3);
    const [first, second, third] = attempts as [(typeof attempts)[0], (typeof attempts)[0], (typeof attempts)[0]];
    const gap1 = second.at - first.at;
    const gap2 = third.at - second.at;
    assert.ok(gap1 >= 950 && gap1 < 1_900, `second attempt ${gap1} ms after the first, expected about 1000`);
    assert.ok(gap2 >= 1_950 && gap2 < 2_900, `third attempt ${gap2} ms after the second, expected about 2000`);

    const stamps = new Set<string>();
    for (const attempt of attempts) {
      assert.equal(attempt.eventId, event.id);
      assert.equal(attempt.headers['x-service-event'], 'session.succeeded');
      assert.equal(attempt.headers['content-type'], 'application/json');
      assert.match(attempt.signature, /^t=\d+,v1=[0-9a-f]{64}$/);
      const { t, v1 } = signatureParts(attempt);
      stamps.add(t);
      assert.equal(v1[0], independentSignature(merchant.webhookSecret, t, attempt.raw));
      assert.ok(verifySignature(attempt.raw, attempt.signature, merchant.webhookSecret));
      assert.ok(!verifySignature(attempt.raw, attempt.signature, `${merchant.webhookSecret}x`));
      assert.deepEqual(attempt.body, { id: event.id, event: 'session.succeeded', created_at: event.occurred_at, data: event.data.session });
      assert.ok(attempt.raw.equals(first.raw), 'every attempt carries the same body bytes');
    }
    assert.equal(stamps.size, 3, 'each attempt is signed afresh');

    const history = await historyUntil(merchant, event.data.session.id, (rows) => rows.length === 3 && rows[0]?.status === 'SUCCEEDED');
    assert.deepEqual(
      history.map((d) => [d.attempt_number, d.status, d.http_status_code, d.event_id, d.event]),
      [
        [3, 'SUCCEEDED', 200, event.id, 'session.succeeded'],
        [2, 'FAILED', 500, event.id, 'session.succeeded'],
        [1, 'FAILED', 500, event.id, 'session.succeeded'],
      ],
    );
    const [done, failed2, failed1] = history as [WebhookDelivery, WebhookDelivery, WebhookDelivery];
    assert.equal(done.next_retry_at, null);
    assert.equal(done.error_message, '');
    assert.equal(failed1.error_message, 'HTTP 500');
    const planned1 = Date.parse(failed1.next_retry_at ?? '') - Date.parse(failed1.created_at);
    const planned2 = Date.parse(failed2.next_retry_at ?? '') - Date.parse(failed2.created_at);
    assert.ok(planned1 >= 1_000 && planned1 < 1_500, `next_retry_at of attempt 1 is ${planned1} ms after it`);
    assert.ok(planned2 >= 2_000 && planned2 < 2_500, `next_retry_at of attempt 2 is ${planned2} ms after it`);
    assert.ok(history.every((d) => d.url === target.url() && typeof d.response_time_ms === 'number'));
  });

  it('when every attempt fails, then it gives up after the fourth, and a resend is a fifth attempt with the same event id', async () => {
    const target = await receiver(() => ({ status: 503 }));
    const merchant = await merchantFor(target);
    const event = sessionEvent('session.failed', merchant.merchantId);
    await system.publishEvents([event]);
    const history = await historyUntil(merchant, event.data.session.id, (rows) => rows.length === 4 && rows[0]?.status === 'FAILED', 15_000);
    assert.deepEqual(
      history.map((d) => [d.attempt_number, d.next_retry_at === null]),
      [
        [4, true],
        [3, false],
        [2, false],
        [1, false],
      ],
    );
    await sleep(2_500);
    assert.equal(target.forEvent(event.id).length, 4, 'no fifth automatic attempt');

    target.answer = () => ({ status: 204 });
    const last = history[0] as WebhookDelivery;
    const resent = (await system.admin(['webhook', 'resend', last.id])) as { delivery_id: string };
    assert.match(resent.delivery_id, /^whd_/);
    assert.notEqual(resent.delivery_id, last.id);
    await target.waitFor((r) => r.filter((x) => x.eventId === event.id).length === 5);
    const fifth = target.forEvent(event.id)[4];
    assert.ok(fifth && verifySignature(fifth.raw, fifth.signature, merchant.webhookSecret));
    const after = await historyUntil(merchant, event.data.session.id, (rows) => rows[0]?.status === 'SUCCEEDED');
    assert.deepEqual([after[0]?.id, after[0]?.attempt_number, after[0]?.event_id, after[0]?.http_status_code], [resent.delivery_id, 5, event.id, 204]);
  });

  it('when a receiver hangs, then its attempts fail at the timeout and another merchant’s deliveries meanwhile arrive within a second', async () => {
    const hanging = await receiver(() => 'hang');
    const healthy = await receiver();
    const slowShop = await merchantFor(hanging);
    const otherShop = await merchantFor(healthy);
    // More stuck attempts than the dispatcher's slots: only the hanging endpoint's share may wait.
    const stuck = Array.from({ length: 20 }, () => sessionEvent('session.succeeded', slowShop.merchantId));
    await system.publishEvents(stuck);
    await hanging.waitFor((r) => r.length >= 4);

    const started = Date.now();
    const other = sessionEvent('session.succeeded', otherShop.merchantId);
    await system.publishEvents([other]);
    await healthy.waitFor((r) => r.some((x) => x.eventId === other.id), 5_000);
    const waited = (healthy.forEvent(other.id)[0]?.at ?? Infinity) - started;
    assert.ok(waited < 1_000, `the other merchant's webhook took ${waited} ms`);
    assert.ok(hanging.received.length <= 4 + 4, 'the hanging endpoint never holds more than its share of slots');

    const firstStuck = stuck[0];
    assert.ok(firstStuck);
    const rows = await historyUntil(slowShop, firstStuck.data.session.id, (r) => r.some((d) => d.status === 'FAILED'));
    const timedOut = rows.find((d) => d.status === 'FAILED') as WebhookDelivery;
    assert.match(timedOut.error_message, /timed out/);
    assert.equal(timedOut.http_status_code, null);
    assert.ok((timedOut.response_time_ms ?? 0) >= 950 && (timedOut.response_time_ms ?? 0) < 2_500, `failed after ${timedOut.response_time_ms} ms`);
    hanging.release(200);
  });

  it('when more attempts arrive for one endpoint than it may hold in memory, then the rest wait in the database and still arrive, without waiting out a lease', async () => {
    const target = await receiver();
    const merchant = await merchantFor(target);
    const events = Array.from({ length: 80 }, () => sessionEvent('session.succeeded', merchant.merchantId));
    const started = Date.now();
    await system.publishEvents(events);
    await target.waitFor((r) => events.every((e) => r.some((x) => x.eventId === e.id)), 15_000);
    const took = Date.now() - started;
    assert.ok(took < 8_000, `80 attempts through a backlog of 20 took ${took} ms; a lease is 10 s`);
  });

  it('when a receiver answers 302, then the redirect is not followed and the attempt fails', async () => {
    const elsewhere = await receiver();
    const redirecting = await receiver(() => ({ status: 302, location: elsewhere.url('/internal') }));
    const merchant = await merchantFor(redirecting);
    const event = sessionEvent('session.succeeded', merchant.merchantId);
    await system.publishEvents([event]);
    const [attempt] = await historyUntil(merchant, event.data.session.id, (rows) => rows[0]?.status === 'FAILED');
    assert.equal(attempt?.http_status_code, 302);
    assert.match(attempt?.error_message ?? '', /redirect/);
    assert.equal(elsewhere.received.length, 0);
  });

  it('when the secret is rotated, then both signatures verify during the grace period and only the new one after it', async () => {
    const target = await receiver();
    const merchant = await merchantFor(target);
    const rotated = (await system.admin(['webhook', 'rotate-secret', merchant.merchantId, '--mode', 'test'])) as { webhook_secret: string };
    assert.match(rotated.webhook_secret, /^whsec_/);
    assert.notEqual(rotated.webhook_secret, merchant.webhookSecret);

    const during = sessionEvent('session.succeeded', merchant.merchantId);
    await system.publishEvents([during]);
    await target.waitFor((r) => r.some((x) => x.eventId === during.id));
    const inGrace = target.forEvent(during.id)[0];
    assert.ok(inGrace);
    const { t, v1 } = signatureParts(inGrace);
    assert.deepEqual(v1, [independentSignature(rotated.webhook_secret, t, inGrace.raw), independentSignature(merchant.webhookSecret, t, inGrace.raw)]);
    assert.ok(verifySignature(inGrace.raw, inGrace.signature, rotated.webhook_secret));
    assert.ok(verifySignature(inGrace.raw, inGrace.signature, merchant.webhookSecret));

    await sleep(3_200);
    const afterGrace = sessionEvent('session.succeeded', merchant.merchantId);
    await system.publishEvents([afterGrace]);
    await target.waitFor((r) => r.some((x) => x.eventId === afterGrace.id));
    const late = target.forEvent(afterGrace.id)[0];
    assert.ok(late);
    assert.equal(signatureParts(late).v1.length, 1);
    assert.ok(verifySignature(late.raw, late.signature, rotated.webhook_secret));
    assert.ok(!verifySignature(late.raw, late.signature, merchant.webhookSecret));
  });

  it('when a session is canceled through the API, then session.canceled goes to the session’s own webhook_url, not the default', async () => {
    const fallback = await receiver();
    const own = await receiver();
    const merchant = await merchantFor(fallback);
    const api = system.api(merchant.testKey);
    const created = await api.post<{ id: string }>('/gateway/sessions/', sessionRequest({ webhook_url: own.url('/orders/hook') }));
    assert.equal(created.status, 201, created.text);
    const canceled = await api.post('/gateway/sessions/' + created.body.id + '/cancel/');
    assert.equal(canceled.status, 200, canceled.text);

    await own.waitFor((r) => r.some((x) => x.body.event === 'session.canceled'));
    const hook = own.received.find((x) => x.body.event === 'session.canceled');
    assert.ok(hook);
    assert.equal(hook.path, '/orders/hook');
    assert.match(hook.body.id, /^evt_/);
    assert.equal(hook.eventId, hook.body.id);
    assert.deepEqual([hook.body.data['id'], hook.body.data['status'], hook.body.data['livemode']], [created.body.id, 'CANCELED', false]);
    assert.ok(verifySignature(hook.raw, hook.signature, merchant.webhookSecret));
    const history = await historyUntil(merchant, created.body.id, (rows) => rows[0]?.status === 'SUCCEEDED');
    assert.deepEqual([history.length, history[0]?.event_id, history[0]?.url], [1, hook.body.id, own.url('/orders/hook')]);
    await sleep(300);
    assert.equal(own.received.length, 1, 'one event, one webhook');
    assert.equal(fallback.received.length, 0, 'the session named its own URL');
  });

  it('when neither the session nor the merchant has a webhook URL, then the event is stored and nothing is sent', async () => {
    const merchant = await merchantFor();
    const api = system.api(merchant.testKey);
    const created = await api.post<{ id: string }>('/gateway/sessions/', sessionRequest());
    await api.post(`/gateway/sessions/${created.body.id}/cancel/`);
    const deadline = Date.now() + 5_000;
    let stored = 0;
    while (stored === 0 && Date.now() < deadline) {
      stored = Number((await system.db.query<{ n: string }>('SELECT count(*) AS n FROM webhooks.events WHERE session_id = $1', [created.body.id]))[0]?.n);
      if (stored === 0) await sleep(100);
    }
    assert.equal(stored, 1);
    const deliveries = await system.db.query('SELECT 1 FROM webhooks.deliveries WHERE session_id = $1', [created.body.id]);
    assert.equal(deliveries.length, 0);
    assert.deepEqual(await sessionHistory(merchant, created.body.id), []);
  });

  it('when a session belongs to another merchant, then its history is 404; one of the caller’s own with no events is an empty list', async () => {
    const owner = await merchantFor();
    const stranger = await merchantFor();
    const created = await system.api(owner.testKey).post<{ id: string }>('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 201);
    const foreign = await system.api(stranger.testKey).get(`/gateway/sessions/${created.body.id}/webhooks/`);
    assert.equal(foreign.status, 404);
    assert.match(foreign.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const unknown = await system.api(owner.testKey).get('/gateway/sessions/ps_doesnotexist0000000000000/webhooks/');
    assert.equal(unknown.status, 404);
    const own = await system.api(owner.testKey).get<WebhookDeliveryList>(`/gateway/sessions/${created.body.id}/webhooks/`);
    assert.equal(own.status, 200);
    assert.deepEqual(own.body.data, []);
  });

  it('when an account has 250 deliveries, then its history pages through each exactly once, forward and backward', async () => {
    const target = await receiver();
    const merchant = await merchantFor(target);
    const events = Array.from({ length: 250 }, () => sessionEvent('session.succeeded', merchant.merchantId));
    await system.publishEvents(events);
    const api = system.api(merchant.testKey);
    const total = async () => Number((await system.db.query<{ n: string }>('SELECT count(*) AS n FROM webhooks.deliveries WHERE merchant_id = $1', [merchant.merchantId]))[0]?.n);
    const deadline = Date.now() + 20_000;
    while ((await total()) < 250 && Date.now() < deadline) await sleep(100);
    assert.equal(await total(), 250);

    const forward: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 50; page += 1) {
      const res = await api.get<WebhookDeliveryList>(`/gateway/webhooks/?limit=20${cursor ? `&starting_after=${cursor}` : ''}`);
      assert.equal(res.status, 200, res.text);
      forward.push(...res.body.data.map((d) => d.id));
      cursor = res.body.data.at(-1)?.id;
      if (!res.body.has_more) break;
    }
    assert.equal(forward.length, 250);
    assert.equal(new Set(forward).size, 250);

    const backward: string[] = [];
    cursor = forward.at(-1);
    for (let page = 0; page < 50; page += 1) {
      const res = await api.get<WebhookDeliveryList>(`/gateway/webhooks/?limit=20&ending_before=${cursor}`);
      assert.equal(res.status, 200, res.text);
      backward.unshift(...res.body.data.map((d) => d.id));
      cursor = res.body.data[0]?.id;
      if (!res.body.has_more) break;
    }
    assert.deepEqual(backward, forward.slice(0, 249), 'backward from the oldest: every other delivery once, in the same order');

    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['starting_after=whd_notmine000000000000000', 'starting_after'],
      [`starting_after=${forward[0]}&ending_before=${forward[1]}`, 'ending_before'],
    ] as const) {
      const res = await api.get<{ errors: { field: string; code: string }[] }>(`/gateway/webhooks/?${query}`);
      assert.equal(res.status, 422, query);
      assert.deepEqual(res.body.errors.map((e) => [e.field, e.code]), [[field, 'invalid']]);
    }
    const other = await merchantFor();
    const foreignCursor = await system.api(other.testKey).get(`/gateway/webhooks/?starting_after=${forward[0]}`);
    assert.equal(foreignCursor.status, 422, "another account's delivery is not a cursor");
  });

  it('when events cannot be stored for longer than five redeliveries take, then they wait in the dispatcher and are delivered once the database takes them', async () => {
    const target = await receiver();
    const merchant = await merchantFor(target);
    const events = Array.from({ length: 3 }, () => sessionEvent('session.succeeded', merchant.merchantId));
    // As a database that refuses the dispatcher's writes for a while would.
    await system.db.query('REVOKE INSERT ON webhooks.events FROM svc_webhooks');
    try {
      await system.publishEvents(events);
      await sleep(5_000);
      assert.equal(target.received.length, 0);
    } finally {
      await system.db.query('GRANT INSERT ON webhooks.events TO svc_webhooks');
    }
    // Dead-lettered after five quick redeliveries, they would never come.
    await target.waitFor((r) => events.every((e) => r.some((x) => x.eventId === e.id)), 20_000);
  });

  it('when the dispatcher is killed mid-delivery and restarted, then every event is delivered; none is lost', async () => {
    let answering = false;
    const target = await receiver(() => (answering ? { status: 200 } : 'hang'));
    const merchant = await merchantFor(target);
    const before = Array.from({ length: 10 }, () => sessionEvent('session.succeeded', merchant.merchantId));
    await system.publishEvents(before);
    await target.waitFor((r) => r.length >= 4);
    await system.stopService('webhook-dispatcher', 'SIGKILL');
    const whileDown = Array.from({ length: 5 }, () => sessionEvent('session.failed', merchant.merchantId));
    await system.publishEvents(whileDown);
    target.release(200);
    answering = true;

    const restarted = Date.now();
    await system.startService('webhook-dispatcher');
    const all = [...before, ...whileDown].map((e) => e.id);
    await target.waitFor((r) => all.every((id) => r.some((x) => x.eventId === id && x.at >= restarted)), 20_000);
    const rows = await system.db.query<{ event_id: string; statuses: string[] }>(
      `SELECT event_id, array_agg(status) AS statuses FROM webhooks.deliveries WHERE merchant_id = $1 GROUP BY event_id`,
      [merchant.merchantId],
    );
    assert.equal(rows.length, 15);
    const deadline = Date.now() + 5_000;
    let pending = rows;
    while (Date.now() < deadline) {
      pending = (
        await system.db.query<{ event_id: string; statuses: string[] }>(
          `SELECT event_id, array_agg(status) AS statuses FROM webhooks.deliveries WHERE merchant_id = $1 GROUP BY event_id
           HAVING NOT bool_or(status = 'SUCCEEDED')`,
          [merchant.merchantId],
        )
      );
      if (pending.length === 0) break;
      await sleep(100);
    }
    assert.deepEqual(pending, [], 'every event has a successful delivery on record');
  });
});
