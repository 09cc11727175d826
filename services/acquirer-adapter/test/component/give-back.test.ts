/**
 * What a declined wallet payment owes the buyer (D26), on a real PostgreSQL:
 * Flouci reports another amount than ours, so the order is declined and the
 * debt is written with the decline. Giving it back at once can fail (an
 * error on the way, Flouci not answering): the sweep gives it back later,
 * once; a debt Flouci refuses is left to an operator.
 * The connector is a stand-in that records its calls.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { newId } from '@gateway/contracts';
import { createPool, type Pool } from '@gateway/db';
import { createLogger } from '@gateway/observability';
import { createTestDatabase, type TestDatabase } from '@gateway/testkit';
import { AcquirerUnreachable, type Connector, type OperationResult, type Terminal } from '../../src/acquirer/acquirer.js';
import { OrderRepository } from '../../src/db/order.repository.js';
import type { AdapterDeps } from '../../src/domain/deps.js';
import { finishApproved } from '../../src/domain/finish-order.js';
import { giveBackDue } from '../../src/domain/give-back.js';
import { newOrder } from '../../src/domain/new-order.js';
import type { ReconcilePolicy } from '../../src/domain/reconciliation.js';

const policy: ReconcilePolicy = { reconcileAfterSeconds: 60, challengeTimeoutSeconds: 1_800, baseDelaySeconds: 1, maxDelaySeconds: 1, leaseSeconds: 1 };

describe('Acquirer adapter, a wallet payment of another amount given back (D26)', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let pool: Pool;
  let orders: OrderRepository;

  before(async () => {
    db = await createTestDatabase(['acquirer-adapter']);
    pool = createPool({ url: db.urlFor('acquirer-adapter'), schema: 'acquirer', max: 2 });
    orders = new OrderRepository(pool, 60);
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** A live wallet order the buyer was sent to Flouci for (12.500 TND), as the adapter records it. */
  async function redirectedOrder(capture: 'automatic' | 'manual' = 'automatic') {
    const attempt = {
      attempt_id: newId('pa'),
      attempt_number: 1,
      session_id: newId('ps'),
      merchant_id: newId('mer'),
      livemode: false,
      order_number: `W-${randomBytes(3).toString('hex')}`,
      amount: '12.500',
      description: 'Books',
      capture_method: capture,
    };
    await orders.insert(newOrder(attempt, 'flouci', '', 'flouci'));
    const reference = `flouci-${randomBytes(4).toString('hex')}`;
    await orders.mark(attempt.attempt_id, 'REDIRECTED', reference);
    const row = await orders.find(attempt.attempt_id);
    assert.ok(row);
    return row;
  }

  /** Deps on the real orders, with a Flouci stand-in answering `answers` in turn to a give-back (then done). */
  function depsWith(calls: string[], answers: (OperationResult | 'unreachable' | 'error')[]) {
    const answer = async (call: string): Promise<OperationResult> => {
      calls.push(call);
      const next = answers.shift() ?? { kind: 'done' };
      if (next === 'unreachable') throw new AcquirerUnreachable('refund_payment', 'timed out', true);
      if (next === 'error') throw new Error('Connection terminated unexpectedly');
      return next;
    };
    const flouci = {
      method: 'flouci',
      void: (_account: Terminal, reference: string) => answer(`void ${reference}`),
      refund: (_account: Terminal, refund: { reference: string; amount: string }) => answer(`refund ${refund.reference} ${refund.amount}`),
    } as unknown as Connector;
    const deps = {
      orders,
      flouci,
      wallet: { sandbox: { baseUrl: 'http://sandbox.invalid/api/v2/', userName: 'p', password: 's' }, liveUrl: 'https://wallet.invalid/api/v2/', timeoutSeconds: 1_200 },
      defaultPricing: { percent: '1.5', fixed: '0.200' },
      clock: () => new Date(),
      log: createLogger({ service: 'test', level: 'silent' }),
      afterCommit: () => undefined,
    } as unknown as AdapterDeps;
    return deps;
  }

  const owed = async (attemptId: string) =>
    (await db.query<{ status: string; give_back: string | null; give_back_amount: string | null; due: boolean }>(
      'SELECT status, give_back, give_back_amount::text, give_back_due_at IS NOT NULL AS due FROM acquirer.orders WHERE attempt_id = $1',
      [attemptId],
    ))[0];

  it('when giving back fails at once, then the debt written with the decline is refunded by the sweep, once', async () => {
    const order = await redirectedOrder();
    const calls: string[] = [];
    // The give-back made at once fails on the way.
    const deps = depsWith(calls, ['error']);
    const finished = await finishApproved(deps, order, { kind: 'paid', amount: '10.000' }, 'corr-1');
    assert.deepEqual([finished.recorded, finished.step.outcome, finished.step.failure_code], [true, 'declined', 'wallet_declined']);
    const refund = `refund ${order.acquirer_order_id ?? ''} 10.000`;
    assert.deepEqual(calls, [refund]);
    assert.deepEqual(await owed(order.attempt_id), { status: 'DECLINED', give_back: 'refund', give_back_amount: '10.000', due: true });

    await giveBackDue(deps, policy);
    assert.deepEqual(calls, [refund, refund]);
    assert.equal((await owed(order.attempt_id))?.due, false);
    await giveBackDue(deps, policy);
    assert.equal(calls.length, 2, 'given back once');
  });

  it('when a hold of another amount is given back and Flouci does not answer, then the sweep tries again until it confirms; a refusal is an operator\'s', async () => {
    const held = await redirectedOrder('manual');
    const calls: string[] = [];
    const deps = depsWith(calls, ['unreachable', { kind: 'done' }]);
    await finishApproved(deps, held, { kind: 'held', amount: '10.000' }, 'corr-2');
    assert.deepEqual(calls, [`void ${held.acquirer_order_id ?? ''}`]);
    assert.equal((await owed(held.attempt_id))?.due, true, 'unanswered: still owed');
    await giveBackDue(deps, policy);
    assert.equal(calls.length, 2);
    assert.equal((await owed(held.attempt_id))?.due, false);

    const refused = await redirectedOrder();
    const operators: string[] = [];
    await finishApproved(depsWith(operators, [{ kind: 'refused', errorCode: -1, message: 'not refundable' }]), refused, { kind: 'paid', amount: '10.000' }, 'corr-3');
    assert.equal(operators.length, 1);
    assert.deepEqual(await owed(refused.attempt_id), { status: 'DECLINED', give_back: 'refund', give_back_amount: '10.000', due: false });
  });
});
