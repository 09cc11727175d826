/**
 * Refund rules without servers: the settlement day around Tunis midnight,
 * the operation it chooses (with the adapter's clock injected), and how the
 * acquirer's answers to reverse.do and refund.do read.
 */
import assert from 'node:assert/strict';
import { createLogger } from '@gateway/observability';
import type { CommandRequest } from '@gateway/contracts';
import { AcquirerUnreachable, type CardConnector, type OperationResult, type OrderState, type Terminal } from '../../src/acquirer/acquirer.js';
import { orderRow } from './order-rows.js';
import { toOperationResult } from '../../src/acquirer/clictopay/clictopay.transformers.js';
import type { OrderRow } from '../../src/db/order.repository.js';
import type { NewRefundOperation, RefundOperationRow } from '../../src/db/refund-operation.repository.js';
import type { AdapterDeps } from '../../src/domain/deps.js';
import { refundPayment } from '../../src/domain/refund-payment.js';
import { businessDay, maybeSettled } from '../../src/domain/settlement.js';

describe('Settlement day (Africa/Tunis, UTC+1 all year)', () => {
  it('when it is 23:59:59 in Tunis, then it is still that day; at 00:00 the next one begins', () => {
    assert.equal(businessDay(new Date('2025-03-04T22:59:59.999Z')), '2025-03-04');
    assert.equal(businessDay(new Date('2025-03-04T23:00:00.000Z')), '2025-03-05');
    // No summer time: July's boundary is at 23:00 UTC too.
    assert.equal(businessDay(new Date('2025-07-15T22:59:59.999Z')), '2025-07-15');
    assert.equal(businessDay(new Date('2025-07-15T23:00:00.000Z')), '2025-07-16');
    assert.equal(businessDay(new Date('2025-12-31T23:00:00.000Z')), '2026-01-01');
  });

  it('when a payment was made earlier the same Tunis day, then it is not settled until Tunis midnight', () => {
    const paid = new Date('2025-03-04T08:00:00Z');
    assert.equal(maybeSettled(paid, new Date('2025-03-04T22:59:59.999Z')), false);
    assert.equal(maybeSettled(paid, new Date('2025-03-04T23:00:00.000Z')), true);
  });

  it('when a payment was made after Tunis midnight but before UTC midnight, then it counts as the Tunis day', () => {
    // 00:30 on the 5th in Tunis, still the 4th in UTC: unsettled through the 5th, Tunis time.
    const paid = new Date('2025-03-04T23:30:00Z');
    assert.equal(maybeSettled(paid, new Date('2025-03-05T10:00:00Z')), false);
    assert.equal(maybeSettled(paid, new Date('2025-03-05T22:59:59Z')), false);
    assert.equal(maybeSettled(paid, new Date('2025-03-05T23:00:00Z')), true);
  });

  it('when a payment was made at 23:59 in Tunis, then one minute later it may be settled', () => {
    assert.equal(maybeSettled(new Date('2025-03-04T22:59:00Z'), new Date('2025-03-04T23:00:30Z')), true);
  });
});

