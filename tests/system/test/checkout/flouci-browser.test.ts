/**
 * Paying with Flouci (D26) in real headless Chromium against the whole
 * system: the button in each of the page's languages, the sandbox's Flouci
 * page and the way back to the shop; a decline followed by a card; a buyer
 * who never completes; and what the merchant does with a Flouci payment
 * afterwards: refunds (whole ones automated, partial ones to the manual
 * queue), capture later and release of the hold (D22). Short settings: a
 * buyer has 6 s on Flouci's page, and the adapter's sweep looks every second.
 */
import assert from 'node:assert/strict';
import type { Refund, RefundResult, SessionDetail } from '@gateway/contracts';
import { launchBrowser, MerchantSite, TestSystem, type TestBrowser } from '@gateway/testkit';
import { payWith } from './browser.js';
import { attemptsOf, DECLINED_PHONE, FlouciBrowserSteps, NEVER_COMPLETING_PHONE, type PageLanguage } from './flouci-browser-steps.js';

/** The decline texts the page shows after a Flouci failure (the card-errors catalogue). */
const WALLET_DECLINED = 'The Flouci payment was declined; nothing was charged. You can try again by card or with Flouci.';
const WALLET_EXPIRED = 'The Flouci payment was not completed in time; nothing was charged. You can try again by card or with Flouci.';

