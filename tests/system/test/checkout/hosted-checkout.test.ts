/**
 * The hosted page end to end, in real headless Chromium against the whole
 * system (every service a real process, real PostgreSQL and RabbitMQ, the
 * sandbox acquirer): paying, declines, 3-D Secure, cancel, concurrent
 * buyers, the page's headers, and that card numbers never leak.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Big } from 'big.js';
import type { Page } from 'playwright-core';
import type { SessionDetail, SessionEventData } from '@gateway/contracts';
import { TEST_CARDS } from '@gateway/test-cards';
import { BrokerTrace, changesCounted, commandsHandled, eventsTaken, launchBrowser, MerchantSite, payOnPage, pollUntil, sessionRequest, TestSystem, type EventCapture, type Merchant, type TestBrowser } from '@gateway/testkit';
import { payWith } from './browser.js';

describe('Hosted checkout, in a browser', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let shop: MerchantSite;
  let events: EventCapture;
  let trace: BrokerTrace;

  before(async () => {
    trace = await BrokerTrace.start();
    // Reconciliation (hourly here) must not resolve the unanswered payment these tests leave PROCESSING.
    system = await TestSystem.start({ serviceEnv: { 'acquirer-adapter': { SWEEP_INTERVAL_SECONDS: '3600' } } });
    [shop, browser, events] = await Promise.all([MerchantSite.start(), launchBrowser(), system.captureEvents(['session.*', 'payment.*'])]);
  });

  after(async () => {
    await browser?.close();
    await shop?.close();
    await events?.stop();
    await trace?.stop();
    await system?.shutdown();
  });

  async function newSession(merchant: Merchant, overrides: Record<string, unknown> = {}): Promise<SessionDetail> {
    const created = await system.api(merchant.testKey).post<SessionDetail>(
      '/gateway/sessions/',
      // These tests read the English page; the other languages have their own tests (languages.test.ts).
      sessionRequest({ return_url: shop.url('/thanks?order=42'), cancel_url: shop.url('/cart'), description: 'Two books', locale: 'en', ...overrides }),
    );
    assert.equal(created.status, 201);
    return created.body;
  }

  async function session(merchant: Merchant, id: string): Promise<SessionDetail> {
    const read = await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${id}/`);
    assert.equal(read.status, 200);
    return read.body;
  }

  async function openPage(url: string): Promise<Page> {
    const page = await browser.newPage();
    const response = await page.goto(url);
    assert.equal(response?.status(), 200);
    return page;
  }

  it('when a buyer pays with 4242, then they land on return_url with session_id, and the session is SUCCEEDED with one attempt and announced', async () => {
    const merchant = await system.newMerchant();
    const created = await newSession(merchant);
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(created.checkout_url ?? '');
    await assert.doesNotReject(page.getByText('TND\u00a0125.500').first().waitFor());
    await payWith(page, { number: '4242 4242 4242 4242' });
    await page.waitForURL((url) => url.origin === shop.origin);

    const landed = new URL(page.url());
    assert.equal(landed.pathname, '/thanks');
    assert.equal(landed.searchParams.get('order'), '42');
    assert.equal(landed.searchParams.get('session_id'), created.id);
    // Nothing but our own origin, then the merchant's: no third-party resource.
    assert.deepEqual(
      requested.filter((url) => !url.startsWith(system.baseUrl) && !url.startsWith(shop.origin)),
      [],
    );

    const paid = await session(merchant, created.id);
    assert.equal(paid.status, 'SUCCEEDED');
    assert.notEqual(paid.completed_at, null);
    assert.equal(paid.attempts.length, 1);
    const [attempt] = paid.attempts;
    assert.equal(attempt?.status, 'SUCCEEDED');
    assert.equal(attempt?.card_brand, 'visa');
    assert.equal(attempt?.card_last_four, '4242');
    assert.equal(attempt?.failure_code, '');
    assert.equal(new Big(attempt?.fee_amount ?? 'x').plus(attempt?.net_amount ?? 'x').toFixed(3), paid.amount);
    assert.ok(new Big(attempt?.fee_amount ?? '0').gt(0), 'the default pricing takes a fee');

    const [succeeded] = await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === created.id);
    const payload = succeeded?.data.session;
    assert.equal(payload?.status, 'SUCCEEDED');
    assert.ok(payload?.paid_at);
    assert.deepEqual(payload?.payment, {
      method: 'card',
      card_brand: 'visa',
      card_last_four: '4242',
      card_country: '',
      fee_amount: attempt?.fee_amount,
      net_amount: attempt?.net_amount,
    });
    // Recorded from the adapter's answer and from its event: announced once all the same.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(events.of<SessionEventData>('session.succeeded', (e) => e.data.session.id === created.id).length, 1);
    await page.close();
  });

  it('when a card is declined, then the same page says so and takes another card, which pays', async () => {
    const merchant = await system.newMerchant();
    const created = await newSession(merchant);
    const page = await openPage(created.checkout_url ?? '');
    await payWith(page, { number: '4000000000000002' });
    await page.getByRole('alert').getByText('The card was declined.').waitFor();
    assert.equal((await session(merchant, created.id)).status, 'PENDING');

    await payWith(page, { number: '5555555555554444' });
    await page.waitForURL((url) => url.origin === shop.origin);
    const paid = await session(merchant, created.id);
    assert.equal(paid.status, 'SUCCEEDED');
    assert.deepEqual(
      paid.attempts.map((a) => [a.attempt_number, a.status, a.failure_code, a.card_brand, a.card_last_four]),
      [
        [1, 'FAILED', 'card_declined', 'visa', '0002'],
        [2, 'SUCCEEDED', '', 'mastercard', '4444'],
      ],
    );
    const [failed] = await events.waitFor<SessionEventData>('session.failed', (e) => e.data.session.id === created.id);
    assert.equal(failed?.data.session.can_retry, true);
    assert.equal(failed?.data.session.last_failure_code, 'card_declined');
    assert.equal(failed?.data.session.attempts_count, 1);
    await page.close();
  });

  it('when max_attempts cards are declined, then the session is FAILED, can_retry is false, and the buyer goes to cancel_url', async () => {
    const merchant = await system.newMerchant();
    const created = await newSession(merchant, { max_attempts: 2 });
    const page = await openPage(created.checkout_url ?? '');
    await payWith(page, { number: '4000000000009995' });
    await page.getByRole('alert').getByText('insufficient funds').waitFor();
    await payWith(page, { number: '4000000000000069' });
    await page.waitForURL((url) => url.origin === shop.origin);
    const landed = new URL(page.url());
    assert.equal(landed.pathname, '/cart');
    assert.equal(landed.searchParams.get('session_id'), created.id);

    const failed = await session(merchant, created.id);
    assert.equal(failed.status, 'FAILED');
    assert.deepEqual(
      failed.attempts.map((a) => a.failure_code),
      ['insufficient_funds', 'expired_card'],
    );
    const announced = await events.waitFor<SessionEventData>('session.failed', (e) => e.data.session.id === created.id, 2);
    assert.deepEqual(
      announced.map((e) => [e.data.session.attempts_count, e.data.session.can_retry, e.data.session.status]),
      [
        [1, true, 'PENDING'],
        [2, false, 'FAILED'],
      ],
    );
    await page.close();
  });

  it('when the buyer completes 3-D Secure, then the payment succeeds', async () => {
    const merchant = await system.newMerchant();
    const created = await newSession(merchant);
    const page = await openPage(created.checkout_url ?? '');
    await payWith(page, { number: '4000000000003220' });
    await page.getByRole('heading', { name: /3-D Secure/ }).waitFor();
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL((url) => url.origin === shop.origin);
    assert.equal(new URL(page.url()).searchParams.get('session_id'), created.id);
    const paid = await session(merchant, created.id);
    assert.equal(paid.status, 'SUCCEEDED');
    assert.equal(paid.attempts[0]?.status, 'SUCCEEDED');
    await page.close();
  });

  it('when the buyer of a manual session completes 3-D Secure, then the amount is held: the buyer is back at the shop and the session is AUTHORIZED, not captured (D22)', async () => {
    const merchant = await system.newMerchant();
    const created = await newSession(merchant, { capture_method: 'manual' });
    const page = await openPage(created.checkout_url ?? '');
    await payWith(page, { number: '4000000000003220' });
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL((url) => url.origin === shop.origin);
    const held = await session(merchant, created.id);
    assert.deepEqual([held.status, held.amount_authorized, held.amount_captured], ['AUTHORIZED', created.amount, '']);
    // The link now shows the payment as made, as for a paid session.
    const again = await page.goto(created.checkout_url ?? '');
    assert.equal(again?.status(), 410);
    await page.close();
  });

  it('when the buyer fails 3-D Secure, then the attempt fails authentication_failed and the page takes another card', async () => {
    const merchant = await system.newMerchant();
    const created = await newSession(merchant);
    const page = await openPage(created.checkout_url ?? '');
    await payWith(page, { number: '4000000000003220' });
    await page.getByRole('button', { name: 'Fail authentication' }).click();
    await page.getByRole('alert').getByText('3-D Secure authentication failed.').waitFor();
    const pending = await session(merchant, created.id);
    assert.equal(pending.status, 'PENDING');
    assert.equal(pending.attempts[0]?.failure_code, 'authentication_failed');
    await page.close();
  });

  it('when the buyer cancels, then the session is CANCELED, announced, and the buyer lands on cancel_url with session_id', async () => {
    const merchant = await system.newMerchant();
    const created = await newSession(merchant);
    const page = await openPage(created.checkout_url ?? '');
    await page.getByRole('link', { name: 'Cancel payment' }).click();
    await page.waitForURL((url) => url.origin === shop.origin);
    const landed = new URL(page.url());
    assert.equal(landed.pathname, '/cart');
    assert.equal(landed.searchParams.get('session_id'), created.id);
    assert.equal((await session(merchant, created.id)).status, 'CANCELED');
    await events.waitFor<SessionEventData>('session.canceled', (e) => e.data.session.id === created.id);

    // The link of a closed session shows the expired page.
    const again = await page.goto(created.checkout_url ?? '');
    assert.equal(again?.status(), 410);
    await page.getByRole('heading', { name: 'This payment link has expired' }).waitFor();
    await page.close();
  });

  it('when a link is forged or unknown, then the page says it has expired, with 410 and no detail', async () => {
    const merchant = await system.newMerchant();
    const created = await newSession(merchant);
    const token = (created.checkout_url ?? '').split('/checkout/')[1] ?? '';
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(86)}`;
    for (const url of [`${system.baseUrl}/checkout/${forged}`, `${system.baseUrl}/checkout/not-a-link`]) {
      const page = await browser.newPage();
      const response = await page.goto(url);
      assert.equal(response?.status(), 410);
      await page.getByRole('heading', { name: 'This payment link has expired' }).waitFor();
      assert.doesNotMatch(await page.content(), /ps_|Error:|at /);
      await page.close();
    }
  });

  it('when a card pays, then the pay answer itself leaves for return_url without another look at the session; a decline goes to the result page by 303', async () => {
    const merchant = await system.newMerchant();
    const sessionPort = system.ports.get('session') ?? 0;
    const pay = async (checkoutUrl: string, card: string) =>
      fetch(`${checkoutUrl}/pay`, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams({ card_number: card, expiry: '12/34', cvc: '123', cardholder_name: 'Amina Ben Salah' }),
      });

    const paying = await newSession(merchant);
    const viewsBefore = await commandsHandled(sessionPort, 'checkout.view');
    const recordedBefore = await eventsTaken(sessionPort, 'payment.approved', 'handled');
    const repliedBefore = await changesCounted(sessionPort, 'payment-outcome', 'reply', 'applied');
    const unchangedBefore = await changesCounted(sessionPort, 'payment-outcome', 'event', 'unchanged');
    const paid = await pay(paying.checkout_url ?? '', '4242424242424242');
    assert.equal(paid.status, 200);
    const html = await paid.text();
    assert.match(html, /Payment successful/);
    const target = new URL(shop.url('/thanks?order=42'));
    target.searchParams.set('session_id', paying.id);
    assert.ok(html.includes(target.toString().replaceAll('&', '&amp;')), 'the page leaves for return_url with session_id');
    assert.equal(await commandsHandled(sessionPort, 'checkout.view'), viewsBefore);
    assert.equal((await session(merchant, paying.id)).status, 'SUCCEEDED');
    // The session applied the outcome from the adapter's answer: its payment.approved then finds it applied and changes nothing.
    assert.equal(await changesCounted(sessionPort, 'payment-outcome', 'reply', 'applied'), repliedBefore + 1);
    await pollUntil(async () => (await changesCounted(sessionPort, 'payment-outcome', 'event', 'unchanged')) > unchangedBefore, 5_000, 'payment.approved taken');
    assert.equal(await eventsTaken(sessionPort, 'payment.approved', 'handled'), recordedBefore);

    // A refresh re-posts the form: the closed session takes nothing more.
    const again = await pay(paying.checkout_url ?? '', '4242424242424242');
    assert.equal(again.status, 303);
    assert.equal((await session(merchant, paying.id)).attempts.length, 1);

    // Declined with attempts left, the card form comes back through a GET, so a refresh never sends the card again.
    const declining = await newSession(merchant);
    const declined = await pay(declining.checkout_url ?? '', '4000000000000002');
    assert.equal(declined.status, 303);
    assert.equal(declined.headers.get('location'), `${new URL(declining.checkout_url ?? '').pathname}/result`);
    assert.equal((await session(merchant, declining.id)).status, 'PENDING');
  });

  it('when the card form is wrong, then the page names each field with 422, and nothing is started or sent to the acquirer', async () => {
    const merchant = await system.newMerchant();
    const created = await newSession(merchant);
    const answer = await payOnPage(created.checkout_url ?? '', { card_number: '4242 4242 4242 4241', expiry: '01/20', cvc: '12' });
    assert.equal(answer.status, 422);
    for (const message of ['Enter a valid card number.', 'This card has expired.', 'Enter the 3 or 4 digit security code.']) assert.match(answer.html, new RegExp(message));
    assert.doesNotMatch(answer.html, /4242 4242 4242 4241|4242424242424241/);
    const unchanged = await session(merchant, created.id);
    assert.equal(unchanged.status, 'CREATED');
    assert.deepEqual(unchanged.attempts, []);
    assert.deepEqual(await system.db.query('SELECT 1 FROM acquirer.orders WHERE session_id = $1', [created.id]), []);
  });

  it("when the page is served, then it carries D9's security headers and posts only to its own origin", async () => {
    const merchant = await system.newMerchant();
    const created = await newSession(merchant);
    const response = await fetch(created.checkout_url ?? '');
    assert.equal(response.status, 200);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /form-action 'self'/);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /https?:/, 'no third-party source');
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    const html = await response.text();
    assert.match(html, /<form[^>]+method="post"[^>]+action="\/checkout\/[^"]+\/pay"/);
    assert.doesNotMatch(html, /<script/);
    assert.match(html, /Test mode/);
  });

  it('when a form body is too large, has too many fields or another charset, or a path is unknown, then a page (400, 404) with the security headers, and nothing starts', async () => {
    const merchant = await system.newMerchant();
    const created = await newSession(merchant);
    const url = created.checkout_url ?? '';
    const bodies: [string, string][] = [
      [`card_number=${'4'.repeat(9_000)}`, 'application/x-www-form-urlencoded'],
      [Array.from({ length: 25 }, (_, i) => `f${i}=x`).join('&'), 'application/x-www-form-urlencoded'],
      ['card_number=4242424242424242', 'application/x-www-form-urlencoded; charset=iso-8859-1'],
    ];
    for (const [body, type] of bodies) {
      const refused = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual', headers: { 'content-type': type }, body });
      assert.equal(refused.status, 400, type);
      assert.equal(refused.headers.get('x-frame-options'), 'DENY');
      assert.match(refused.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      assert.doesNotMatch(await refused.text(), /Error:|at |4242/);
    }
    // The bank's answer may be tens of KiB (a signed PaRes): taken, and with an attempt this link never made, it only shows the result.
    const bankAnswer = new URLSearchParams({ PaRes: 'p'.repeat(40_000), MD: 'pa_none' }).toString();
    const back = await fetch(`${url}/3ds`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: bankAnswer });
    assert.deepEqual([back.status, back.headers.get('location')], [303, `/checkout/${url.split('/checkout/')[1]}/result`]);
    for (const path of [`${url}/nowhere`, `${url}/pay/more`, `${new URL(url).origin}/checkout/`]) {
      const missing = await fetch(path, { redirect: 'manual' });
      assert.equal(missing.status, 404, path);
      assert.equal(missing.headers.get('cache-control'), 'no-store');
      await missing.arrayBuffer();
    }
    const unchanged = await session(merchant, created.id);
    assert.equal(unchanged.status, 'CREATED');
    assert.deepEqual(unchanged.attempts, []);
    // Counted under their route patterns, never their paths (which hold the token).
    const metrics = await (await fetch(`http://127.0.0.1:${system.ports.get('checkout') ?? 0}/metrics`)).text();
    assert.match(metrics, /gateway_http_requests_total\{[^}]*route="\/checkout\/:token\/pay"[^}]*status="400"/);
    assert.ok(!metrics.includes(url.split('/checkout/')[1] ?? 'x'), 'no token in a label');
  });

  it('when two buyers pay one session at once, then one attempt runs and the other is refused; an unanswered acquirer leaves it PROCESSING, charged once', async () => {
    const merchant = await system.newMerchant({ limits: { account: 1000 } });
    const created = await newSession(merchant);
    const [first, second] = await Promise.all([openPage(created.checkout_url ?? ''), openPage(created.checkout_url ?? '')]);
    // The first card's acquirer keeps silent past the adapter's deadline.
    const slow = payWith(first!, { number: '4000000000000036' });
    await waitForStatus(merchant, created.id, 'PROCESSING');
    await payWith(second!, { number: '4242424242424242' });
    await second!.getByRole('heading', { name: 'Payment processing' }).waitFor();
    await slow;
    await first!.getByRole('heading', { name: 'Payment processing' }).waitFor();

    const stuck = await session(merchant, created.id);
    assert.equal(stuck.status, 'PROCESSING');
    assert.equal(stuck.attempts.length, 1);
    assert.equal(stuck.attempts[0]?.status, 'PROCESSING');
    // The merchant cannot cancel it meanwhile.
    assert.equal((await system.api(merchant.testKey).post(`/gateway/sessions/${created.id}/cancel/`)).status, 409);

    // The acquirer did charge the first attempt, once; no second attempt ever reached it.
    const orders = await system.db.query<{ order_number: string; status: string }>('SELECT order_number, status FROM acquirer.orders WHERE session_id = $1', [
      created.id,
    ]);
    assert.deepEqual(
      orders.map((o) => o.status),
      ['UNKNOWN'],
    );
    const acquirerStatus = await system.sandboxOrder(orders[0]?.order_number ?? '');
    assert.equal(acquirerStatus.orderStatus, 2);
    assert.equal((await system.sandboxOrder((orders[0]?.order_number ?? '').replace(/-1$/, '-2'))).errorCode, '6');
    await first!.close();
    await second!.close();
  });

  it('after those payments, then no test card number is in any schema, any log, or any message on the broker', async () => {
    const numbers = TEST_CARDS.map((card) => card.number);
    const found = (where: string, text: string) => numbers.filter((n) => text.includes(n)).map((n) => `${n} in ${where}`);

    const dump = await system.dumpDatabase();
    assert.ok(dump.includes('CREATE TABLE acquirer.orders'), 'the dump covers every schema');
    const logs = readdirSync(system.logDir).map((file) => [file, readFileSync(join(system.logDir, file), 'utf8')] as const);
    assert.ok(logs.some(([, text]) => text.includes('payment approved')), 'the logs cover the payments');
    assert.ok(trace.bodies.length > 50, 'the trace saw the traffic');
    assert.ok(trace.bodies.some((body) => body.includes('payment.authorize')), 'the trace saw the card commands');

    assert.deepEqual(
      [...found('the database', dump), ...logs.flatMap(([file, text]) => found(file, text)), ...trace.bodies.flatMap((body) => found('a broker message', body))],
      [],
    );
  });

  async function waitForStatus(merchant: Merchant, id: string, status: string): Promise<void> {
    // A browser filling the form on a loaded machine can take seconds.
    const deadline = Date.now() + 15_000;
    while ((await session(merchant, id)).status !== status) {
      if (Date.now() > deadline) assert.fail(`session never became ${status}`);
      // Polls count against the merchant's API budget like any call.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

});

describe('Hosted checkout, lapsed links', function () {
  this.timeout(60_000);
  /**
   * Link expiries are whole seconds, so a link lasts between LINK_TTL_SECONDS − 1 and LINK_TTL_SECONDS:
   * long enough for a browser to fill the card form on a machine loaded by the suites beside it
   * before its link lapses. `lapse(made)` waits only what is left of it: `made` is taken once the
   * session (and its link) exists, so the link has lapsed by made + LINK_TTL_SECONDS.
   */
  const LINK_TTL_SECONDS = 15;
  const lapse = (made: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, made + LINK_TTL_SECONDS * 1000 + 100 - Date.now())));
  let system: TestSystem;
  let browser: TestBrowser;

  before(async () => {
    [system, browser] = await Promise.all([TestSystem.start({ serviceEnv: { session: { CHECKOUT_LINK_TTL_SECONDS: String(LINK_TTL_SECONDS) } } }), launchBrowser()]);
  });

  after(async () => {
    await browser?.close();
    await system?.shutdown();
  });

  it('when a link has lapsed, then it shows the expired page with 410, and the session can still issue a new one', async () => {
    const merchant = await system.newMerchant();
    const created = await system.api(merchant.testKey).post<SessionDetail>('/gateway/sessions/', sessionRequest());
    const made = Date.now();
    const first = await fetch(created.body.checkout_url ?? '');
    assert.equal(first.status, 200);
    await lapse(made);
    const page = await browser.newPage();
    const lapsed = await page.goto(created.body.checkout_url ?? '');
    assert.equal(lapsed?.status(), 410);
    await page.getByRole('heading', { name: 'This payment link has expired' }).waitFor();
    assert.equal(lapsed?.headers()['cache-control'], 'no-store');
    await page.close();
    const fresh = await system.api(merchant.testKey).post<{ checkout_url: string }>(`/gateway/sessions/${created.body.id}/checkout/`);
    assert.equal(fresh.status, 201);
    assert.equal((await fetch(fresh.body.checkout_url)).status, 200);
  });

  it('when the link lapses while the buyer is at the bank for 3-D Secure, then coming back still finishes the payment and shows its result', async () => {
    const merchant = await system.newMerchant();
    const created = await system.api(merchant.testKey).post<SessionDetail>('/gateway/sessions/', sessionRequest());
    const made = Date.now();
    const page = await browser.newPage();
    await page.goto(created.body.checkout_url ?? '');
    await payWith(page, { number: '4000000000003220' });
    await page.getByRole('heading', { name: /3-D Secure/ }).waitFor();
    await lapse(made);
    const [back] = await Promise.all([
      page.waitForResponse((response) => /\/3ds\/pa_[0-9A-Za-z]+$/.test(response.url())),
      page.getByRole('button', { name: 'Complete authentication' }).click(),
    ]);
    assert.equal(back.status(), 200, 'the payment page, leaving for the merchant; not the expired page');
    // The ACS hands the buyer back through a page of its own: the page is ours again once it shows the result.
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await page.close();
    const paid = (await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${created.body.id}/`)).body;
    assert.deepEqual([paid.status, paid.attempts[0]?.status], ['SUCCEEDED', 'SUCCEEDED']);
    assert.equal((await fetch(`${created.body.checkout_url ?? ''}/result`)).status, 200);
  });
});
