/**
 * The session's sweeps (INTERFACE 3.1 rule 4, 4.1 idempotency rules 3-4, 6.1;
 * D3, D4), with lifetimes shortened through configuration: links live 2 s,
 * sessions 8 s, and every replica sweeps every second.
 */
import assert from 'node:assert/strict';
import type { Envelope, SessionEventData } from '@gateway/contracts';
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
});
