/**
 * Paying with Flouci from the hosted page (D26), against a fake session
 * service: what attempt.pay_wallet and attempt.finish_wallet are asked, and
 * what the buyer is shown after each.
 */
import assert from 'node:assert/strict';
import type { CheckoutStep, CheckoutView } from '@gateway/contracts';
import type { Logger } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import { RpcTimeoutError } from '@gateway/messaging';
import type { CheckoutLinkVerifier } from '../../src/domain/checkout-link-verifier.js';
import type { FlowDeps } from '../../src/domain/payment-steps.js';
import type { PaymentLinkSlots } from '../../src/domain/payment-link-slots.js';
import { isAttemptId } from '../../src/domain/three-d-secure.js';
import { payWithWallet, returnFromWallet } from '../../src/domain/wallet-flow.js';

const LINK = { session_id: 'ps_1', link_id: 'cl_1' };
const ATTEMPT = `pa_${'A'.repeat(22)}`;
const SANDBOX = 'http://localhost:8086';
const FLOUCI_PAGE = 'https://developers.flouci.example/pay/5f0e?lang=fr';

interface Call {
  type: string;
  data: Record<string, unknown>;
  timeoutMs: number | undefined;
}

interface Fake {
  deps: FlowDeps;
  calls: Call[];
  /** What the slots were asked: claims (with the payment link), releases, after-steps. */
  slots: string[];
  logged: { level: string; fields: Record<string, unknown>; message: string }[];
  /** The grace each verification of the checkout link was given. */
  graces: (number | undefined)[];
  /** The attempts slots were claimed for. */
  claimed: string[];
}

interface FakeOptions {
  slot?: 'ok' | 'closed' | 'used' | 'held';
  /** The checkout link verifies (true), or has lapsed. */
  live?: boolean;
  paymentLink?: string | null;
}

function view(livemode: boolean, overrides: Partial<CheckoutView> = {}): CheckoutView {
  return { session_id: 'ps_1', status: 'PROCESSING', livemode, locale: 'en', return_url: '', cancel_url: '', ...overrides } as CheckoutView;
}

/** Deps whose session service answers each command with `answer` (or throws it), recording what it was asked. */
function fakeDeps(answer: (call: Call) => CheckoutStep | CheckoutView | Error, options: FakeOptions = {}): Fake {
  const fake: Fake = { deps: undefined as unknown as FlowDeps, calls: [], slots: [], logged: [], graces: [], claimed: [] };
  const record = (level: string) => (fields: Record<string, unknown>, message: string) => fake.logged.push({ level, fields, message });
  const live = options.live ?? true;
  const slots = {
    claim: async (_ref: unknown, attemptId: string, paymentLink: unknown) => {
      fake.claimed.push(attemptId);
      fake.slots.push(`claim ${String(paymentLink)}`);
      if (options.slot && options.slot !== 'ok') return { ok: false, reason: options.slot };
      return { ok: true, notStarted: async () => void fake.slots.push('released') };
    },
    afterStep: async (_sessionId: string, _attemptId: string, step: { outcome: string }) => void fake.slots.push(`after ${step.outcome}`),
  } as unknown as PaymentLinkSlots;
  fake.deps = {
    checkoutLinks: {
      verify: (_token: string, _now: Date, grace?: number) => {
        fake.graces.push(grace);
        return live ? LINK : undefined;
      },
      verifyWithPaymentLink: () => (live ? { ref: LINK, paymentLink: options.paymentLink ?? null } : undefined),
    } as unknown as CheckoutLinkVerifier,
    slots,
    cards: {},
    call: async (type: string, data: Record<string, unknown>, timeoutMs?: number) => {
      const call = { type, data, timeoutMs };
      fake.calls.push(call);
      const answered = answer(call);
      if (answered instanceof Error) throw answered;
      return answered;
    },
    publicBaseUrl: 'https://pay.example.tn',
    sandboxPublicUrl: SANDBOX,
    threeDSMethodWaitMs: 10_000,
    paymentTimeoutMs: 65_000,
    paymentReturnGraceSeconds: 1_800,
    clock: () => new Date('2030-01-01T00:00:00Z'),
    log: { info: record('info'), warn: record('warn'), error: record('error'), debug: record('debug') } as unknown as Logger,
  } as unknown as FlowDeps;
  return fake;
}

const redirectTo = (url: string, livemode = true): CheckoutStep => ({ outcome: 'redirect', redirect: { url }, session: view(livemode) });

