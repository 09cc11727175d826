/**
 * 3-D Secure on the hosted page (D30), in real headless Chromium against the
 * whole system and the sandbox acquirer: each D30 card (3-D Secure 2 with its
 * 3DS Method, frictionless or challenged; 3-D Secure 1; a refused
 * authentication) and D8's, every hand-off a form the browser POSTs, with
 * script and without it; the pages' policies; a cres replayed, a PaRes for
 * another attempt; and the smoke's HTTP walk. French and Arabic:
 * services/checkout/test/component/languages.test.ts. The acquirer finishing
 * the order itself, a quiet ACS and a 3DS Method that never loads:
 * three-d-secure-returns.test.ts.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page, Request, Response } from 'playwright-core';
import type { SessionDetail, SessionEventData } from '@gateway/contracts';
import { holdThreeDSMethod, launchBrowser, MerchantSite, payOnPage, repoRoot, sessionRequest, TestSystem, type EventCapture, type Merchant, type TestBrowser } from '@gateway/testkit';
import { payWith } from './browser.js';

const CARDS = { challenge: '4000000000003220', frictionless: '4000000000003238', legacy: '4000000000003063', refused: '4000000000003246' };

/** What the page asked the browser to send, kept for the assertions: every request of the page and its frames, and every answer. */
interface Traffic {
  requests: Request[];
  responses: Response[];
}

