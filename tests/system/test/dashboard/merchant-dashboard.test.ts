/**
 * The merchant dashboard (D14) driven in Chromium against the real services:
 * every page a merchant uses, each action checked where it takes effect (the
 * API, the webhooks a shop receives), not only on the page.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { launchBrowser, type Merchant, payOnPage, pollUntil, sessionRequest, signInToDashboard, type TestBrowser, TestSystem, WebhookReceiver } from '@gateway/testkit';
import { snap } from './screenshots.js';

const PASSWORD = 'correct horse battery staple';

describe('merchant dashboard, in a browser', function () {
  this.timeout(180_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let receiver: WebhookReceiver;
  /** What the shop's endpoint answers: failing on demand. */
  let failing = false;

  before(async () => {
    // A rotation's grace short enough to watch it end, long enough for a busy host to use the old key within it.
    const graces = { KEY_ROTATION_GRACES_SECONDS: '0,6,86400' };
    system = await TestSystem.start({ readyTimeoutMs: 60_000, serviceEnv: { 'api-gateway': graces, dashboard: graces } });
    browser = await launchBrowser();
    receiver = await WebhookReceiver.start(() => ({ status: failing ? 500 : 200 }));
  });

  after(async () => {
    await browser?.close();
    await receiver?.close();
    await system?.shutdown();
  });

  const userOf = (merchant: Merchant, role: 'owner' | 'developer' | 'viewer') => system.dashboardUser(merchant.merchantId, role, PASSWORD);

  const signedIn = (email: string) => signInToDashboard(browser, system.baseUrl, email, PASSWORD);

  async function switchMode(page: Page, mode: 'Test mode' | 'Live mode'): Promise<void> {
    await page.getByLabel('Mode').selectOption({ label: mode });
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  async function shownSecret(page: Page): Promise<string> {
    return (await page.locator('#shown-secret').textContent())?.trim() ?? '';
  }

  it('when an owner signs in and reveals the test key, then it is the key, and it works against the API', async () => {
    const merchant = await system.newMerchant();
    const page = await signedIn(await userOf(merchant, 'owner'));
    await page.getByRole('link', { name: 'API keys' }).click();
    assert.ok(!(await page.content()).includes(merchant.testKey), 'the key shows before Reveal');
    await snap(page, 'dashboard-api-keys');
    await page.getByRole('button', { name: 'Reveal' }).click();
    const revealed = await shownSecret(page);
    assert.equal(revealed, merchant.testKey);
    assert.equal((await system.api(revealed).get('/gateway/sessions/list/')).status, 200);
  });

  it('when keys are created and a live key rotated with a grace, then the new keys work and the old one answers 401 once its grace ends', async () => {
    const merchant = await system.newMerchant();
    const page = await signedIn(await userOf(merchant, 'developer'));
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    const testKey = await shownSecret(page);
    assert.match(testKey, /^sk_test_/);
    assert.equal((await system.api(testKey).get('/gateway/sessions/list/')).status, 200);

    // Live mode opens with business verification.
    await switchMode(page, 'Live mode');
    assert.ok(await page.getByText('Verification pending').isVisible());
    const approved = await system.admin(['merchant', 'approve-kyb', merchant.merchantId]);
    const firstLive = String(approved['live_secret_key']);
    await page.reload();
    assert.equal(await page.getByText('Verification pending').count(), 0);
    await page.getByRole('button', { name: 'Create live key' }).click();
    const secondLive = await shownSecret(page);
    assert.match(secondLive, /^sk_live_/);
    assert.equal((await system.api(secondLive).get('/gateway/sessions/list/')).status, 200);

    // Rotate the first live key, revoking it in 6 s.
    const row = page.getByRole('row').filter({ hasText: firstLive.slice(-4) });
    await row.getByLabel('Revoke old key').selectOption({ label: 'in 6 s' });
    await row.getByRole('button', { name: 'Rotate' }).click();
    const rotated = await shownSecret(page);
    assert.match(rotated, /^sk_live_/);
    assert.equal((await system.api(rotated).get('/gateway/sessions/list/')).status, 200);
    assert.equal((await system.api(firstLive).get('/gateway/sessions/list/')).status, 200, 'the old key works during its grace');
    await pollUntil(async () => (await system.api(firstLive).get('/gateway/sessions/list/')).status === 401, 15_000, 'the old live key to stop working');
  });

  it('when a rate is set, then a session can be created in that currency, converted at that rate', async () => {
    const merchant = await system.newMerchant();
    const page = await signedIn(await userOf(merchant, 'developer'));
    await page.getByRole('link', { name: 'Exchange rates' }).click();
    await page.getByLabel('Currency').fill('EUR');
    await page.getByLabel('Rate').fill('3.375');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'EUR' }).waitFor();
    const created = await system.api(merchant.testKey).post<{ amount: string; original: { rate: string } }>('/gateway/sessions/', sessionRequest({ amount: '10.00', currency: 'EUR' }));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.amount, '33.750');
    assert.equal(created.body.original.rate, '3.375000');
  });

  it('when the webhook secret is rotated, a delivery fails and is resent from its log, then both secrets sign and the resend keeps the webhook id with a new signature', async () => {
    const merchant = await system.newMerchant();
    const page = await signedIn(await userOf(merchant, 'developer'));
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Webhook URL').fill(receiver.url(`/shop-${merchant.merchantId}`));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Webhook URL saved.').waitFor();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const secret = await shownSecret(page);
    assert.match(secret, /^whsec_/);

    failing = true;
    const created = await system.api(merchant.testKey).post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest());
    await payOnPage(created.body.checkout_url, { card_number: '4242424242424242' });
    const path = `/shop-${merchant.merchantId}`;
    await receiver.waitFor((all) => all.some((r) => r.path === path && r.body.event === 'session.succeeded'), 30_000);
    const first = receiver.received.find((r) => r.path === path && r.body.event === 'session.succeeded');
    assert.ok(first);
    assert.equal((first.signature.match(/v1=/g) ?? []).length, 2, `two signatures during the overlap: ${first.signature}`);

    await page.getByLabel('Failed only').check();
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/failed=1/);
    await pollUntil(
      async () => {
        // Opened again (not reloaded) each time: a reload racing the filter's own navigation detaches the page.
        await page.goto(`${system.baseUrl}/dashboard/webhooks?failed=1`);
        return (await page.getByRole('link', { name: 'session.succeeded' }).count()) > 0;
      },
      30_000,
      'the failed delivery in the log',
    );
    await page.getByRole('link', { name: 'session.succeeded' }).first().click();
    assert.ok(await page.getByRole('heading', { name: 'Payload' }).isVisible());
    assert.ok((await page.locator('pre').first().textContent())?.includes(created.body.id));

    failing = false;
    const before = receiver.received.length;
    // A signature covers its timestamp in whole seconds: a resend within the first delivery's second would sign the same.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await page.getByRole('button', { name: 'Resend' }).click();
    await page.getByText('Sent again').waitFor();
    await receiver.waitFor((all) => all.length > before && all.slice(before).some((r) => r.path === path), 30_000);
    const resent = receiver.received.slice(before).find((r) => r.path === path);
    assert.ok(resent);
    assert.equal(resent.eventId, first.eventId, 'the same webhook id');
    assert.notEqual(resent.signature, first.signature, 'a new signature');
  });

  it('when a payment is refunded from its page, then amount_refunded shows it there and at the API', async () => {
    const merchant = await system.newMerchant();
    const created = await system.api(merchant.testKey).post<{ id: string; checkout_url: string; order_number: string }>('/gateway/sessions/', sessionRequest({ amount: '50.000' }));
    await payOnPage(created.body.checkout_url, { card_number: '4242424242424242' });
    await pollUntil(async () => (await system.api(merchant.testKey).get<{ status: string }>(`/gateway/sessions/${created.body.id}/`)).body.status === 'SUCCEEDED', 15_000, 'the payment');

    const page = await signedIn(await userOf(merchant, 'developer'));
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await page.getByRole('link', { name: created.body.order_number }).click();
    await page.getByLabel('Amount').fill('12.500');
    await page.getByLabel('Reason').fill('One item returned');
    await page.getByRole('button', { name: 'Refund' }).click();
    await page.getByText('Refunded 12.500 TND.').waitFor();
    assert.equal((await page.locator('[data-field="amount_refunded"]').textContent())?.trim(), '12.500 TND');
    await snap(page, 'dashboard-payment');
    const read = await system.api(merchant.testKey).get<{ amount_refunded: string }>(`/gateway/sessions/${created.body.id}/`);
    assert.equal(read.body.amount_refunded, '12.500');

    // More than is left is the API's refusal, in the API's words, and changes nothing.
    await page.getByLabel('Amount').fill('40.000');
    await page.getByLabel('Reason').fill('Too much');
    await page.getByRole('button', { name: 'Refund' }).click();
    await page.getByRole('alert').waitFor();
    assert.equal((await system.api(merchant.testKey).get<{ amount_refunded: string }>(`/gateway/sessions/${created.body.id}/`)).body.amount_refunded, '12.500');
  });

  it('when a viewer signs in, then payments are readable, no secret or developer button is offered, and the team and audit log are not theirs', async () => {
    const merchant = await system.newMerchant();
    const page = await signedIn(await userOf(merchant, 'viewer'));
    await page.getByRole('link', { name: 'API keys' }).click();
    assert.equal(await page.getByRole('button', { name: 'Reveal' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Create key' }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Team' }).count(), 0);
    const team = await page.goto(`${system.baseUrl}/dashboard/team`);
    assert.equal(team?.status(), 403);
  });

  it('when the language is switched to French, then the pages speak French and stay so', async () => {
    const merchant = await system.newMerchant();
    const page = await signedIn(await userOf(merchant, 'owner'));
    await page.getByRole('link', { name: 'Français' }).click();
    await page.getByRole('heading', { name: 'Accueil' }).waitFor();
    await page.getByRole('link', { name: 'Paiements' }).click();
    await page.getByRole('heading', { name: 'Paiements' }).waitFor();
    await page.getByRole('link', { name: 'Clés API' }).click();
    assert.ok(await page.getByRole('heading', { name: /Clés API/ }).isVisible());
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
  });
});
