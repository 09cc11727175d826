/**
 * The session's sweeps (INTERFACE 3.1 rule 4, 4.1 idempotency rules 3-4, 6.1;
 * D3, D4), with lifetimes shortened through configuration: links live 2 s,
 * sessions 8 s, and every replica sweeps every second.
 */
import assert from 'node:assert/strict';
import { newId, type Envelope, type SessionEventData } from '@gateway/contracts';
import { payOnPage, sessionRequest, TestSystem, type ApiClient, type EventCapture } from '@gateway/testkit';

type Detail = { id: string; status: string; checkout_url?: string; merchant_reference: string };

const LIFETIMES = { SESSION_TTL_SECONDS: '8', CHECKOUT_LINK_TTL_SECONDS: '2', SWEEP_INTERVAL_SECONDS: '1' };

describe('Expiry sweeps', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let events: EventCapture;

  before(async () => {
    system = await TestSystem.start({ env: LIFETIMES });
    events = await system.captureEvents(['session.*', 'checkout.session.expired']);
  });
  after(async () => {
    await events?.stop();
    await system?.shutdown();
  });

  async function shop(): Promise<ApiClient> {
    const merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000 } });
    return system.api(merchant.testKey);
  }

  const ofSession = (id: string) => (e: Envelope<SessionEventData>) => e.data.session.id === id;

  it('when two replicas sweep 500 sessions whose links lapse and which then expire, then each gets exactly one checkout.session.expired and one session.expired', async () => {
    await system.startService('session', 'session-2');
    try {
      const api = await shop();
      const ids = new Set<string>();
      for (let batch = 0; batch < 10; batch += 1) {
        const created = await Promise.all(Array.from({ length: 50 }, () => api.post<Detail>('/gateway/sessions/', sessionRequest())));
        for (const res of created) {
          assert.equal(res.status, 201, res.text);
          ids.add(res.body.id);
        }
      }
      const mine = (e: Envelope<SessionEventData>) => ids.has(e.data.session.id);
      const lapsed = await events.waitFor<SessionEventData>('checkout.session.expired', mine, 500, 20_000);
      const expired = await events.waitFor<SessionEventData>('session.expired', mine, 500, 20_000);
      // Both replicas keep sweeping for a while: nothing may come twice.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      for (const [type, first] of [
        ['checkout.session.expired', lapsed],
        ['session.expired', expired],
      ] as const) {
        const all = events.of<SessionEventData>(type, mine);
        assert.equal(all.length, 500, `${type}: ${all.length} events for 500 sessions`);
        assert.equal(new Set(all.map((e) => e.data.session.id)).size, 500, `${type}: one per session`);
        assert.ok(first.length <= all.length);
      }
      assert.ok(lapsed.every((e) => e.data.session.status === 'CREATED'), 'a lapsed link leaves its session payable');
      assert.ok(events.of<SessionEventData>('session.expired', mine).every((e) => e.data.session.status === 'EXPIRED'));
      const stored = await system.db.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM session.sessions WHERE id = ANY($1::text[]) GROUP BY status',
        [[...ids]],
      );
      assert.deepEqual(stored, [{ status: 'EXPIRED', n: 500 }]);
    } finally {
      await system.stopService('session-2');
    }
  });

  it('when a link lapses, then the session stays payable: a replay mints a fresh link and a payment on it succeeds', async () => {
    const api = await shop();
    const request = sessionRequest();
    const created = await api.post<Detail>('/gateway/sessions/', request);
    assert.equal(created.status, 201);
    await events.waitFor<SessionEventData>('checkout.session.expired', ofSession(created.body.id), 1, 6_000);
    const stale = await fetch(created.body.checkout_url ?? '');
    assert.equal(stale.status, 410, 'the lapsed link shows the expired-link page');

    const replay = await api.post<Detail>('/gateway/sessions/', request);
    assert.equal(replay.status, 200);
    assert.equal(replay.body.id, created.body.id);
    assert.ok(replay.body.checkout_url && replay.body.checkout_url !== created.body.checkout_url, 'a fresh link');
    const paid = await payOnPage(replay.body.checkout_url, { card_number: '4242424242424242' });
    assert.ok(paid.status === 200 || paid.status === 303, paid.html.slice(0, 200));
    const [succeeded] = await events.waitFor<SessionEventData>('session.succeeded', ofSession(created.body.id), 1, 10_000);
    assert.equal(succeeded?.data.session.status, 'SUCCEEDED');
    await new Promise((resolve) => setTimeout(resolve, 8_000 - 2_000));
    assert.equal(events.of('session.expired', ofSession(created.body.id)).length, 0, 'a paid session never expires');
  });

  it('when a session has expired, then a replay answers it without checkout_url and a new link is refused 409 session-terminal', async () => {
    const api = await shop();
    const request = sessionRequest();
    const created = await api.post<Detail>('/gateway/sessions/', request);
    const [expired] = await events.waitFor<SessionEventData>('session.expired', ofSession(created.body.id), 1, 12_000);
    assert.equal(expired?.data.session.status, 'EXPIRED');

    const replay = await api.post<Detail>('/gateway/sessions/', request);
    assert.equal(replay.status, 200);
    assert.equal(replay.body.status, 'EXPIRED');
    assert.equal(replay.body.checkout_url, undefined);
    const link = await api.post<{ type: string }>(`/gateway/sessions/${created.body.id}/checkout/`);
    assert.equal(link.status, 409);
    assert.match(link.body.type, /session-terminal$/);
    const cancel = await api.post(`/gateway/sessions/${created.body.id}/cancel/`);
    assert.equal(cancel.status, 409);
  });

  it('when a session is being paid as its lifetime ends, then it is not expired: the payment resolves it (card 0036, through reconciliation)', async () => {
    const api = await shop();
    const created = await api.post<Detail>('/gateway/sessions/', sessionRequest());
    const createdAt = Date.now();
    // Pay about 4 s before the 8 s lifetime ends; the acquirer answers card 0036 only after 7 s.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    // The first link has lapsed (2 s): the buyer comes back through a fresh one.
    const link = await api.post<{ checkout_url: string }>(`/gateway/sessions/${created.body.id}/checkout/`);
    assert.equal(link.status, 201, link.text);
    const paying = payOnPage(link.body.checkout_url, { card_number: '4000000000000036' });
    const deadline = createdAt + 8_000 + 2_500;
    while (Date.now() < deadline) {
      const now = await api.get<Detail>(`/gateway/sessions/${created.body.id}/`);
      assert.notEqual(now.body.status, 'EXPIRED');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const during = await api.get<Detail>(`/gateway/sessions/${created.body.id}/`);
    assert.ok(['PROCESSING', 'SUCCEEDED'].includes(during.body.status), during.body.status);
    await paying;
    const [succeeded] = await events.waitFor<SessionEventData>('session.succeeded', ofSession(created.body.id), 1, 20_000);
    assert.equal(succeeded?.data.session.status, 'SUCCEEDED');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(events.of('session.expired', ofSession(created.body.id)).length, 0);
    assert.equal((await api.get<Detail>(`/gateway/sessions/${created.body.id}/`)).body.status, 'SUCCEEDED');
  });

  it('when an attempt was left PROCESSING by a replica that died before reaching the adapter, then the sweep asks the adapter, which declines it for good, and the session can be paid again', async () => {
    const api = await shop();
    const created = await api.post<Detail>('/gateway/sessions/', sessionRequest());
    const attemptId = newId('pa');
    // What a session replica leaves when it dies right after starting an attempt.
    await system.db.query(`UPDATE session.sessions SET status = 'PROCESSING', attempts_count = 1 WHERE id = $1`, [created.body.id]);
    await system.db.query(
      `INSERT INTO session.attempts (id, session_id, attempt_number, status, created_at) VALUES ($1, $2, 1, 'PROCESSING', now() - interval '10 minutes')`,
      [attemptId, created.body.id],
    );
    const [failed] = await events.waitFor<SessionEventData>('session.failed', ofSession(created.body.id), 1, 8_000);
    assert.deepEqual(
      [failed?.data.session.status, failed?.data.session.last_failure_code, failed?.data.session.can_retry],
      ['PENDING', 'processing_error', true],
    );
    const orders = await system.db.query<{ status: string; acquirer_order_id: string | null }>('SELECT status, acquirer_order_id FROM acquirer.orders WHERE attempt_id = $1', [attemptId]);
    assert.deepEqual(orders, [{ status: 'DECLINED', acquirer_order_id: null }], 'declined without ever reaching the acquirer');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(events.of('session.failed', ofSession(created.body.id)).length, 1, 'one session.failed, though the adapter answered and announced it');
    const detail = await api.get<Detail & { attempts: { id: string; status: string }[] }>(`/gateway/sessions/${created.body.id}/`);
    assert.deepEqual(detail.body.attempts.map((a) => [a.id, a.status]), [[attemptId, 'FAILED']]);
    const link = await api.post<{ checkout_url: string }>(`/gateway/sessions/${created.body.id}/checkout/`);
    const paid = await payOnPage(link.body.checkout_url, { card_number: '4242424242424242' });
    assert.ok(paid.status < 400, paid.html.slice(0, 200));
    await events.waitFor<SessionEventData>('session.succeeded', ofSession(created.body.id), 1, 10_000);
  });
});