describe('Hosted checkout through 3-D Secure, in a browser (D30)', function () {
  this.timeout(90_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let shop: MerchantSite;
  let merchant: Merchant;
  let events: EventCapture;
  let sandboxOrigin: string;

  before(async () => {
    // Reconciliation (hourly here) must not end a challenge these tests leave open.
    system = await TestSystem.start({ serviceEnv: { 'acquirer-adapter': { SWEEP_INTERVAL_SECONDS: '3600' } } });
    [shop, browser, events] = await Promise.all([MerchantSite.start(), launchBrowser(), system.captureEvents(['session.*'])]);
    merchant = await system.newMerchant({ limits: { account: 1000 } });
    sandboxOrigin = new URL(system.envOf('checkout')['SANDBOX_PUBLIC_URL'] ?? '').origin;
  });

  after(async () => {
    await browser?.close();
    await shop?.close();
    await events?.stop();
    await system?.shutdown();
  });

  async function newSession(overrides: Record<string, unknown> = {}): Promise<SessionDetail> {
    const created = await system
      .api(merchant.testKey)
      .post<SessionDetail>('/gateway/sessions/', sessionRequest({ return_url: shop.url('/thanks'), cancel_url: shop.url('/cart'), locale: 'en', ...overrides }));
    assert.equal(created.status, 201, created.text);
    return created.body;
  }

  async function session(id: string): Promise<SessionDetail> {
    return (await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${id}/`)).body;
  }

  /** A page of its own context (script on unless told), its traffic recorded, at the session's checkout page. */
  async function openPage(created: SessionDetail, options: { javaScriptEnabled?: boolean } = {}): Promise<{ page: Page; traffic: Traffic }> {
    const page = await (await browser.newContext(options)).newPage();
    const traffic: Traffic = { requests: [], responses: [] };
    page.on('request', (request) => traffic.requests.push(request));
    page.on('response', (response) => traffic.responses.push(response));
    assert.equal((await page.goto(created.checkout_url ?? ''))?.status(), 200);
    return { page, traffic };
  }

  const posted = (traffic: Traffic, test: (request: Request) => boolean) => traffic.requests.filter((request) => request.method() === 'POST' && test(request));
  const formOf = (request: Request | undefined) => new URLSearchParams(request?.postData() ?? '');
  const ownPath = (request: Request, path: RegExp) => request.url().startsWith(system.baseUrl) && path.test(new URL(request.url()).pathname);

  /** Without script, the ACS hands the buyer back with a form its script would have pressed: the buyer presses Continue; then the page leaves for the shop. */
  async function handedBack(page: Page): Promise<void> {
    const handBack = page.getByRole('button', { name: 'Continue' });
    const atShop = page.waitForURL((url) => url.origin === shop.origin);
    if ((await Promise.race([handBack.waitFor().then(() => 'hand-back', () => 'none'), atShop.then(() => 'shop')])) === 'hand-back') await handBack.click();
    await atShop;
  }

  /** Nothing of 3-D Secure ever travelled in a URL: every hand-off was a POST. */
  function assertNothingInQueries(traffic: Traffic): void {
    for (const request of traffic.requests) assert.doesNotMatch(request.url(), /[?&](creq|PaReq|PaRes|cres|MD|TermUrl|threeDSMethodData)=/i, request.url());
  }

  it('when a buyer pays with 3220 and completes the challenge, then the 3DS Method runs in a hidden frame, the ACS gets the creq by POST, and the payment succeeds; replaying the cres pays nothing more', async () => {
    const created = await newSession();
    const { page, traffic } = await openPage(created);
    const release = await holdThreeDSMethod(page, sandboxOrigin);
    await payWith(page, { number: CARDS.challenge });
    // The card form's answer is the 3DS Method page, under D30's policy: our script, and the method URL's origin to frame and post to.
    await page.getByRole('heading', { name: 'Checking your card' }).waitFor();
    await page.getByText('We are checking your card with your bank. This takes a few seconds.').waitFor();
    assert.equal(await page.locator('#method-frame').isVisible(), false, 'the frame is hidden');
    release();
    await page.getByRole('heading', { name: '3-D Secure authentication' }).waitFor();
    const methodPage = traffic.responses.find((response) => response.request().method() === 'POST' && ownPath(response.request(), /\/pay$/));
    assert.equal(methodPage?.status(), 200);
    const methodPolicy = methodPage?.headers()['content-security-policy'] ?? '';
    assert.match(methodPolicy, new RegExp(`script-src 'self'; frame-src ${sandboxOrigin};`));
    assert.match(methodPolicy, new RegExp(`form-action 'self' ${sandboxOrigin};`));
    assert.match(methodPolicy, /frame-ancestors 'none'/);
    // The method data went to the issuer from the hidden frame's form, then the page went on: the frame had loaded.
    const method = posted(traffic, (request) => formOf(request).has('threeDSMethodData'));
    assert.equal(method.length, 1);
    assert.notEqual(method[0]?.frame(), page.mainFrame(), 'posted into the hidden frame');
    assert.equal(new URL(method[0]?.url() ?? '').origin, sandboxOrigin);
    const [goOn] = posted(traffic, (request) => ownPath(request, /\/3ds\/pa_[0-9A-Za-z]+\/method$/));
    assert.deepEqual(Object.fromEntries(formOf(goOn)), { completed: 'true', language: 'en' });
    assert.equal(await page.locator('dd.method').textContent(), 'ran');
    // Its answer hands the buyer to the ACS: the creq in a posted form, under D30's policy without a frame.
    const handOff = traffic.responses.find((response) => response.request() === goOn);
    const handOffPolicy = handOff?.headers()['content-security-policy'] ?? '';
    assert.match(handOffPolicy, new RegExp(`script-src 'self';`));
    assert.match(handOffPolicy, new RegExp(`form-action 'self' ${sandboxOrigin};`));
    assert.doesNotMatch(handOffPolicy, /frame-src/);
    const [toAcs] = posted(traffic, (request) => formOf(request).has('creq'));
    assert.equal(new URL(toAcs?.url() ?? '').origin, sandboxOrigin);

    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL((url) => url.origin === shop.origin);
    assert.equal(new URL(page.url()).searchParams.get('session_id'), created.id);
    const paid = await session(created.id);
    assert.deepEqual([paid.status, paid.attempts.length, paid.attempts[0]?.status], ['SUCCEEDED', 1, 'SUCCEEDED']);
    assertNothingInQueries(traffic);

    // The ACS posted cres to the attempt's own address; the same post again pays nothing more and shows the payment made.
    const [back] = posted(traffic, (request) => ownPath(request, new RegExp(`^/checkout/[^/]+/3ds/${paid.attempts[0]?.id}$`)));
    const cres = formOf(back).get('cres') ?? '';
    assert.ok(cres.length > 0, 'the ACS posted cres back');
    const replayed = await fetch(back!.url(), { method: 'POST', body: new URLSearchParams({ cres }), redirect: 'manual' });
    assert.equal(replayed.status, 200);
    assert.match(await replayed.text(), /<h1>Payment successful<\/h1>/);
    const after = await session(created.id);
    assert.deepEqual([after.status, after.attempts.length], ['SUCCEEDED', 1]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(events.of<SessionEventData>('session.succeeded', (e) => e.data.session.id === created.id).length, 1);
    await page.context().close();
  });

  it('when the buyer fails the 3220 challenge, then the attempt fails authentication_failed and the page takes another card', async () => {
    const created = await newSession();
    const { page } = await openPage(created);
    await payWith(page, { number: CARDS.challenge });
    await page.getByRole('button', { name: 'Fail authentication' }).click();
    await page.getByRole('alert').getByText('3-D Secure authentication failed.').waitFor();
    const pending = await session(created.id);
    assert.deepEqual([pending.status, pending.attempts[0]?.failure_code], ['PENDING', 'authentication_failed']);
    await payWith(page, { number: '4242 4242 4242 4242' });
    await page.waitForURL((url) => url.origin === shop.origin);
    assert.equal((await session(created.id)).status, 'SUCCEEDED');
    await page.context().close();
  });

  it('when a buyer pays with 3238, then the 3DS Method runs and the payment is approved without a challenge page', async () => {
    const created = await newSession();
    const { page, traffic } = await openPage(created);
    await payWith(page, { number: CARDS.frictionless });
    await page.waitForURL((url) => url.origin === shop.origin);
    assert.equal(posted(traffic, (request) => formOf(request).has('threeDSMethodData')).length, 1);
    assert.deepEqual(posted(traffic, (request) => formOf(request).has('creq') || formOf(request).has('PaReq')), [], 'never at the ACS');
    assert.ok(!traffic.responses.some((response) => response.url().startsWith(sandboxOrigin) && response.request().frame() === page.mainFrame()), 'no sandbox page shown');
    assert.equal((await session(created.id)).status, 'SUCCEEDED');
    assertNothingInQueries(traffic);
    await page.context().close();
  });

  it("when a buyer pays with 3063 (3-D Secure 1), then PaReq, MD and TermUrl are posted to the ACS, whose PaRes comes back to the attempt's address, and the payment succeeds", async () => {
    const created = await newSession();
    const { page, traffic } = await openPage(created);
    await payWith(page, { number: CARDS.legacy });
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL((url) => url.origin === shop.origin);
    const paid = await session(created.id);
    assert.equal(paid.status, 'SUCCEEDED');
    const attemptId = paid.attempts[0]?.id ?? '';
    const [toAcs] = posted(traffic, (request) => formOf(request).has('PaReq'));
    assert.equal(new URL(toAcs?.url() ?? '').origin, sandboxOrigin);
    assert.equal(formOf(toAcs).get('MD'), attemptId);
    assert.equal(formOf(toAcs).get('TermUrl'), `${created.checkout_url}/3ds/${attemptId}`);
    assert.equal(posted(traffic, (request) => formOf(request).has('threeDSMethodData')).length, 0, 'no 3DS Method in 3-D Secure 1');
    assert.ok(posted(traffic, (request) => request.url() === `${created.checkout_url}/3ds/${attemptId}` && formOf(request).has('PaRes')).length === 1);
    assertNothingInQueries(traffic);
    await page.context().close();
  });

  it('when a buyer pays with 3246, then the issuer refuses authentication: authentication_failed, no challenge page, and the page takes another card', async () => {
    const created = await newSession();
    const { page, traffic } = await openPage(created);
    await payWith(page, { number: CARDS.refused });
    await page.getByRole('alert').getByText('3-D Secure authentication failed.').waitFor();
    const declined = await session(created.id);
    assert.deepEqual([declined.status, declined.attempts[0]?.failure_code], ['PENDING', 'authentication_failed']);
    assert.deepEqual(posted(traffic, (request) => formOf(request).has('creq') || formOf(request).has('PaReq')), []);
    await page.context().close();
  });

  it("when D8's cards are paid in the browser, then each ends as D8 says", async () => {
    const expected: [string, string, string][] = [
      ['4242424242424242', 'SUCCEEDED', ''],
      ['5555555555554444', 'SUCCEEDED', ''],
      ['4000000000005126', 'SUCCEEDED', ''],
      ['4000000000000002', 'PENDING', 'card_declined'],
      ['4000000000009995', 'PENDING', 'insufficient_funds'],
      ['4000000000000069', 'PENDING', 'expired_card'],
      ['4000000000000127', 'PENDING', 'incorrect_cvc'],
      ['4000000000000119', 'PENDING', 'processing_error'],
    ];
    for (const [number, status, failureCode] of expected) {
      const created = await newSession();
      const { page } = await openPage(created);
      await payWith(page, { number });
      if (status === 'SUCCEEDED') await page.waitForURL((url) => url.origin === shop.origin);
      else await page.getByRole('alert').waitFor();
      const ended = await session(created.id);
      assert.deepEqual([ended.status, ended.attempts[0]?.failure_code], [status, failureCode], number);
      await page.context().close();
    }
  });

  for (const [card, label] of [
    [CARDS.challenge, '3220 (3-D Secure 2: the 3DS Method skipped, then the challenge)'],
    [CARDS.legacy, '3063 (3-D Secure 1)'],
  ] as const) {
    it(`when a browser without script pays with ${label}, then each hand-off waits for its visible Continue, and the payment succeeds`, async () => {
      const created = await newSession();
      const { page, traffic } = await openPage(created, { javaScriptEnabled: false });
      await payWith(page, { number: card });
      if (card === CARDS.challenge) {
        await page.getByRole('heading', { name: 'Checking your card' }).waitFor();
        await page.getByRole('button', { name: 'Continue' }).click();
      }
      await page.getByRole('heading', { name: 'Redirecting to your bank' }).waitFor();
      await page.getByText('If nothing happens, select Continue.').waitFor();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'Complete authentication' }).click();
      await handedBack(page);
      assert.equal((await session(created.id)).status, 'SUCCEEDED');
      if (card === CARDS.challenge) {
        // Without script the method form is never posted: the page went on with completed=false.
        assert.equal(posted(traffic, (request) => formOf(request).has('threeDSMethodData')).length, 0);
        const [goOn] = posted(traffic, (request) => ownPath(request, /\/method$/));
        assert.equal(formOf(goOn).get('completed'), 'false');
      }
      assertNothingInQueries(traffic);
      await page.context().close();
    });
  }

  it('when the bank posts an answer for another attempt to an attempt waiting at the ACS, then that attempt is not paid by it, and a page answers', async () => {
    // A: 3-D Secure 1 completed; its PaRes and MD are known.
    const first = await newSession();
    const a = await openPage(first);
    await payWith(a.page, { number: CARDS.legacy });
    await a.page.getByRole('button', { name: 'Complete authentication' }).click();
    await a.page.waitForURL((url) => url.origin === shop.origin);
    const [aBack] = posted(a.traffic, (request) => formOf(request).has('PaRes'));
    // B: waiting at the ACS.
    const second = await newSession();
    const b = await openPage(second);
    await payWith(b.page, { number: CARDS.legacy });
    await b.page.getByRole('heading', { name: '3-D Secure authentication' }).waitFor();
    const bAttempt = (await session(second.id)).attempts[0]?.id ?? '';

    const foreign = await fetch(`${second.checkout_url}/3ds/${bAttempt}`, { method: 'POST', body: formOf(aBack), redirect: 'manual' });
    assert.deepEqual([foreign.status, foreign.headers.get('location')], [303, `${new URL(second.checkout_url ?? '').pathname}/result`]);
    assert.equal((await session(second.id)).status, 'PROCESSING', 'still waiting for its own bank answer');
    // B's own answer still pays it, once.
    await b.page.getByRole('button', { name: 'Complete authentication' }).click();
    await b.page.waitForURL((url) => url.origin === shop.origin);
    assert.deepEqual([(await session(second.id)).status, (await session(first.id)).attempts.length], ['SUCCEEDED', 1]);
    await a.page.context().close();
    await b.page.context().close();
  });

  it("when make images' smoke walks 3220 over plain HTTP, then its posted forms pay it", async () => {
    const smoke = (await import(pathToFileURL(join(repoRoot, 'infra', 'images', 'smoke.mjs')).href)) as {
      walkThroughBank: (page: { status: number; html: string; location?: string }, checkoutUrl: string) => Promise<{ status: number; html: string }>;
    };
    const created = await newSession({ return_url: undefined, cancel_url: undefined });
    const answer = await payOnPage(created.checkout_url ?? '', { card_number: CARDS.challenge });
    assert.match(answer.html, /Checking your card/);
    const end = await smoke.walkThroughBank(answer, created.checkout_url ?? '');
    assert.equal(end.status, 200);
    assert.match(end.html, /<h1 class="outcome outcome-succeeded">Payment successful<\/h1>/);
    assert.equal((await session(created.id)).status, 'SUCCEEDED');
  });
});
