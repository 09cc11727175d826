/**
 * Wallet orders (D26) whose outcome the adapter must not guess: what a
 * Flouci refusal that names no payment says, what a success without its
 * amount proves, how long a payment whose buyer is still on Flouci's page is
 * waited for, what becomes of a hold Flouci reports for another amount, and
 * of a payment whose application was replaced or removed while the buyer
 * paid. The connectors are stand-ins; nothing here needs a network.
 */
import assert from 'node:assert/strict';
import { createLogger } from '@gateway/observability';
import type { Connector, OperationResult, OrderState, Terminal } from '../../src/acquirer/acquirer.js';
import { toOrderState } from '../../src/acquirer/flouci/flouci.transformers.js';
import type { ClaimedOrder } from '../../src/db/order.repository.js';
import type { AdapterDeps } from '../../src/domain/deps.js';
import { reconcileDueOrders } from '../../src/domain/reconcile-orders.js';
import { dueOnce, orderRow } from './order-rows.js';
import type { ReconcilePolicy } from '../../src/domain/reconciliation.js';

/** How long a buyer has on Flouci's page (WALLET_TIMEOUT_SECONDS' default). */
const WALLET_TIMEOUT_SECONDS = 1_200;

const policy: ReconcilePolicy = { reconcileAfterSeconds: 60, challengeTimeoutSeconds: 1_800, baseDelaySeconds: 30, maxDelaySeconds: 3_600, leaseSeconds: 35 };

/** A wallet order the sweep claimed: REDIRECTED (the buyer was sent to Flouci) `ageSeconds` ago. */
function walletOrder(fields: Partial<ClaimedOrder> = {}): ClaimedOrder {
  return {
    ...orderRow({
      attempt_id: 'pa_review00000000000000001',
      session_id: 'ps_review00000000000000001',
      livemode: true,
      order_number: 'ORD-1-1',
      acquirer_order_id: 'flouci-payment-1',
      card_brand: 'flouci',
      card_last_four: '',
      payment_method_type: 'flouci',
      wallet_account_id: '7',
    }),
    status: 'REDIRECTED',
    checks: 1,
    age_seconds: 120,
    ...fields,
  };
}

/** A Flouci stand-in whose status answers `state` and that records every call. */
function flouciAnswering(state: OrderState, calls: string[]): Connector {
  const done: OperationResult = { kind: 'done' };
  return {
    method: 'flouci',
    start: async () => assert.fail('nothing is started'),
    status: async (account: Terminal, payment) => (calls.push(`status ${payment.reference ?? '-'} as ${account.userName}`), state),
    capture: async () => (calls.push('capture'), done),
    void: async (_account: Terminal, reference: string) => (calls.push(`void ${reference}`), done),
    refund: async () => (calls.push('refund'), done),
    close: async () => undefined,
  };
}

/**
 * Reconciliation's deps over one due order, made with the merchant's live
 * application 7; `current` is the application saved now (undefined: the keys
 * were removed), which starts new payments only.
 */
function reconcileDeps(due: ClaimedOrder, flouci: Connector, current: typeof KEYS | undefined = KEYS) {
  const { orders, finished } = dueOnce([due]);
  const rescheduled: string[] = [];
  const deps = {
    orders: { ...orders, reschedule: async (attemptId: string) => void rescheduled.push(attemptId), find: async () => undefined },
    walletAccounts: { current: async () => current, byId: async (_merchantId: string, id: string) => (id === MADE_WITH.id ? MADE_WITH : undefined) },
    bindings: { save: async () => assert.fail('nothing is saved') },
    acquirer: { method: 'card', status: async () => assert.fail('a wallet order is never asked of the card acquirer') },
    flouci,
    sandbox: { baseUrl: 'http://sandbox.invalid/payment/rest/', userName: 'gateway-test', password: 'card-secret' },
    wallet: { sandbox: { baseUrl: 'http://sandbox.invalid/api/v2/', userName: 'sandbox-public', password: 'sandbox-private' }, liveUrl: 'https://wallet.invalid/api/v2/', timeoutSeconds: WALLET_TIMEOUT_SECONDS },
    defaultPricing: { percent: '1.5', fixed: '0.200' },
    clock: () => new Date('2026-11-29T09:02:00Z'),
    log: createLogger({ service: 'test', level: 'silent' }),
    afterCommit: () => undefined,
  } as unknown as AdapterDeps;
  return { deps, finished, rescheduled };
}

