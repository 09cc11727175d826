/**
 * SIGTERM to one of two ledger replicas while payments keep being announced:
 * every payment is written once (the stopping replica finishes or hands back
 * what it holds; the other takes the rest), the daily totals equal the
 * entries, nothing is left on the queue, and the process exits 0 within
 * SHUTDOWN_TIMEOUT_MS (5 s in test systems).
 */
import assert from 'node:assert/strict';
import Big from 'big.js';
import { newId, type Envelope, type SessionEventData } from '@gateway/contracts';
import { eventEnvelope, namesFor } from '@gateway/messaging';
import { payOnPage, pollUntil, sessionRequest, TestSystem } from '@gateway/testkit';

const SHUTDOWN_BOUND_MS = 5_000 + 1_000;
const PAYMENTS = 1_500;

describe('Ledger service, graceful stop', function () {
  this.timeout(120_000);
  let system: TestSystem;

  before(async () => {
    // Child processes: a graceful stop is a real process's answer to SIGTERM.
    system = await TestSystem.start({ launch: 'child-process' });
  });
  after(async () => {
    await system?.shutdown();
  });

  it('when one of two ledger replicas gets SIGTERM while payments stream in, then each payment is written once, the day totals equal the entries, the queue drains and it exits 0 within the bound', async () => {
    const merchant = await system.newMerchant();
    const api = system.api(merchant.testKey);
    const events = await system.captureEvents(['session.succeeded']);
    const created = await api.post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest({ amount: '3.000' }));
    await payOnPage(created.body.checkout_url, { card_number: '4242424242424242' });
    const template = (await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === created.body.id, 1, 15_000))[0] as Envelope<SessionEventData>;
    await events.stop();
    await system.startService('ledger', 'ledger-2');

    const payments = Array.from({ length: PAYMENTS }, (_, i) =>
      eventEnvelope('session.succeeded', { ...template.data, session: { ...template.data.session, id: newId('ps'), amount: `${1 + (i % 7)}.250` } }, 'ledger-stop'),
    );
    const publishing = (async () => {
      for (let i = 0; i < payments.length; i += 100) await system.publishEvents(payments.slice(i, i + 100));
    })();
    const count = async () => (await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger.balance_transactions WHERE merchant_id = $1', [merchant.merchantId]))[0]?.n ?? 0;
    await pollUntil(async () => (await count()) >= 200, 20_000, '200 payments written before the stop');
    const stop = await system.stopServiceTimed('ledger-2');
    await publishing;
    await pollUntil(async () => (await count()) >= PAYMENTS + 1, 30_000, 'every payment written');
    await system.waitForQueueDrained(namesFor(system.prefix).eventQueue('ledger'));

    assert.equal(stop.code, 0);
    assert.ok(stop.ms < SHUTDOWN_BOUND_MS, `the stop took ${stop.ms} ms`);
    assert.equal(await count(), PAYMENTS + 1, 'one entry per payment, none twice');
    const [sums] = await system.db.query<{ n: number; gross: string; net: string }>(
      'SELECT count(*)::int AS n, sum(amount)::text AS gross, sum(net)::text AS net FROM ledger.balance_transactions WHERE merchant_id = $1',
      [merchant.merchantId],
    );
    const [totals] = await system.db.query<{ n: number; gross: string; net: string }>(
      'SELECT sum(payments_count)::int AS n, sum(gross)::text AS gross, sum(net)::text AS net FROM ledger.daily_totals WHERE merchant_id = $1',
      [merchant.merchantId],
    );
    assert.deepEqual([totals?.n, new Big(totals?.gross ?? '0').toFixed(3), new Big(totals?.net ?? '0').toFixed(3)], [sums?.n, new Big(sums?.gross ?? '0').toFixed(3), new Big(sums?.net ?? '0').toFixed(3)]);
  });
});