describe('Refund operation choice and outcomes', () => {
  const terminal: Terminal = { baseUrl: 'http://sandbox.invalid/payment/rest/', userName: 'gateway-test', password: 'secret' };
  const attemptId = 'pa_00000000000000000001';
  const merchantId = 'mer_00000000000000000001';

  /** An order recorded (and paid) at `createdAt`. */
  function order(createdAt: string, status: OrderRow['status'] = 'APPROVED'): OrderRow {
    return orderRow({
      attempt_id: attemptId,
      session_id: 'ps_1',
      merchant_id: merchantId,
      status,
      fee_amount: '0.388',
      net_amount: '12.112',
      created_at: new Date(createdAt),
      updated_at: new Date(createdAt),
    });
  }


  /** Deps with the order, an in-memory refund table, an acquirer answering `answer`, and the clock at `now`. */
  function depsWith(
    row: OrderRow,
    now: string,
    answer: () => Promise<OperationResult> = async () => ({ kind: 'done' }),
    other: { reverse?: () => Promise<OperationResult>; status?: () => Promise<OrderState> } = {},
  ) {
    const calls: string[] = [];
    const table = new Map<string, RefundOperationRow>();
    const acquirer: Pick<CardConnector, 'method' | 'void' | 'refund' | 'status'> = {
      method: 'card',
      void: async (_t, orderId) => (calls.push(`reverse ${orderId}`), (other.reverse ?? answer)()),
      refund: async (_t, { reference, amount, refundedAtMost }) => (calls.push(`refund ${reference} ${amount} (at most ${refundedAtMost} before)`), answer()),
      status: async (_t, { reference }) => (calls.push(`status ${reference}`), other.status ? other.status() : { kind: 'paid', amount: row.amount, maskedPan: '' }),
    };
    const deps = {
      orders: { find: async (id: string) => (id === row.attempt_id ? row : undefined) },
      refunds: {
        record: async (op: NewRefundOperation) => (table.has(op.refund_id) ? false : (table.set(op.refund_id, { ...op, age_ms: 0 }), true)),
        find: async (id: string) => table.get(id),
        finish: async (id: string, status: RefundOperationRow['status'], message: string) => {
          const op = table.get(id);
          if (op?.status === 'STARTED') table.set(id, { ...op, status, message });
        },
        refundedAtMost: async (attempt: string, id: string) => {
          const others = [...table.values()].filter((op) => op.attempt_id === attempt && op.refund_id !== id && op.status !== 'REFUSED');
          return others.reduce((sum, op) => (Number(sum) + Number(op.amount)).toFixed(3), '0.000');
        },
        becomeRefund: async (id: string) => {
          const op = table.get(id);
          if (op?.status === 'STARTED' && op.operation === 'reverse') table.set(id, { ...op, operation: 'refund' });
        },
      },
      acquirer,
      sandbox: terminal,
      refundInFlightMs: 1_000,
      clock: () => new Date(now),
      log: createLogger({ service: 'test', level: 'silent' }),
    } as unknown as AdapterDeps;
    return { deps, calls, table };
  }

  let sequence = 0;
  function request(amount: string, whole: boolean): CommandRequest<'payment.refund'> {
    sequence += 1;
    return { refund_id: `re_${sequence}`, attempt_id: attemptId, merchant_id: merchantId, livemode: false, amount, whole };
  }

  it('when the whole payment is refunded at 23:59:59 Tunis time on its day, then it is reversed; at 00:00:00 it is refunded with refund.do', async () => {
    const paidAt = '2025-03-04T09:15:00Z';
    const before = depsWith(order(paidAt), '2025-03-04T22:59:59.999Z');
    assert.deepEqual(await refundPayment(before.deps, request('12.500', true)), { outcome: 'refunded', operation: 'reverse', message: '' });
    assert.deepEqual(before.calls, ['reverse a0b1c2d3-0000-4000-8000-000000000001']);

    const after = depsWith(order(paidAt), '2025-03-04T23:00:00.000Z');
    assert.deepEqual(await refundPayment(after.deps, request('12.500', true)), { outcome: 'refunded', operation: 'refund', message: '' });
    assert.deepEqual(after.calls, ['refund a0b1c2d3-0000-4000-8000-000000000001 12.500 (at most 0.000 before)']);
  });

  it('when a refund is partial, or called whole for another amount than the payment, then it is a refund.do even on the same day', async () => {
    const { deps, calls } = depsWith(order('2025-03-04T09:15:00Z'), '2025-03-04T10:00:00Z');
    assert.equal((await refundPayment(deps, request('2.000', false))).operation, 'refund');
    assert.equal((await refundPayment(deps, request('10.500', true))).operation, 'refund');
    assert.deepEqual(calls.map((c) => c.split(' ')[0]), ['refund', 'refund']);
  });

  it('when the acquirer does not answer, then the refund is unconfirmed "no answer from the acquirer" and a repeat calls nothing', async () => {
    const { deps, calls, table } = depsWith(order('2025-03-04T09:15:00Z'), '2025-03-04T10:00:00Z', async () => {
      throw new AcquirerUnreachable('refund.do', 'timed out', true);
    });
    const once = request('1.000', false);
    const expected = { outcome: 'unconfirmed', operation: 'refund', message: 'no answer from the acquirer' };
    assert.deepEqual(await refundPayment(deps, once), expected);
    assert.deepEqual(await refundPayment(deps, once), expected);
    assert.equal(calls.length, 1);
    assert.equal(table.get(once.refund_id)?.status, 'UNCONFIRMED');
  });

  it('when a refund is still recorded as STARTED past the longest call (its replica died), then a repeat answers unconfirmed and calls nothing', async () => {
    const { deps, calls, table } = depsWith(order('2025-03-04T09:15:00Z'), '2025-03-04T10:00:00Z');
    const stuck = request('1.000', false);
    table.set(stuck.refund_id, { ...stuck, operation: 'refund', status: 'STARTED', message: '', age_ms: 60_000 });
    const answer = await refundPayment(deps, stuck);
    assert.equal(answer.outcome, 'unconfirmed');
    assert.match(answer.message, /being processed/);
    assert.equal(calls.length, 0);
  });

  it('when the order is not APPROVED or the amount is not a TND amount, then the refund is refused and the acquirer is not called', async () => {
    const declined = depsWith(order('2025-03-04T09:15:00Z', 'DECLINED'), '2025-03-04T10:00:00Z');
    assert.equal((await refundPayment(declined.deps, request('12.500', true))).outcome, 'refused');
    const approved = depsWith(order('2025-03-04T09:15:00Z'), '2025-03-04T10:00:00Z');
    for (const amount of ['0.000', '1.5', '1.2345']) assert.equal((await refundPayment(approved.deps, request(amount, false))).outcome, 'refused', amount);
    assert.deepEqual([...declined.calls, ...approved.calls], []);
  });

  it('when reverse.do or refund.do answers, then 0 is refunded, 5 and 6 refused, 7 and anything unreadable unconfirmed', () => {
    assert.deepEqual(toOperationResult({ errorCode: '0', errorMessage: 'Success' }), { kind: 'done' });
    assert.deepEqual(toOperationResult({ errorCode: '5', errorMessage: 'Invalid amount' }), { kind: 'refused', errorCode: 5, message: 'Invalid amount' });
    assert.deepEqual(toOperationResult({ errorCode: 6, errorMessage: 'Order not found' }), { kind: 'refused', errorCode: 6, message: 'Order not found' });
    assert.deepEqual(toOperationResult({ errorCode: '7', errorMessage: 'System error' }), { kind: 'unconfirmed', errorCode: 7, message: 'System error' });
    assert.deepEqual(toOperationResult({ errorCode: '7' }), { kind: 'unconfirmed', errorCode: 7, message: 'errorCode 7' });
    assert.equal(toOperationResult({ errorCode: 'oops' }).kind, 'unconfirmed');
    assert.equal(toOperationResult({ errorCode: '4', errorMessage: 'orderId is required' }).kind, 'unconfirmed');
  });

  it('when a same-day reversal is refused with 5 or 7 and the order is still deposited, then refund.do gives the whole amount back and the reply says refund', async () => {
    for (const refused of [
      { kind: 'refused', errorCode: 5, message: 'Access denied: no reversal permission' },
      { kind: 'unconfirmed', errorCode: 7, message: 'Wrong order state' },
    ] as const) {
      const { deps, calls, table } = depsWith(order('2025-03-04T09:15:00Z'), '2025-03-04T10:00:00Z', async () => ({ kind: 'done' }), { reverse: async () => refused });
      const whole = request('12.500', true);
      assert.deepEqual(await refundPayment(deps, whole), { outcome: 'refunded', operation: 'refund', message: '' });
      assert.deepEqual(calls, [
        'reverse a0b1c2d3-0000-4000-8000-000000000001',
        'status a0b1c2d3-0000-4000-8000-000000000001',
        'refund a0b1c2d3-0000-4000-8000-000000000001 12.500 (at most 0.000 before)',
      ]);
      assert.deepEqual([table.get(whole.refund_id)?.operation, table.get(whole.refund_id)?.status], ['refund', 'REFUNDED']);
      // A repeat answers the operation made, and calls nothing.
      assert.deepEqual(await refundPayment(deps, whole), { outcome: 'refunded', operation: 'refund', message: '' });
      assert.equal(calls.length, 3);
    }
  });

  it('when a refused reversal turns out to have reversed the order, or its status cannot be read, then refund.do is never sent', async () => {
    const refused = async () => ({ kind: 'unconfirmed', errorCode: 7, message: 'System error' }) as const;
    const reversed = depsWith(order('2025-03-04T09:15:00Z'), '2025-03-04T10:00:00Z', async () => ({ kind: 'done' }), {
      reverse: refused,
      status: async () => ({ kind: 'declined', failureCode: 'processing_error', failureMessage: 'reversed', reversed: true }),
    });
    assert.deepEqual(await refundPayment(reversed.deps, request('12.500', true)), { outcome: 'unconfirmed', operation: 'reverse', message: 'System error' });
    const unreadable = depsWith(order('2025-03-04T09:15:00Z'), '2025-03-04T10:00:00Z', async () => ({ kind: 'done' }), {
      reverse: refused,
      status: async () => {
        throw new AcquirerUnreachable('getOrderStatusExtended.do', 'timed out', true);
      },
    });
    assert.deepEqual(await refundPayment(unreadable.deps, request('12.500', true)), { outcome: 'unconfirmed', operation: 'reverse', message: 'System error' });
    for (const calls of [reversed.calls, unreadable.calls]) assert.ok(!calls.some((call) => call.startsWith('refund')), calls.join());
  });

  it('when a reversal is refused as unknown (6) or answered without an answer, then it stays so: no refund.do', async () => {
    const unknown = depsWith(order('2025-03-04T09:15:00Z'), '2025-03-04T10:00:00Z', async () => ({ kind: 'done' }), {
      reverse: async () => ({ kind: 'refused', errorCode: 6, message: 'Order not found' }),
    });
    assert.deepEqual(await refundPayment(unknown.deps, request('12.500', true)), { outcome: 'refused', operation: 'reverse', message: 'Order not found' });
    assert.deepEqual(unknown.calls, ['reverse a0b1c2d3-0000-4000-8000-000000000001']);
  });

  it('when earlier refunds of the payment were not refused, then refund.do is told the most they can have refunded', async () => {
    const { deps, calls } = depsWith(order('2025-03-01T09:15:00Z'), '2025-03-04T10:00:00Z');
    await refundPayment(deps, request('2.000', false));
    await refundPayment(deps, request('1.500', false));
    assert.deepEqual(calls, ['refund a0b1c2d3-0000-4000-8000-000000000001 2.000 (at most 0.000 before)', 'refund a0b1c2d3-0000-4000-8000-000000000001 1.500 (at most 2.000 before)']);
  });
});
