/**
 * The dashboard's Customers page (D24) against the real services: the list
 * and its search by email, a customer's saved cards and payments, "Remove
 * card" for developers and owners (the API's own command, audited), viewers
 * reading only, another merchant's customer not found, and the page in
 * French and Arabic.
 */
import assert from 'node:assert/strict';
import type { Customer } from '@gateway/contracts';
import { launchBrowser, signInToDashboard, TestSystem, Visitor, type Merchant, type TestBrowser } from '@gateway/testkit';
import { CustomerSteps } from '../customers/customer-steps.js';

const PASSWORD = 'correct horse battery staple';

describe('dashboard customers (D24)', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let steps: CustomerSteps;

  before(async () => {
    system = await TestSystem.start({ readyTimeoutMs: 60_000 });
    steps = new CustomerSteps(system);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await system?.shutdown();
  });

  async function visitorOf(merchant: Merchant, role: 'owner' | 'developer' | 'viewer'): Promise<Visitor> {
    const visitor = new Visitor(system.baseUrl);
    const answer = await visitor.post('/dashboard/sign-in', { email: await system.dashboardUser(merchant.merchantId, role, PASSWORD), password: PASSWORD });
    assert.equal(answer.status, 303, answer.html);
    return visitor;
  }

  /** A customer with a saved card and a payment. */
  async function customerWithCard(merchant: Merchant, email: string): Promise<Customer> {
    const customer = await steps.newCustomer(merchant, { email, name: `Client ${email.split('@')[0]}` });
    await steps.saveCard(merchant, customer, '4242424242424242');
    return customer;
  }

  it('when a developer searches a customer by email in Chromium and removes its card, then the card is gone at the API and the page says so', async () => {
    const merchant = await steps.newMerchant();
    const sami = await customerWithCard(merchant, 'sami@example.tn');
    await customerWithCard(merchant, 'leila@example.tn');
    const page = await signInToDashboard(browser, system.baseUrl, await system.dashboardUser(merchant.merchantId, 'developer', PASSWORD), PASSWORD);
    await page.getByRole('link', { name: 'Customers', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: /^Customers/ }).waitFor();
    assert.equal(await page.locator('tr[data-customer]').count(), 2);
    await page.getByLabel('Search by email').fill('sami@example.tn');
    await page.getByRole('button', { name: 'Filter' }).click();
    assert.equal(await page.locator('tr[data-customer]').count(), 1);
    await page.getByRole('link', { name: 'Client sami' }).click();
    await page.getByRole('heading', { level: 1, name: /^Client sami/ }).waitFor();
    assert.equal(await page.getByText('Visa •••• 4242').count(), 1);
    assert.equal(await page.getByText("This customer's payments").count(), 1);
    assert.equal(await page.locator('table').last().locator('tbody tr').count(), 1, 'the payment that saved the card');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove card' }).click();
    await page.getByText('The card was removed: it can never be charged again.').waitFor();
    assert.deepEqual(await steps.cardsOf(merchant, sami), []);
    assert.equal(await page.getByText('No saved card.').count(), 1);
    await page.close();
  });

  it('when a viewer opens a customer, then it reads its cards but has no Remove card, and posting one is refused; another merchant\'s customer is not found', async () => {
    const merchant = await steps.newMerchant();
    const customer = await customerWithCard(merchant, 'nour@example.tn');
    const [card] = await steps.cardsOf(merchant, customer);
    const viewer = await visitorOf(merchant, 'viewer');
    const page = await viewer.get(`/dashboard/customers/${customer.id}`);
    assert.equal(page.status, 200, page.html.slice(0, 300));
    assert.match(page.html, /Visa •••• 4242/);
    assert.doesNotMatch(page.html, /Remove card/);
    const token = await viewer.csrf(`/dashboard/customers/${customer.id}`);
    const refused = await viewer.post(`/dashboard/customers/${customer.id}/cards/${card?.id}/remove`, { _csrf: token });
    assert.equal(refused.status, 403);
    assert.equal((await steps.cardsOf(merchant, customer)).length, 1);

    const stranger = await visitorOf(await steps.newMerchant(), 'owner');
    assert.equal((await stranger.get(`/dashboard/customers/${customer.id}`)).status, 404);
    const strangerToken = await stranger.csrf('/dashboard/customers');
    assert.equal((await stranger.post(`/dashboard/customers/${customer.id}/cards/${card?.id}/remove`, { _csrf: strangerToken })).status, 404);
    assert.equal((await steps.cardsOf(merchant, customer)).length, 1);
  });

  it('when the owner reads French or Arabic, then the Customers page speaks it', async () => {
    const merchant = await steps.newMerchant();
    await customerWithCard(merchant, 'yasmine@example.tn');
    const owner = await visitorOf(merchant, 'owner');
    // The language is the person's choice, as the header's links make it.
    await owner.get('/dashboard/language?to=fr&back=%2Fdashboard%2Fcustomers');
    const french = await owner.get('/dashboard/customers');
    assert.match(french.html, /<h1>Clients/);
    assert.match(french.html, /1 carte enregistrée/);
    await owner.get('/dashboard/language?to=ar&back=%2Fdashboard%2Fcustomers');
    const arabic = await owner.get('/dashboard/customers');
    assert.match(arabic.html, /dir="rtl"/);
    assert.match(arabic.html, /<h1>العملاء/);
    assert.match(arabic.html, /بطاقة محفوظة واحدة/);
  });
});