/** The application the order was made with (retired since, in one test), and the one saved now. */
const MADE_WITH = { id: '7', publicKey: 'merchant-public', privateKey: 'merchant-private', updatedAt: new Date('2026-11-01T00:00:00Z') };
const KEYS = { id: '8', publicKey: 'merchant-public-2', privateKey: 'merchant-private-2', updatedAt: new Date('2026-11-29T09:01:00Z') };

describe('Wallet outcomes the adapter must not guess (D26, WALLET.md)', () => {
  it('when verify_payment refuses with an error that only says it is unknown, then the outcome is unknown, not a payment Flouci never had', () => {
    // WALLET.md: an answer that cannot be read is an unknown outcome, never a failure. "Unknown error" names no payment.
    assert.equal(toOrderState({ success: false, message: 'Unknown error, please try again later', code: 1 }), undefined);
    assert.equal(toOrderState({ success: false, message: 'unknown server state', code: 1 }), undefined);
  });

  it('when verify_payment says SUCCESS without the amount, then nothing is recorded paid: the amount is what tells our payment from another', () => {
    // WALLET.md: verify_payment answers the amount; D26: a payment of another amount never pays the session.
    assert.equal(toOrderState({ success: true, result: { type: 'wallet', status: 'SUCCESS', developer_tracking_id: 'pa_x' }, code: 0 }), undefined);
  });

  it('when Flouci answers "not found" for a payment whose buyer may still be on its page, then the sweep waits for the wallet\'s timeout before giving up', async () => {
    const calls: string[] = [];
    // Two minutes after the buyer was sent to Flouci; the page takes a payment for 20.
    const { deps, finished, rescheduled } = reconcileDeps(walletOrder({ age_seconds: 120 }), flouciAnswering({ kind: 'not-found' }, calls));
    await reconcileDueOrders(deps, policy);
    assert.deepEqual(
      finished.map((f) => f.outcome),
      [],
      'a wallet payment the buyer can still complete at Flouci was declined as never received',
    );
    assert.deepEqual(rescheduled, ['pa_review00000000000000001']);
  });

  it('when Flouci holds another amount than ours for a manual session, then the decline owes the hold\'s release, not left on the buyer\'s wallet', async () => {
    const calls: string[] = [];
    const { deps, finished } = reconcileDeps(
      walletOrder({ capture_method: 'manual' }),
      flouciAnswering({ kind: 'held', amount: '1.000', maskedPan: '' }, calls),
    );
    await reconcileDueOrders(deps, policy);
    // Declined (the session is not authorized for it) ...
    assert.equal(finished[0]?.outcome.status, 'DECLINED');
    // ... and owes the hold's release, written with it (the order has no hold left for a capture or a void to act on).
    assert.deepEqual((finished[0]?.outcome as { giveBack?: unknown }).giveBack, { kind: 'release', amount: '1.000' });
  });

  it('when the merchant removed or replaced its Flouci keys while a buyer was paying, then the payment is verified with the application it was made with, and recorded', async () => {
    for (const current of [undefined, KEYS]) {
      const calls: string[] = [];
      const { deps, finished, rescheduled } = reconcileDeps(walletOrder({ age_seconds: 600, checks: 12 }), flouciAnswering({ kind: 'paid', amount: '12.500', maskedPan: '' }, calls), current);
      await reconcileDueOrders(deps, policy);
      assert.deepEqual(calls, ['status flouci-payment-1 as merchant-public']);
      assert.deepEqual(rescheduled, [], 'the order is rescheduled for ever: the session stays PROCESSING and the buyer\'s payment is never recorded');
      assert.equal(finished[0]?.outcome.status, 'APPROVED');
    }
  });

  it('when Flouci still does not know a payment long after its buyer\'s time ran out, then the sweep gives up on it', async () => {
    const { deps, finished } = reconcileDeps(walletOrder({ age_seconds: WALLET_TIMEOUT_SECONDS + policy.reconcileAfterSeconds }), flouciAnswering({ kind: 'not-found' }, []));
    await reconcileDueOrders(deps, policy);
    assert.equal(finished[0]?.outcome.status, 'DECLINED');
  });
});
