/**
 * Handing the buyer to the issuer (D30): which URLs the acquirer may have a
 * browser post to, what the page answers a step with, and each page's policy.
 */
import assert from 'node:assert/strict';
import type { CheckoutStep, CheckoutView } from '@gateway/contracts';
import type { Logger } from '@gateway/observability';
import { formTarget } from '../../src/domain/bank-forms.js';
import type { CheckoutPage } from '../../src/domain/page-answers.js';
import { afterPaymentStep, type FlowDeps, type StepContext } from '../../src/domain/payment-steps.js';
import { pageHeaders, SECURITY_HEADERS } from '../../src/http/page-headers.js';

const SANDBOX = 'http://127.0.0.1:8086';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Logger;

function view(livemode: boolean): CheckoutView {
  return { session_id: 'ps_1', status: 'PROCESSING', livemode, locale: 'en' } as CheckoutView;
}

/** The deps a hand-off reads: the sandbox's URL, the wait, and checkout.view (counted) answering a session of `livemode`. */
function depsFor(livemode: boolean, logged: string[] = []): { deps: FlowDeps; views: () => number } {
  let views = 0;
  const call = async (type: string) => {
    assert.equal(type, 'checkout.view');
    views += 1;
    return view(livemode);
  };
  const log = { ...silent, error: (_fields: unknown, message: string) => logged.push(message) } as unknown as Logger;
  const deps = { sandboxPublicUrl: SANDBOX, threeDSMethodWaitMs: 10_000, call, log } as unknown as FlowDeps;
  return { deps, views: () => views };
}

const context: StepContext = { link: { session_id: 'ps_1', link_id: 'cl_1' }, token: 'tok', attemptId: 'pa_1', language: 'fr', acceptLanguage: undefined };

describe('handing the buyer to the bank', () => {
  describe('the URLs a form may go to', () => {
    it('When the URL is https:, then its origin, for live and test sessions alike', () => {
      assert.deepEqual(formTarget('https://acs.bank.example:8443/challenge?x=1#f', SANDBOX), { origin: 'https://acs.bank.example:8443', testModeOnly: false });
      assert.deepEqual(formTarget('HTTPS://ACS.Bank.Example/c', SANDBOX), { origin: 'https://acs.bank.example', testModeOnly: false });
    });

    it("When the URL is the sandbox's plain http: origin, then it is allowed for test sessions only", () => {
      assert.deepEqual(formTarget(`${SANDBOX}/acs/method`, SANDBOX), { origin: SANDBOX, testModeOnly: true });
      assert.deepEqual(formTarget(`${SANDBOX}/acs`, `${SANDBOX}/`), { origin: SANDBOX, testModeOnly: true });
    });

    it('When the URL is http: elsewhere, javascript:, data:, relative, carries credentials or names a host no policy can, then it is refused', () => {
      const refused = [
        'http://acs.bank.example/challenge',
        'http://127.0.0.1:8087/acs',
        'javascript:alert(document.domain)',
        'JaVaScRiPt:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        'blob:https://acs.example/1',
        '/checkout/elsewhere',
        '//acs.example/c',
        'https://user:secret@acs.example/c',
        'https://acs;script-src *.example/c',
        'ftp://acs.example/c',
        '',
      ];
      for (const url of refused) assert.equal(formTarget(url, SANDBOX), undefined, url);
    });
  });

  describe('the answer to a step', () => {
    const challenge: CheckoutStep = { outcome: 'challenge', challenge: { url: 'https://acs.example/c', fields: { creq: 'c' } } };
    const method: CheckoutStep = { outcome: 'method', method: { url: `${SANDBOX}/acs/method`, fields: { threeDSMethodData: 'd' } } };

    it('When the step is a challenge to an https: ACS, then the hand-off page with its origin, without a look at the session', async () => {
      const { deps, views } = depsFor(true);
      assert.deepEqual(await afterPaymentStep(deps, context, challenge), { page: 'bank', language: 'fr', form: challenge.challenge, origin: 'https:' });
      assert.equal(views(), 0);
    });

    it("When the step is a 3DS Method at the sandbox for a test session, then the method page posting on to the attempt's method address, after the configured wait", async () => {
      const { deps, views } = depsFor(false);
      const answer = await afterPaymentStep(deps, context, method);
      assert.deepEqual(answer, { page: 'method', language: 'fr', form: method.method, origin: SANDBOX, continueUrl: '/checkout/tok/3ds/pa_1/method', waitMs: 10_000 });
      assert.equal(views(), 1);
    });

    it("When a live session's step names the sandbox's http: origin, or any step a javascript: URL, then the refused page, logged, and no form", async () => {
      const logged: string[] = [];
      const { deps } = depsFor(true, logged);
      assert.deepEqual(await afterPaymentStep(deps, context, method), { page: 'bank-refused', language: 'fr' });
      const hostile: CheckoutStep = { outcome: 'challenge', challenge: { url: 'javascript:alert(1)', fields: {} } };
      assert.deepEqual(await afterPaymentStep(depsFor(false, logged).deps, context, hostile), { page: 'bank-refused', language: 'fr' });
      assert.equal(logged.length, 2);
    });

    it('When the step is an outcome or pending, then the result page, as before', async () => {
      const { deps } = depsFor(false);
      for (const step of [{ outcome: 'pending' }, { outcome: 'declined' }, { outcome: 'challenge' }] as CheckoutStep[]) {
        assert.deepEqual(await afterPaymentStep(deps, context, step), { redirect: '/checkout/tok/result' });
      }
    });
  });

  describe("each page's policy", () => {
    const d9 = SECURITY_HEADERS['Content-Security-Policy'];

    it("When the page is the ACS hand-off, then the form may post to the ACS's origin and our script run; nothing else changes", () => {
      const page: CheckoutPage = { page: 'bank', language: 'en', form: { url: 'https://acs.example/c', fields: {} }, origin: 'https://acs.example' };
      const headers = pageHeaders(page);
      assert.equal(headers?.['Content-Security-Policy'], "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self' https://acs.example; frame-ancestors 'none'; base-uri 'none'");
      assert.deepEqual({ ...headers, 'Content-Security-Policy': d9 }, SECURITY_HEADERS);
    });

    it("When the page is the 3DS Method, then it may also frame the method URL's origin", () => {
      const page: CheckoutPage = { page: 'method', language: 'en', form: { url: `${SANDBOX}/m`, fields: {} }, origin: SANDBOX, continueUrl: '/c', waitMs: 10_000 };
      assert.equal(
        pageHeaders(page)?.['Content-Security-Policy'],
        `default-src 'none'; script-src 'self'; frame-src ${SANDBOX}; style-src 'self'; img-src 'self'; form-action 'self' ${SANDBOX}; frame-ancestors 'none'; base-uri 'none'`,
      );
    });

    it("When the page is any other, then D9's headers as they were", () => {
      assert.equal(d9, "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
      for (const page of [{ page: 'bank-refused', language: 'en' }, { page: 'checkout-link-expired', language: 'en', reason: 'expired' }] as CheckoutPage[]) {
        assert.equal(pageHeaders(page), undefined);
      }
    });

    it('When an origin would change the policy, then the headers are refused rather than written', () => {
      const page: CheckoutPage = { page: 'bank', language: 'en', form: { url: 'x', fields: {} }, origin: "https://a.example; script-src 'unsafe-inline'" };
      assert.throws(() => pageHeaders(page), RangeError);
    });
  });
});
