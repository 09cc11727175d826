/**
 * No head-of-line blocking (issue 18): hundreds of payments with the slow test
 * card (the acquirer answers it late) hold their slots at the session and the
 * adapter, and meanwhile merchants' creates and reads still answer at once.
 * The payments wait in the slow command lanes; creates and gets take the fast
 * ones (contracts' commandLane). How fast they answer meanwhile is a target of
 * the benchmark (`npm run bench -- --only slow-payments`), not of this test:
 * here, that they are answered at all while every payment still holds its slot.
 */
import assert from 'node:assert/strict';
import { TEST_CARDS } from '@gateway/test-cards';
import { payOnPage, pollUntil, sessionRequest, TestSystem } from '@gateway/testkit';

const SLOW_CARD = TEST_CARDS.find((card) => card.behaviour === 'approve_silently')?.number ?? '';
const PAYMENTS = 300;
/** How long the sandbox keeps a slow-card payment waiting: longer than the wait for the payments to arrive plus the measurement. */
const SLOW_DELAY_MS = 30_000;
/** How long creates and gets are sent while the payments wait: blocked behind them, none would be answered for SLOW_DELAY_MS. */
const MEASURE_MS = 3_000;
const CLIENTS = 2;

type Detail = { id: string; checkout_url: string };

describe('Slow payments and fast commands', function () {
  this.timeout(240_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start({
      services: ['api-gateway', 'session', 'webhook-dispatcher', 'checkout', 'acquirer-adapter', 'epg-sandbox'],
      // Every timeout on the payment's path outlasts the sandbox's delay, so the payments stay in flight while the test measures.
      serviceEnv: {
        'epg-sandbox': { SANDBOX_SLOW_DELAY_MS: String(SLOW_DELAY_MS) },
        'acquirer-adapter': { ACQUIRER_TIMEOUT_MS: String(SLOW_DELAY_MS + 5_000), RECONCILE_AFTER_SECONDS: '600' },
        session: { ADAPTER_TIMEOUT_MS: String(SLOW_DELAY_MS + 30_000), ATTEMPT_CHECK_AFTER_SECONDS: '600' },
        checkout: { PAYMENT_TIMEOUT_MS: String(SLOW_DELAY_MS + 35_000) },
      },
    });
  });
  after(async () => {
    await system?.shutdown();
  });

  it(`when ${PAYMENTS} payments with the slow test card are in flight, then creates and gets are still answered, never 5xx`, async () => {
    const merchant = await system.newMerchant({ limits: { account: 100_000, create: 100_000 } });
    const api = system.api(merchant.testKey);

    const sessions: Detail[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sessions.length < PAYMENTS) {
          const created = await api.post<Detail>('/gateway/sessions/', sessionRequest());
          assert.equal(created.status, 201, created.text);
          sessions.push(created.body);
        }
      }),
    );

    // Not awaited: they end when the system shuts down, long after the measurement. Straight to
    // the checkout service: the gateway's proxy to it holds fewer connections than there are payments.
    let settled = 0;
    for (const session of sessions.slice(0, PAYMENTS)) {
      const page = new URL(session.checkout_url);
      page.host = `127.0.0.1:${system.portOf('checkout')}`;
      payOnPage(page.toString(), { card_number: SLOW_CARD }).then(
        () => void (settled += 1),
        () => void (settled += 1),
      );
    }
    // In flight: every payment's command has reached the session (taken or waiting there), each the session took has
    // reached the adapter, and none has been answered.
    const held = { session: 0, sessionTaken: 0, adapter: 0 };
    await pollUntil(
      async () => {
        const counts = [...(await system.queueCounts())];
        const of = (service: string) => counts.filter(([queue]) => queue.startsWith(`${system.prefix}.${service}.commands`)).map(([, count]) => count);
        held.session = of('session').reduce((n, count) => n + count.ready + count.unacked, 0);
        held.sessionTaken = of('session').reduce((n, count) => n + count.unacked, 0);
        held.adapter = of('acquirer-adapter').reduce((n, count) => n + count.ready + count.unacked, 0);
        return held.session >= PAYMENTS && held.adapter >= held.sessionTaken;
      },
      20_000,
      `${PAYMENTS} payments held at the session, and those it took at the adapter`,
      250,
    ).catch((err: unknown) => {
      throw new Error(`${(err as Error).message} (seen: ${JSON.stringify(held)})`);
    });
    assert.equal(settled, 0, 'a payment was answered before the measurement');

    const statuses: number[] = [];
    const timed = async <T>(call: () => Promise<{ status: number; body: T }>): Promise<{ status: number; body: T }> => {
      const res = await call();
      statuses.push(res.status);
      return res;
    };
    const until = Date.now() + MEASURE_MS;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (Date.now() < until) {
          const created = await timed(() => api.post<Detail>('/gateway/sessions/', sessionRequest()));
          if (created.status === 201) await timed(() => api.get<Detail>(`/gateway/sessions/${created.body.id}/`));
        }
      }),
    );
    const stillInFlight = PAYMENTS - settled;

    const fiveXx = statuses.filter((status) => status >= 500).length;
    assert.equal(stillInFlight, PAYMENTS, 'the slow payments were no longer all in flight while creates and gets were sent');
    assert.equal(fiveXx, 0, `${fiveXx} of ${statuses.length} creates and gets answered 5xx`);
    assert.deepEqual([...new Set(statuses)].sort(), [200, 201]);
    // Blocked behind the payments, not one would have been answered before the sandbox's delay.
    assert.ok(statuses.length >= 20, `only ${statuses.length} creates and gets answered in ${MEASURE_MS} ms while the payments waited`);
  });
});
