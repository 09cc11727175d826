/**
 * SIGTERM to one of two refund replicas while refunds keep coming through
 * the gateway: every refund is answered 200 (the stopping replica finishes
 * what it started; the other serves the rest), each accepted refund made one
 * acquirer operation, nothing is left on the queue, and the process exits 0
 * within SHUTDOWN_TIMEOUT_MS (5 s in test systems).
 */
import assert from 'node:assert/strict';
import type { RefundResult } from '@gateway/contracts';
import { namesFor } from '@gateway/messaging';
import { commandsHandled, payOnPage, pollUntil, sessionRequest, TestSystem, type ApiClient } from '@gateway/testkit';

const SHUTDOWN_BOUND_MS = 5_000 + 1_000;

describe('Refund service, graceful stop', function () {
  this.timeout(120_000);
  let system: TestSystem;

  before(async () => {
    // Child processes: a graceful stop is a real process's answer to SIGTERM.
    system = await TestSystem.start({ launch: 'child-process' });
  });
  after(async () => {
    await system?.shutdown();
  });

  async function paidSession(api: ApiClient): Promise<string> {
    const created = await api.post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest({ amount: '500.000' }));
    await payOnPage(created.body.checkout_url, { card_number: '4242424242424242' });
    await pollUntil(async () => (await api.get<{ status: string }>(`/gateway/sessions/${created.body.id}/`)).body.status === 'SUCCEEDED', 10_000, 'paid');
    return created.body.id;
  }

  it('when one of two refund replicas gets SIGTERM under a stream of refunds, then every refund is answered 200 with one acquirer operation each, nothing is left on the queue, and it exits 0 within the bound', async () => {
    const merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    const api = system.api(merchant.testKey);
    const sessions = await Promise.all(Array.from({ length: 8 }, () => paidSession(api)));
    const port = await system.startService('refund', 'refund-2');

    const answers: number[] = [];
    const refunds: string[] = [];
    let stopped = false;
    const loop = async (sessionId: string) => {
      while (!stopped) {
        const res = await api.post<RefundResult>(`/gateway/sessions/${sessionId}/refund/`, { reason: 'Part returned', refund_type: 'PARTIAL', amount: '1.000' });
        answers.push(res.status);
        if (res.status === 200) refunds.push(res.body.refund_id);
      }
    };
    const loops = sessions.map((id) => loop(id));

    await pollUntil(() => answers.length >= 40, 20_000, '40 refunds answered before the stop');
    await pollUntil(async () => (await commandsHandled(port, 'refund.create')) > 0, 5_000, 'the replica to stop has made refunds');
    const stop = await system.stopServiceTimed('refund-2');
    const answeredAtExit = answers.length;
    await pollUntil(() => answers.length >= answeredAtExit + 40, 20_000, '40 more answered after the exit');
    stopped = true;
    await Promise.all(loops);

    assert.deepEqual([...new Set(answers)], [200], `statuses: ${JSON.stringify(answers.filter((s) => s !== 200))}`);
    assert.equal(stop.code, 0);
    assert.ok(stop.ms < SHUTDOWN_BOUND_MS, `the stop took ${stop.ms} ms`);
    const stored = await system.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM refund.refunds WHERE id = ANY($1) GROUP BY status', [refunds]);
    assert.deepEqual(stored, [{ status: 'SUCCEEDED', n: refunds.length }]);
    const [ops] = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM acquirer.refund_operations WHERE refund_id = ANY($1)', [refunds]);
    assert.equal(ops?.n, refunds.length, 'one acquirer operation per refund');
    const queue = namesFor(system.prefix).commandQueueOf('refund.create');
    await system.waitForQueueDrained(queue);
  });
});