describe('Paying with Flouci, in a browser (D26)', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let shop: MerchantSite;
  let steps: FlouciBrowserSteps;

  before(async () => {
    [system, shop, browser] = await Promise.all([
      TestSystem.start({
        serviceEnv: { 'acquirer-adapter': { SWEEP_INTERVAL_SECONDS: '1', RECONCILE_AFTER_SECONDS: '16', WALLET_TIMEOUT_SECONDS: '6', RECONCILE_MAX_DELAY_SECONDS: '2' } },
      }),
      MerchantSite.start(),
      launchBrowser(),
    ]);
    steps = new FlouciBrowserSteps(system, browser, shop);
  });

  after(async () => {
    await browser?.close();
    await shop?.close();
    await system?.shutdown();
  });

  for (const language of ['en', 'fr', 'ar'] as const satisfies readonly PageLanguage[]) {
    it(`when a buyer presses the Flouci button of a page in ${language} and confirms with their phone, then they are back at the shop and the session succeeded with one flouci attempt`, async () => {
      const { merchant, session } = await steps.newSession({ locale: language, amount: '48.250' });
      const back = await steps.payWithFlouci(session, language);
      assert.deepEqual([back.pathname, back.searchParams.get('session_id')], ['/thanks', session.id]);
      const paid = await steps.session(merchant, session.id);
      assert.equal(paid.status, 'SUCCEEDED');
      assert.deepEqual(
        paid.attempts.map((a) => [a.payment_method_type, a.status, a.card_brand, a.card_last_four]),
        [['flouci', 'SUCCEEDED', 'flouci', '']],
      );
    });
  }

  it('when Flouci declines the buyer, then the page says so and offers the card form and Flouci again, and the card pays', async () => {
    const { merchant, session } = await steps.newSession();
    const page = await steps.open(session);
    await steps.toFlouci(page);
    await steps.confirmAtFlouci(page, DECLINED_PHONE);
    await page.waitForURL((url) => url.href.startsWith(session.checkout_url ?? ''));
    await page.getByText(WALLET_DECLINED).waitFor();
    await page.getByRole('button', { name: 'Pay with Flouci', exact: true }).waitFor();
    assert.deepEqual(attemptsOf(await steps.session(merchant, session.id)), [['flouci', 'FAILED', 'flouci', 'wallet_declined']]);
    await payWith(page, { number: '4242 4242 4242 4242' });
    await page.waitForURL((url) => url.origin === shop.origin);
    await page.close();
    const paid = await steps.session(merchant, session.id);
    assert.equal(paid.status, 'SUCCEEDED');
    assert.deepEqual(attemptsOf(paid), [
      ['flouci', 'FAILED', 'flouci', 'wallet_declined'],
      ['card', 'SUCCEEDED', 'visa', ''],
    ]);
  });

  it('when the buyer never completes at Flouci, then the page shows the payment processing, and the attempt ends wallet_expired with the session payable again', async () => {
    const { merchant, session } = await steps.newSession();
    const page = await steps.open(session);
    await steps.toFlouci(page);
    await steps.confirmAtFlouci(page, NEVER_COMPLETING_PHONE);
    await page.getByRole('heading', { name: 'Payment processing' }).waitFor();
    assert.equal((await steps.session(merchant, session.id)).status, 'PROCESSING');
    const ended = await steps.sessionWhen(merchant, session.id, (read) => read.status !== 'PROCESSING', 'the Flouci attempt to end', 40_000);
    assert.equal(ended.status, 'PENDING');
    assert.deepEqual(attemptsOf(ended), [['flouci', 'FAILED', 'flouci', 'wallet_expired']]);
    // The processing page checks again by itself, and then offers both ways to pay again.
    await page.getByText(WALLET_EXPIRED).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Pay with Flouci', exact: true }).waitFor();
    await page.getByLabel('Card number').waitFor();
    await page.close();
  });

  describe('refunds of a Flouci payment (D26)', () => {
    const refund = (merchant: { testKey: string }, session: SessionDetail, body: Record<string, unknown>) =>
      system.api(merchant.testKey).post<RefundResult>(`/gateway/sessions/${session.id}/refund/`, body, { 'idempotency-key': `refund-${session.id}` });
    const read = async (merchant: { testKey: string }, refundId: string) => {
      const got = await system.api(merchant.testKey).get<Refund>(`/gateway/refunds/${refundId}/`);
      assert.equal(got.status, 200, got.text);
      return got.body;
    };

    it("when the merchant refunds a Flouci payment whole, then Flouci's refund makes it at once (automated_refund: true, succeeded)", async () => {
      const { merchant, session } = await steps.paidWithFlouci({ amount: '60.500' });
      assert.equal(session.status, 'SUCCEEDED');
      const answered = await refund(merchant, session, { reason: 'Returned by the buyer' });
      assert.equal(answered.status, 200, answered.text);
      assert.deepEqual([answered.body.refunded_amount, answered.body.automated_refund, answered.body.epg_error_message], ['60.500', true, undefined]);
      const stored = await read(merchant, answered.body.refund_id);
      assert.deepEqual([stored.session_id, stored.amount, stored.status, stored.automated_refund], [session.id, '60.500', 'succeeded', true]);
      assert.equal((await steps.session(merchant, session.id)).amount_refunded, '60.500');
    });

    it('when the merchant refunds part of a Flouci payment, then it goes to the manual queue (automated_refund: false, pending, with a message)', async () => {
      const { merchant, session } = await steps.paidWithFlouci({ amount: '60.500' });
      const answered = await refund(merchant, session, { reason: 'One item returned', refund_type: 'PARTIAL', amount: '20.000' });
      assert.equal(answered.status, 200, answered.text);
      assert.deepEqual([answered.body.refunded_amount, answered.body.automated_refund], ['20.000', false]);
      assert.ok(answered.body.epg_error_message, 'a refund left to operations says why');
      const stored = await read(merchant, answered.body.refund_id);
      assert.deepEqual([stored.amount, stored.status, stored.automated_refund, stored.resolved_at], ['20.000', 'pending', false, null]);
      assert.equal((await steps.session(merchant, session.id)).amount_refunded, '20.000');
    });
  });

  describe('capture later with Flouci (D22)', () => {
    const post = (merchant: { testKey: string }, session: SessionDetail, action: 'capture' | 'cancel') =>
      system.api(merchant.testKey).post<SessionDetail>(`/gateway/sessions/${session.id}/${action}/`, undefined, action === 'capture' ? { 'idempotency-key': `capture-${session.id}` } : {});

    it('when a manual session is paid with Flouci, then it is AUTHORIZED, and the capture makes it SUCCEEDED', async () => {
      const { merchant, session } = await steps.paidWithFlouci({ amount: '75.000', capture_method: 'manual' });
      assert.deepEqual([session.status, session.capture_method, session.amount_authorized, session.amount_captured], ['AUTHORIZED', 'manual', '75.000', '']);
      assert.deepEqual(attemptsOf(session), [['flouci', 'SUCCEEDED', 'flouci', '']]);
      assert.equal(await steps.holdOf(session.attempts[0]?.id ?? ''), 'HELD');
      const captured = await post(merchant, session, 'capture');
      assert.equal(captured.status, 200, captured.text);
      assert.deepEqual([captured.body.status, captured.body.amount_captured], ['SUCCEEDED', '75.000']);
      assert.equal((await steps.session(merchant, session.id)).status, 'SUCCEEDED');
      assert.equal(await steps.holdOf(session.attempts[0]?.id ?? ''), 'CAPTURED');
    });

    it('when a manual session paid with Flouci is canceled, then it is CANCELED and its hold at Flouci is released', async () => {
      const { merchant, session } = await steps.paidWithFlouci({ amount: '75.000', capture_method: 'manual' });
      assert.equal(session.status, 'AUTHORIZED');
      const attemptId = session.attempts[0]?.id ?? '';
      const canceled = await post(merchant, session, 'cancel');
      assert.equal(canceled.status, 200, canceled.text);
      assert.equal(canceled.body.status, 'CANCELED');
      const read = await steps.session(merchant, session.id);
      assert.deepEqual([read.status, read.amount_captured], ['CANCELED', '']);
      // The release may still be under way at Flouci when the cancel answers (VOIDING); it ends VOIDED.
      await steps.holdBecomes(attemptId, 'VOIDED');
    });
  });
});