describe('paying with Flouci on the hosted page', () => {
  describe('"Pay with Flouci"', () => {
    it("When the buyer presses it, then attempt.pay_wallet starts a new attempt with its own return and notice addresses, the form's language and the payment step's time", async () => {
      const { deps, calls } = fakeDeps(() => redirectTo(FLOUCI_PAGE));
      await payWithWallet(deps, 'tok', { language: 'ar' }, 'fr-FR');
      assert.equal(calls.length, 1);
      const [call] = calls;
      const attemptId = String(call?.data['attempt_id']);
      assert.ok(isAttemptId(attemptId), attemptId);
      assert.equal(call?.type, 'attempt.pay_wallet');
      assert.deepEqual(call?.data, {
        ...LINK,
        attempt_id: attemptId,
        wallet: 'flouci',
        return_url: `https://pay.example.tn/checkout/tok/wallet/${attemptId}`,
        webhook_url: `https://pay.example.tn/checkout/wallet-notices/flouci/${attemptId}`,
        language: 'ar',
      });
      assert.equal(call?.timeoutMs, 65_000);
    });

    it("When the form carries no language the page speaks, then the buyer's Accept-Language decides; each press is a new attempt", async () => {
      const { deps, calls } = fakeDeps(() => redirectTo(FLOUCI_PAGE));
      await payWithWallet(deps, 'tok', { language: 'de' }, 'en-GB');
      await payWithWallet(deps, 'tok', {}, undefined);
      assert.deepEqual(calls.map((call) => call.data['language']), ['en', 'fr']);
      assert.notEqual(calls[0]?.data['attempt_id'], calls[1]?.data['attempt_id']);
    });

    it("When the session answers with Flouci's https: page, then the hand-off page to it, in the page's language; the slot stays taken", async () => {
      const fake = fakeDeps(() => redirectTo(FLOUCI_PAGE));
      assert.deepEqual(await payWithWallet(fake.deps, 'tok', { language: 'fr' }), { page: 'wallet', language: 'fr', url: FLOUCI_PAGE });
      assert.deepEqual(fake.slots, ['claim null', 'after redirect']);
      assert.deepEqual(fake.claimed, [fake.calls[0]?.data['attempt_id']], 'the slot is claimed for the attempt started');
    });

    it("When a live session's answer names a page that is not https: (the sandbox's http: origin, another http: host, javascript:), then the refused page and an error logged without the URL", async () => {
      for (const url of [`${SANDBOX}/flouci/pay/1`, 'http://flouci.example/pay/1', 'javascript:alert(1)', 'https://user:pw@flouci.example/pay']) {
        const fake = fakeDeps(() => redirectTo(url, true));
        assert.deepEqual(await payWithWallet(fake.deps, 'tok', { language: 'en' }), { page: 'bank-refused', language: 'en', wallet: 'flouci' }, url);
        const errors = fake.logged.filter((line) => line.level === 'error');
        assert.equal(errors.length, 1);
        assert.doesNotMatch(JSON.stringify(errors), /flouci\.example|localhost|alert|pw@/);
        assert.equal(errors[0]?.fields['attemptId'], fake.calls[0]?.data['attempt_id']);
      }
    });

    it("When a test-mode session's answer names the sandbox's page, then the buyer is handed to it; a redirect without a URL is refused", async () => {
      const sandboxPage = `${SANDBOX}/flouci/pay/7f3a`;
      assert.deepEqual(await payWithWallet(fakeDeps(() => redirectTo(sandboxPage, false)).deps, 'tok', { language: 'en' }), { page: 'wallet', language: 'en', url: sandboxPage });
      const bare = fakeDeps(() => ({ outcome: 'redirect', session: view(false) }));
      assert.deepEqual(await payWithWallet(bare.deps, 'tok', { language: 'en' }), { page: 'bank-refused', language: 'en', wallet: 'flouci' });
    });

    it('When the answer carries no session, then the session is looked at once for its mode', async () => {
      const fake = fakeDeps((call) => (call.type === 'checkout.view' ? view(false) : { outcome: 'redirect', redirect: { url: `${SANDBOX}/flouci/pay/1` } }));
      assert.deepEqual(await payWithWallet(fake.deps, 'tok', {}, 'en'), { page: 'wallet', language: 'en', url: `${SANDBOX}/flouci/pay/1` });
      assert.deepEqual(fake.calls.map((call) => call.type), ['attempt.pay_wallet', 'checkout.view']);
    });

    it('When Flouci could not start the payment (declined) or the answer is pending, then the result page, as after a card', async () => {
      const declined = fakeDeps(() => ({ outcome: 'declined', session: view(true, { status: 'PENDING' }) }));
      assert.deepEqual(await payWithWallet(declined.deps, 'tok', {}), { redirect: '/checkout/tok/result' });
      assert.deepEqual(declined.slots, ['claim null', 'after declined']);
      const unanswered = fakeDeps(() => new RpcTimeoutError('attempt.pay_wallet', 65_000));
      assert.deepEqual(await payWithWallet(unanswered.deps, 'tok', {}), { redirect: '/checkout/tok/result' });
    });

    it('When the declined attempt closed the session, then the buyer leaves for the merchant at once', async () => {
      const failed = view(true, { status: 'FAILED', cancel_url: 'https://shop.example/cancel' });
      const { deps } = fakeDeps(() => ({ outcome: 'declined', session: failed }));
      assert.deepEqual(await payWithWallet(deps, 'tok', {}), { page: 'leaving', language: 'en', outcome: 'failed', url: 'https://shop.example/cancel?session_id=ps_1' });
    });

    it("When the session refuses the attempt (another under way, closed, merchant suspended), then the payment link's slot is given back and the result page says which; an unknown session is an expired link", async () => {
      const refused = fakeDeps(() => new AppError('invalid-state', 'Another attempt is under way.'), { paymentLink: 'pl_1' });
      assert.deepEqual(await payWithWallet(refused.deps, 'tok', {}), { redirect: '/checkout/tok/result' });
      assert.deepEqual(refused.slots, ['claim pl_1', 'released']);
      const gone = fakeDeps(() => new AppError('not-found', 'No such session.'));
      assert.deepEqual(await payWithWallet(gone.deps, 'tok', {}, 'ar'), { page: 'checkout-link-expired', language: 'ar', reason: 'expired' });
      assert.deepEqual(gone.slots, ['claim null', 'released']);
    });

    it('When the payment link is closed, used up or held, then nothing is asked of the session and the page says why', async () => {
      const reasons = { closed: 'payment-link-closed', used: 'payment-link-used', held: 'payment-link-held' } as const;
      for (const [slot, reason] of Object.entries(reasons) as [keyof typeof reasons, string][]) {
        const fake = fakeDeps(() => new Error('not called'), { slot, paymentLink: 'pl_1' });
        assert.deepEqual(await payWithWallet(fake.deps, 'tok', { language: 'fr' }), { page: 'unavailable', language: 'fr', reason });
        assert.equal(fake.calls.length, 0);
      }
    });

    it('When the checkout link has lapsed or is forged, then the expired page and nothing else', async () => {
      const fake = fakeDeps(() => new Error('not called'), { live: false });
      assert.deepEqual(await payWithWallet(fake.deps, 'tok', {}, 'fr'), { page: 'checkout-link-expired', language: 'fr', reason: 'expired' });
      assert.deepEqual([fake.calls.length, fake.slots.length], [0, 0]);
    });

    it('When the session service fails otherwise, then the failure goes up to the route (its error page)', async () => {
      const { deps } = fakeDeps(() => new Error('broker down'));
      await assert.rejects(payWithWallet(deps, 'tok', {}), /broker down/);
    });
  });

  describe("the buyer's return from Flouci", () => {
    it('When the buyer comes back, then the session finishes that attempt within the return grace; a pending answer goes to the result page, which shows processing', async () => {
      const fake = fakeDeps(() => ({ outcome: 'pending' }));
      assert.deepEqual(await returnFromWallet(fake.deps, 'tok', ATTEMPT), { redirect: '/checkout/tok/result' });
      assert.deepEqual(fake.calls.map(({ type, data, timeoutMs }) => ({ type, data, timeoutMs })), [{ type: 'attempt.finish_wallet', data: { ...LINK, attempt_id: ATTEMPT }, timeoutMs: 65_000 }]);
      assert.deepEqual(fake.graces, [1_800]);
      assert.deepEqual(fake.slots, ['after pending']);
    });

    it('When the payment was verified and closed the session, then the buyer leaves for the merchant; a decline with attempts left goes to the page again', async () => {
      const paid = view(true, { status: 'SUCCEEDED', return_url: 'https://shop.example/thanks', locale: 'fr' });
      assert.deepEqual(await returnFromWallet(fakeDeps(() => ({ outcome: 'approved', session: paid })).deps, 'tok', ATTEMPT), {
        page: 'leaving',
        language: 'fr',
        outcome: 'succeeded',
        url: 'https://shop.example/thanks?session_id=ps_1',
      });
      const declined = fakeDeps(() => ({ outcome: 'declined', failure_code: 'wallet_declined', session: view(true, { status: 'PENDING' }) }));
      assert.deepEqual(await returnFromWallet(declined.deps, 'tok', ATTEMPT), { redirect: '/checkout/tok/result' });
      assert.deepEqual(declined.slots, ['after declined']);
    });

    it('When the session refuses the finish (another link\'s attempt, no longer waiting: a reload), then the result page shows where things stand', async () => {
      const fake = fakeDeps(() => new AppError('not-found', 'No payment attempt with this id awaits the wallet.'));
      assert.deepEqual(await returnFromWallet(fake.deps, 'tok', ATTEMPT), { redirect: '/checkout/tok/result' });
      assert.deepEqual(await returnFromWallet(fake.deps, 'tok', ATTEMPT), { redirect: '/checkout/tok/result' });
      assert.equal(fake.calls.length, 2);
    });

    it('When the checkout link lapsed beyond the grace, then the expired page and nothing is finished', async () => {
      const fake = fakeDeps(() => new Error('not called'), { live: false });
      assert.deepEqual(await returnFromWallet(fake.deps, 'tok', ATTEMPT, 'en'), { page: 'checkout-link-expired', language: 'en', reason: 'expired' });
      assert.equal(fake.calls.length, 0);
    });
  });
});
