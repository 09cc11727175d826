/**
 * SIGTERM to one of two adapter replicas while payment.authorize commands
 * keep coming: every command gets an answer (the stopping replica finishes
 * what it started and gives back what it only took; the other replica serves
 * the rest), no answer is an internal error, every order ends APPROVED, and
 * the process exits 0 within SHUTDOWN_TIMEOUT_MS (5 s in test systems).
 */
import assert from 'node:assert/strict';
import type { CommandReply } from '@gateway/contracts';
import { namesFor } from '@gateway/messaging';
import { commandsHandled, pollUntil, TestSystem } from '@gateway/testkit';
import { newAttempt, sealCard } from './support.js';

const SHUTDOWN_BOUND_MS = 5_000 + 1_000;

describe('Acquirer adapter, graceful stop', function () {
  this.timeout(120_000);
  let system: TestSystem;

  before(async () => {
    // Child processes: a graceful stop is a real process's answer to SIGTERM.
    system = await TestSystem.start({ launch: 'child-process', services: ['acquirer-adapter', 'epg-sandbox'], serviceEnv: { 'acquirer-adapter': { SWEEP_INTERVAL_SECONDS: '1' } } });
  });
  after(async () => {
    await system?.shutdown();
  });

  it('when one of two adapter replicas gets SIGTERM under a stream of authorizations, then every command is answered approved, every order ends APPROVED, nothing is left on the queue, and it exits 0 within the bound', async () => {
    const port = await system.startService('acquirer-adapter', 'acquirer-adapter-2');
    const outcomes: string[] = [];
    const failures: string[] = [];
    const attempts: string[] = [];
    let stopped = false;
    const loop = async () => {
      while (!stopped) {
        const attempt = newAttempt();
        attempts.push(attempt.attempt_id);
        try {
          const reply = await system.send<CommandReply<'payment.authorize'>>('payment.authorize', {
            attempt,
            card: sealCard(system, attempt.attempt_id, '4242424242424242'),
            term_url: 'http://127.0.0.1/3ds',
          });
          outcomes.push(reply.failure_code ? `${reply.outcome}:${reply.failure_code}` : reply.outcome);
        } catch (err) {
          failures.push(`${(err as Error).name}: ${(err as Error).message}`);
        }
      }
    };
    const loops = Array.from({ length: 8 }, () => loop());

    await pollUntil(() => outcomes.length >= 60, 20_000, '60 authorizations answered before the stop');
    await pollUntil(async () => (await commandsHandled(port, 'payment.authorize')) > 0, 5_000, 'the replica to stop has authorized payments');
    const stop = await system.stopServiceTimed('acquirer-adapter-2');
    const answeredAtExit = outcomes.length;
    await pollUntil(() => outcomes.length >= answeredAtExit + 60, 20_000, '60 more answered after the exit');
    stopped = true;
    await Promise.all(loops);

    assert.deepEqual(failures, [], 'every command was answered');
    assert.deepEqual([...new Set(outcomes)], ['approved'], `outcomes: ${JSON.stringify(outcomes.filter((o) => o !== 'approved'))}`);
    assert.equal(outcomes.length, attempts.length);
    assert.equal(stop.code, 0);
    assert.ok(stop.ms < SHUTDOWN_BOUND_MS, `the stop took ${stop.ms} ms`);

    const orders = await system.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM acquirer.orders WHERE attempt_id = ANY($1) GROUP BY status', [attempts]);
    assert.deepEqual(orders, [{ status: 'APPROVED', n: attempts.length }]);
    const queue = namesFor(system.prefix).commandQueueOf('payment.authorize');
    await system.waitForQueueDrained(queue);
  });
});
