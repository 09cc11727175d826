/**
 * Reconciliation speaks only the neutral connector interface (D26): it
 * settles a card order and a wallet order alike through `status`, and never
 * touches a member only one connector has (a card's pay, 3-D Secure or
 * bindings; a protocol's own call names). Each connector here is a stand-in
 * that answers the neutral calls and fails the test on anything else.
 */
import assert from 'node:assert/strict';
import { createLogger } from '@gateway/observability';
import type { Connector, OrderState, PaymentRef, RefundRequest, Terminal } from '../../src/acquirer/acquirer.js';
import type { ClaimedOrder } from '../../src/db/order.repository.js';
import type { AdapterDeps } from '../../src/domain/deps.js';
import { reconcileDueOrders } from '../../src/domain/reconcile-orders.js';
import { dueOnce, orderRow } from './order-rows.js';
import type { ReconcilePolicy } from '../../src/domain/reconciliation.js';

const NEUTRAL = new Set(['method', 'start', 'status', 'capture', 'void', 'refund', 'close']);

/** A connector that answers `status` with `state`, records what it was asked, and throws on any member outside the neutral interface. */
function neutralOnly(method: Connector['method'], state: OrderState, asked: string[]): Connector {
  const connector = {
    method,
    status: async (_account: Terminal, payment: PaymentRef) => {
      asked.push(`${method} status ${payment.reference ?? '-'} ${payment.orderNumber}${payment.byNumber ? ' by number' : ''}`);
      return state;
    },
    void: async (_account: Terminal, reference: string) => (asked.push(`${method} void ${reference}`), { kind: 'done' }),
    refund: async (_account: Terminal, refund: RefundRequest) => (asked.push(`${method} refund ${refund.reference} ${refund.amount}`), { kind: 'done' }),
  };
  return new Proxy(connector as unknown as Connector, {
    get(target, name, receiver) {
      if (typeof name === 'string' && !NEUTRAL.has(name) && name !== 'then') assert.fail(`reconciliation used ${method}'s own member ${name}`);
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
}

function claimed(attemptId: string, method: ClaimedOrder['payment_method_type'], status: ClaimedOrder['status'], reference: string | null): ClaimedOrder {
  return {
    ...orderRow({
      attempt_id: attemptId,
      session_id: `ps_${attemptId}`,
      order_number: `A1B2C3D4-T-${attemptId.slice(3, 9)}-1`,
      acquirer_order_id: reference,
      card_brand: method === 'card' ? 'visa' : 'flouci',
      card_last_four: method === 'card' ? '4242' : '',
      payment_method_type: method,
    }),
    status,
    checks: 1,
    age_seconds: 120,
  };
}

describe('Reconciliation and the connectors', () => {
  const policy: ReconcilePolicy = { reconcileAfterSeconds: 60, challengeTimeoutSeconds: 1_800, baseDelaySeconds: 30, maxDelaySeconds: 3_600, leaseSeconds: 35 };

  /** Deps whose orders due are `due`, whose connectors answer `card` and `wallet`, recording what was finished. */
  function depsWith(due: ClaimedOrder[], card: OrderState, wallet: OrderState, asked: string[]) {
    const { orders, finished } = dueOnce(due);
    const deps = {
      orders: { ...orders, reschedule: async () => assert.fail('nothing is left for later') },
      bindings: { save: async () => assert.fail('nothing is saved') },
      acquirer: neutralOnly('card', card, asked),
      flouci: neutralOnly('flouci', wallet, asked),
      sandbox: { baseUrl: 'http://sandbox.invalid/payment/rest/', userName: 'gateway-test', password: 'card-secret' },
      wallet: { sandbox: { baseUrl: 'http://sandbox.invalid/api/v2/', userName: 'public', password: 'wallet-secret' }, liveUrl: 'https://wallet.invalid/', timeoutSeconds: 1_200 },
      defaultPricing: { percent: '1.5', fixed: '0.200' },
      clock: () => new Date('2026-11-29T09:02:00Z'),
      log: createLogger({ service: 'test', level: 'silent' }),
      afterCommit: () => undefined,
    } as unknown as AdapterDeps;
    return { deps, byAttempt: () => new Map(finished.map((f) => [f.attemptId, f])) };
  }

  it('when a card order and a wallet order are due, then each is settled through its connector\'s neutral status alone, and the outcome recorded with its event', async () => {
    const asked: string[] = [];
    const { deps, byAttempt } = depsWith(
      [claimed('pa_card00000000000000000001', 'card', 'UNKNOWN', 'order-77'), claimed('pa_wallet0000000000000000001', 'flouci', 'REDIRECTED', 'flouci-payment-9')],
      { kind: 'paid', amount: '12.500', maskedPan: '424242**4242' },
      { kind: 'declined', failureCode: 'wallet_expired', failureMessage: 'The Flouci payment was not completed in time.' },
      asked,
    );

    assert.equal(await reconcileDueOrders(deps, policy), 2);

    assert.deepEqual(asked.sort(), ['card status order-77 A1B2C3D4-T-card00-1 by number', 'flouci status flouci-payment-9 A1B2C3D4-T-wallet-1 by number']);
    const finished = byAttempt();
    assert.equal(finished.get('pa_card00000000000000000001')?.outcome.status, 'APPROVED');
    assert.equal(finished.get('pa_card00000000000000000001')?.event.type, 'payment.approved');
    assert.deepEqual(finished.get('pa_wallet0000000000000000001')?.outcome, { status: 'DECLINED', failureCode: 'wallet_expired', failureMessage: 'The Flouci payment was not completed in time.' });
    assert.equal((finished.get('pa_wallet0000000000000000001')?.event.data as { payment_method_type?: string }).payment_method_type, 'flouci');
  });

  it('when Flouci says a wallet payment succeeded for another amount than ours, then it is declined wallet_declined, never recorded paid, owing what Flouci took', async () => {
    const asked: string[] = [];
    const { deps, byAttempt } = depsWith(
      [claimed('pa_wallet0000000000000000002', 'flouci', 'REDIRECTED', 'flouci-payment-10')],
      { kind: 'open' },
      { kind: 'paid', amount: '1.000', maskedPan: '' },
      asked,
    );
    assert.equal(await reconcileDueOrders(deps, policy), 1);
    assert.deepEqual(asked, ['flouci status flouci-payment-10 A1B2C3D4-T-wallet-1 by number']);
    const finished = byAttempt().get('pa_wallet0000000000000000002');
    assert.equal(finished?.outcome.status, 'DECLINED');
    assert.equal(finished?.event.type, 'payment.declined');
    assert.deepEqual(finished?.outcome, {
      status: 'DECLINED',
      failureCode: 'wallet_declined',
      failureMessage: "The wallet reported another amount than this payment's; nothing is recorded as paid, and what the wallet took is given back.",
      giveBack: { kind: 'refund', amount: '1.000' },
    });
  });
});
