/**
 * How a buyer comes back from 3-D Secure when things do not go the usual way
 * (D30), in headless Chromium against the whole system: an acquirer deployed
 * without finish3dsVer2Payment.do, which finishes the order itself and sends
 * the browser back by GET; a 3DS Method frame that never loads (the page goes
 * on after its wait, shortened here); an ACS that never posts back (the
 * attempt is given up after the challenge timeout, shortened here). Each ends
 * in a clear page, and nothing is paid that should not be.
 */
import assert from 'node:assert/strict';
import type { Page, Request } from 'playwright-core';
import type { SessionDetail } from '@gateway/contracts';
import { launchBrowser, MerchantSite, pollUntil, sessionRequest, TestSystem, type Merchant, type TestBrowser } from '@gateway/testkit';
import { payWith } from './browser.js';

const METHOD_WAIT_MS = 1_500;
const CHALLENGE_TIMEOUT_SECONDS = 10;

describe('Hosted checkout, coming back from 3-D Secure the other ways (D30)', function () {
  this.timeout(90_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let shop: MerchantSite;
  let merchant: Merchant;

  before(async () => {
    system = await TestSystem.start({
      serviceEnv: {
        'epg-sandbox': { SANDBOX_WITHOUT_FINISH_3DS_VER2: 'true' },
        checkout: { THREE_DS_METHOD_WAIT_MS: String(METHOD_WAIT_MS) },
        // An abandoned challenge is given up within seconds; a payment in flight is looked at only after 5.
        'acquirer-adapter': {
          SWEEP_INTERVAL_SECONDS: '1',
          ACQUIRER_TIMEOUT_MS: '1500',
          RECONCILE_AFTER_SECONDS: '5',
          RECONCILE_MAX_DELAY_SECONDS: '1',
          CHALLENGE_TIMEOUT_SECONDS: String(CHALLENGE_TIMEOUT_SECONDS),
        },
      },
    });
    [shop, browser] = await Promise.all([MerchantSite.start(), launchBrowser()]);
    merchant = await system.newMerchant({ limits: { account: 1000 } });
  });

  after(async () => {
    await browser?.close();
    await shop?.close();
    await system?.shutdown();
  });

  async function newSession(): Promise<SessionDetail> {
    const created = await system.api(merchant.testKey).post<SessionDetail>('/gateway/sessions/', sessionRequest({ return_url: shop.url('/thanks'), cancel_url: shop.url('/cart'), locale: 'en' }));
    assert.equal(created.status, 201, created.text);
    return created.body;
  }

  async function session(id: string): Promise<SessionDetail> {
    return (await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${id}/`)).body;
  }

  async function openPage(created: SessionDetail): Promise<{ page: Page; requests: Request[] }> {
    const page = await (await browser.newContext()).newPage();
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    assert.equal((await page.goto(created.checkout_url ?? ''))?.status(), 200);
    return { page, requests };
  }

  const returnsTo = (requests: Request[], created: SessionDetail, method: string) =>
    requests.filter((request) => request.method() === method && new RegExp(`^${created.checkout_url}/3ds/pa_[0-9A-Za-z]+(\\?.*)?$`).test(request.url()));

  it('when the acquirer finishes 3-D Secure 2 itself, then the browser comes back by GET to the attempt\'s address, and the payment succeeds', async () => {
    const created = await newSession();
    const { page, requests } = await openPage(created);
    await payWith(page, { number: '4000000000003220' });
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL((url) => url.origin === shop.origin);
    const paid = await session(created.id);
    assert.deepEqual([paid.status, paid.attempts[0]?.status], ['SUCCEEDED', 'SUCCEEDED']);
    const [back] = returnsTo(requests, created, 'GET');
    assert.ok(back, 'the browser came back by GET');
    assert.ok(back.url().startsWith(`${created.checkout_url}/3ds/${paid.attempts[0]?.id}`));
    assert.deepEqual(returnsTo(requests, created, 'POST'), [], 'nothing posted back to the page: the acquirer finished the order');
    await page.context().close();
  });

  it('when the acquirer finishes a failed 3-D Secure 2 itself, then the browser comes back by GET and the page takes another card', async () => {
    const created = await newSession();
    const { page, requests } = await openPage(created);
    await payWith(page, { number: '4000000000003220' });
    await page.getByRole('button', { name: 'Fail authentication' }).click();
    await page.getByRole('alert').getByText('3-D Secure authentication failed.').waitFor();
    assert.equal(returnsTo(requests, created, 'GET').length, 1);
    const pending = await session(created.id);
    assert.deepEqual([pending.status, pending.attempts[0]?.failure_code], ['PENDING', 'authentication_failed']);
    await page.context().close();
  });

  it('when the 3DS Method frame never loads, then the page goes on after its wait without it, and the payment goes on to the challenge and succeeds', async () => {
    const created = await newSession();
    const { page, requests } = await openPage(created);
    // The issuer's method URL never answers.
    await page.route(
      () => true,
      (route) => (new URLSearchParams(route.request().postData() ?? '').has('threeDSMethodData') ? undefined : route.continue()),
    );
    const started = Date.now();
    await payWith(page, { number: '4000000000003220' });
    await page.getByRole('heading', { name: '3-D Secure authentication' }).waitFor();
    const [goOn] = requests.filter((request) => request.method() === 'POST' && request.url().endsWith('/method'));
    assert.equal(new URLSearchParams(goOn?.postData() ?? '').get('completed'), 'false');
    assert.ok(Date.now() - started >= METHOD_WAIT_MS, 'the page waited for the frame first');
    assert.equal(await page.locator('dd.method').textContent(), 'did not run');
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL((url) => url.origin === shop.origin);
    assert.equal((await session(created.id)).status, 'SUCCEEDED');
    await page.context().close();
  });

  it('when the buyer never comes back from the ACS, then the attempt fails authentication_failed once the challenge times out, the checkout link says so and takes another card, and a late answer pays nothing', async () => {
    const created = await newSession();
    const { page } = await openPage(created);
    await payWith(page, { number: '4000000000003063' });
    await page.getByRole('heading', { name: '3-D Secure authentication' }).waitFor();
    // Meanwhile the checkout link shows the payment under way.
    const meanwhile = await (await browser.newContext()).newPage();
    await meanwhile.goto(created.checkout_url ?? '');
    await meanwhile.getByRole('heading', { name: 'Payment processing' }).waitFor();

    await pollUntil(async () => (await session(created.id)).status === 'PENDING', (CHALLENGE_TIMEOUT_SECONDS + 15) * 1000, 'the abandoned challenge given up', 500);
    assert.equal((await session(created.id)).attempts[0]?.failure_code, 'authentication_failed');
    // The processing page looks again by itself, and finds the card form with the failure.
    await meanwhile.getByRole('alert').getByText('3-D Secure authentication failed.').waitFor({ timeout: 10_000 });

    // The buyer answers at the ACS at last: the attempt is over, and nothing is charged.
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByRole('alert').getByText('3-D Secure authentication failed.').waitFor();
    const [order] = await system.db.query<{ order_number: string }>('SELECT order_number FROM acquirer.orders WHERE session_id = $1', [created.id]);
    assert.notEqual((await system.sandboxOrder(order?.order_number ?? '')).orderStatus, 2, 'the acquirer never took the money');
    assert.equal((await session(created.id)).status, 'PENDING');
    await page.context().close();
    await meanwhile.context().close();
  });
});
