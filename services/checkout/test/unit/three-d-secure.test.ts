/**
 * The hosted page's steps around 3-D Secure (D30), against a fake session
 * service: what attempt.pay and attempt.finish_3ds are asked, and what the
 * buyer is shown after each.
 */
import assert from 'node:assert/strict';
import type { CheckoutStep } from '@gateway/contracts';
import type { Logger } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import { pay } from '../../src/domain/checkout-flow.js';
import type { CheckoutLinkVerifier } from '../../src/domain/checkout-link-verifier.js';
import type { FlowDeps } from '../../src/domain/payment-steps.js';
import type { PaymentLinkSlots } from '../../src/domain/payment-link-slots.js';
import { continueAfterMethod, returnByGet, returnFromBank, returnFromChallenge } from '../../src/domain/three-d-secure.js';

const LINK = { session_id: 'ps_1', link_id: 'cl_1' };
const ATTEMPT = `pa_${'A'.repeat(22)}`;
const CARD = { card_number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', cardholder_name: 'Amina Ben Salah', language: 'ar' };
const ACS = { url: 'https://acs.bank.example/challenge', fields: { creq: 'eyJjcmVxIjoxfQ' } };
const METHOD = { url: 'https://acs.bank.example/method', fields: { threeDSMethodData: 'eyJtIjoxfQ' } };
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Logger;

interface Call {
  type: string;
  data: Record<string, unknown>;
}

/** Deps whose session service answers each command with `answer` (or throws it), recording what it was asked. */
function fakeDeps(answer: (call: Call) => CheckoutStep | Error): { deps: FlowDeps; calls: Call[] } {
  const calls: Call[] = [];
  const deps = {
    checkoutLinks: { verify: () => LINK, verifyWithPaymentLink: () => ({ ref: LINK, paymentLink: null }) } as unknown as CheckoutLinkVerifier,
    slots: { claim: async () => ({ ok: true, notStarted: async () => undefined }), afterStep: async () => undefined } as unknown as PaymentLinkSlots,
    cards: { seal: () => 'sealed-card' },
    call: async (type: string, data: Record<string, unknown>) => {
      const call = { type, data };
      calls.push(call);
      const answered = answer(call);
      if (answered instanceof Error) throw answered;
      return answered;
    },
    publicBaseUrl: 'https://pay.example.tn',
    sandboxPublicUrl: 'http://localhost:8086',
    threeDSMethodWaitMs: 10_000,
    paymentTimeoutMs: 65_000,
    paymentReturnGraceSeconds: 1_800,
    clock: () => new Date('2030-01-01T00:00:00Z'),
    log: silent,
  } as unknown as FlowDeps;
  return { deps, calls };
}

describe('3-D Secure on the hosted page', () => {
  it("When a card is paid, then attempt.pay takes the attempt's own address as term_url and the buyer's address; a 3DS Method step shows the method page posting on to that attempt", async () => {
    const { deps, calls } = fakeDeps(() => ({ outcome: 'method', method: METHOD }));
    const answer = await pay(deps, 'tok', CARD, undefined, '197.0.0.7');
    assert.equal(calls.length, 1);
    const [request] = calls;
    const attemptId = String(request?.data['attempt_id']);
    assert.equal(request?.type, 'attempt.pay');
    assert.equal(request?.data['term_url'], `https://pay.example.tn/checkout/tok/3ds/${attemptId}`);
    assert.equal(request?.data['buyer_ip'], '197.0.0.7');
    assert.deepEqual(answer, { page: 'method', language: 'ar', form: METHOD, origin: 'https:', continueUrl: `/checkout/tok/3ds/${attemptId}/method`, waitMs: 10_000 });
  });

  it("When the buyer's address is not known, then attempt.pay goes without one", async () => {
    const { deps, calls } = fakeDeps(() => ({ outcome: 'challenge', challenge: ACS }));
    assert.deepEqual(await pay(deps, 'tok', CARD), { page: 'bank', language: 'ar', form: ACS, origin: 'https:' });
    assert.ok(!('buyer_ip' in (calls[0]?.data ?? {})));
  });

  it('When the 3DS Method frame loaded (or not), then the session is asked to go on with completed true (or false), and a challenge is handed to the ACS in the form\'s language', async () => {
    for (const [completed, expected] of [['true', true], ['false', false], ['yes', false], [undefined, false]] as const) {
      const { deps, calls } = fakeDeps(() => ({ outcome: 'challenge', challenge: ACS }));
      const answer = await continueAfterMethod(deps, 'tok', ATTEMPT, { ...(completed !== undefined && { completed }), language: 'fr' });
      assert.deepEqual(calls, [{ type: 'attempt.finish_3ds', data: { ...LINK, attempt_id: ATTEMPT, returned: { kind: 'method', completed: expected } } }]);
      assert.deepEqual(answer, { page: 'bank', language: 'fr', form: ACS, origin: 'https:' });
    }
  });

  it('When the ACS posts cres, then the session finishes the attempt with it; an approval that closed the session leaves for the merchant', async () => {
    const session = { session_id: 'ps_1', status: 'SUCCEEDED', return_url: 'https://shop.example/thanks', locale: 'en' };
    const { deps, calls } = fakeDeps(() => ({ outcome: 'approved', session }) as unknown as CheckoutStep);
    const answer = await returnFromBank(deps, 'tok', ATTEMPT, { cres: 'eyJjcmVzIjoxfQ', threeDSSessionData: 'x' });
    assert.deepEqual(calls[0]?.data['returned'], { kind: 'cres', cres: 'eyJjcmVzIjoxfQ' });
    assert.deepEqual(answer, { page: 'leaving', language: 'en', outcome: 'succeeded', url: 'https://shop.example/thanks?session_id=ps_1' });
  });

  it("When the ACS posts PaRes, then it is passed on only with the MD of this attempt; another attempt's MD, or no answer, finishes nothing", async () => {
    const { deps, calls } = fakeDeps(() => ({ outcome: 'declined' }));
    assert.deepEqual(await returnFromBank(deps, 'tok', ATTEMPT, { PaRes: 'p', MD: ATTEMPT }), { redirect: '/checkout/tok/result' });
    assert.deepEqual(calls.map((call) => call.data['returned']), [{ kind: 'pa_res', pa_res: 'p' }]);
    for (const form of [{ PaRes: 'p', MD: `pa_${'B'.repeat(22)}` }, { PaRes: 'p' }, { MD: ATTEMPT }, { cres: '' }, { cres: ['a', 'b'] }, {}]) {
      assert.deepEqual(await returnFromBank(deps, 'tok', ATTEMPT, form), { redirect: '/checkout/tok/result' });
    }
    assert.equal(calls.length, 1);
  });

  it('When the acquirer sends the browser back by GET, then the session finishes the attempt as returned', async () => {
    const { deps, calls } = fakeDeps(() => ({ outcome: 'pending' }));
    assert.deepEqual(await returnByGet(deps, 'tok', ATTEMPT), { redirect: '/checkout/tok/result' });
    assert.deepEqual(calls[0]?.data['returned'], { kind: 'return' });
  });

  it('When the session refuses the finish (another link\'s attempt, none waiting), then the result page shows where things stand', async () => {
    const { deps } = fakeDeps(() => new AppError('not-found', 'No payment attempt with this id awaits 3-D Secure.'));
    assert.deepEqual(await returnFromBank(deps, 'tok', ATTEMPT, { cres: 'c' }), { redirect: '/checkout/tok/result' });
    assert.deepEqual(await returnByGet(deps, 'tok', ATTEMPT), { redirect: '/checkout/tok/result' });
    assert.deepEqual(await continueAfterMethod(deps, 'tok', ATTEMPT, { completed: 'true' }), { redirect: '/checkout/tok/result' });
  });

  it('When a buyer comes back to the old return address, then MD names the attempt as before; an MD that is no attempt id finishes nothing', async () => {
    const { deps, calls } = fakeDeps(() => ({ outcome: 'declined' }));
    await returnFromChallenge(deps, 'tok', { PaRes: 'p', MD: ATTEMPT });
    assert.deepEqual(calls, [{ type: 'attempt.finish_3ds', data: { ...LINK, attempt_id: ATTEMPT, returned: { kind: 'pa_res', pa_res: 'p' } } }]);
    assert.deepEqual(await returnFromChallenge(deps, 'tok', { PaRes: 'p', MD: 'pa_none' }), { redirect: '/checkout/tok/result' });
    assert.equal(calls.length, 1);
  });
});
