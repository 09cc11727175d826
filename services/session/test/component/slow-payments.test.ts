/**
 * No head-of-line blocking (issue 18): hundreds of payments with the slow test
 * card (the acquirer answers it late) hold their slots at the session and the
 * adapter, and meanwhile merchants' creates and reads still answer at once.
 * The payments wait in the slow command lanes; creates and gets take the fast
 * ones (contracts' commandLane).
 */
import assert from 'node:assert/strict';
import { TEST_CARDS } from '@gateway/test-cards';
import { payOnPage, pollUntil, sessionRequest, TestSystem } from '@gateway/testkit';

const SLOW_CARD = TEST_CARDS.find((card) => card.behaviour === 'approve_silently')?.number ?? '';
const PAYMENTS = 300;
/** How long the sandbox keeps a slow-card payment waiting: longer than the wait for the payments to arrive plus the measurement. */
const SLOW_DELAY_MS = 30_000;
const MEASURE_MS = 8_000;
/** Once every payment has reached the adapter, the time its start-up work (decryption, orders written) takes to end. */
const SETTLE_MS = 3_000;
const CLIENTS = 2;

type Detail = { id: string; checkout_url: string };

/** The `p` quantile (0..1) of `values`, nearest rank. */
function quantile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}

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

  it(`when ${PAYMENTS} payments with the slow test card are in flight, then creates and gets answer with a p99 under 100 ms and never 5xx`, async () => {
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

    // What is measured is slots held by payments waiting on the acquirer, not the CPU their start takes (card decryption, orders written) on a two-core machine.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const latencies: number[] = [];
    const statuses: number[] = [];
    const timed = async <T>(call: () => Promise<{ status: number; body: T }>): Promise<{ status: number; body: T }> => {
      const start = process.hrtime.bigint();
      const res = await call();
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
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
    const p99 = quantile(latencies, 0.99);
    assert.equal(stillInFlight, PAYMENTS, 'the slow payments were no longer all in flight while measuring');
    assert.equal(fiveXx, 0, `${fiveXx} of ${statuses.length} creates and gets answered 5xx`);
    assert.deepEqual([...new Set(statuses)].sort(), [200, 201]);
    assert.ok(p99 < 100, `p99 ${p99.toFixed(1)} ms over ${latencies.length} creates and gets (p50 ${quantile(latencies, 0.5).toFixed(1)} ms)`);
    assert.ok(latencies.length >= 50, `only ${latencies.length} calls answered in ${MEASURE_MS} ms`);
  });
});
