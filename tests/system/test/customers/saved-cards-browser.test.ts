/**
 * Saved cards (D24) in real headless Chromium against the whole system: a
 * card saved off_session with a payment and charged later without the
 * buyer; a returning buyer paying with a saved card by its security code,
 * 3-D Secure included; the unticked box saving nothing; the page in Arabic
 * offering saved cards.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { SessionDetail } from '@gateway/contracts';
import { launchBrowser, MerchantSite, TestSystem, type TestBrowser } from '@gateway/testkit';
import { payWith } from '../checkout/browser.js';
import { CustomerSteps } from './customer-steps.js';

describe('Saved cards, in a browser (D24)', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let shop: MerchantSite;
  let steps: CustomerSteps;

  before(async () => {
    system = await TestSystem.start();
    steps = new CustomerSteps(system);
    [shop, browser] = await Promise.all([MerchantSite.start(), launchBrowser()]);
  });

  after(async () => {
    await browser?.close();
    await shop?.close();
    await system?.shutdown();
  });

  async function open(session: SessionDetail): Promise<Page> {
    const page = await browser.newPage();
    const response = await page.goto(session.checkout_url ?? '');
    assert.equal(response?.status(), 200);
    return page;
  }

  it('when a buyer pays with a card saved off_session, then the merchant charges it later without the buyer', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant, { email: 'amina@example.tn', name: 'Amina Ben Salah' });
    const session = await steps.newSession(merchant, { customer: customer.id, save_card: 'off_session', return_url: shop.url('/thanks') });
    const page = await open(session);
    await page.getByText('this merchant may charge it for your future payments').waitFor();
    await payWith(page, { number: '4242 4242 4242 4242', expiry: '09/32' });
    await page.waitForURL((url) => url.origin === shop.origin);
    await page.close();
    const [card] = await steps.cardsOf(merchant, customer);
    assert.deepEqual([card?.card_brand, card?.card_last_four, card?.exp_month, card?.exp_year, card?.usage], ['visa', '4242', 9, 2032, 'off_session']);

    const charged = await system.api(merchant.testKey).post<SessionDetail>('/gateway/sessions/', { amount: '19.900', merchant_reference: `december-${Date.now()}`, customer: customer.id, payment_method: card?.id, off_session: true });
    assert.equal(charged.status, 201, charged.text);
    assert.deepEqual([charged.body.status, charged.body.attempts[0]?.card_last_four, charged.body.buyer_email], ['SUCCEEDED', '4242', 'amina@example.tn']);
  });

  it('when a returning buyer chooses a saved card and types its security code, then it pays, through 3-D Secure when the issuer asks', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    await steps.saveCard(merchant, customer, '4242424242424242', 'on_session');
    // D30's 3-D Secure 2 challenge card, saved with a payment through its challenge (box ticked): paying with it again meets the challenge.
    const saving = await open(await steps.newSession(merchant, { customer: customer.id, save_card: 'on_session', return_url: shop.url('/thanks') }));
    // A saved card is offered first; a new one is typed under "Use another card".
    await saving.getByText('Use another card').click();
    const another = saving.locator('details.another-card');
    await another.getByLabel('Save card for future payments').check();
    await another.getByLabel('Card number').fill('4000 0000 0000 3220');
    await another.getByLabel('Expiry date').fill('12/34');
    await another.getByLabel('Security code').fill('123');
    await another.getByLabel('Name on card').fill('Amina Ben Salah');
    await another.getByRole('button', { name: /^Pay/ }).click();
    await saving.getByRole('heading', { name: /3-D Secure/ }).waitFor();
    await saving.getByRole('button', { name: 'Complete authentication' }).click();
    await saving.waitForURL((url) => url.origin === shop.origin);
    await saving.close();
    assert.deepEqual((await steps.cardsOf(merchant, customer)).map((c) => c.card_last_four).sort(), ['3220', '4242']);
    const session = await steps.newSession(merchant, { customer: customer.id, return_url: shop.url('/thanks') });
    const page = await open(session);
    const savedForm = page.locator('form.saved-card-form');
    await savedForm.getByLabel('Visa •••• 4242').check();
    await savedForm.getByLabel('Security code').fill('123');
    await savedForm.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL((url) => url.origin === shop.origin);
    await page.close();
    const paid = await steps.session(merchant, session.id);
    assert.deepEqual([paid.status, paid.attempts.length, paid.attempts[0]?.card_last_four], ['SUCCEEDED', 1, '4242']);

    const again = await steps.newSession(merchant, { customer: customer.id, return_url: shop.url('/thanks') });
    const second = await open(again);
    const form = second.locator('form.saved-card-form');
    await form.getByLabel('Visa •••• 3220').check();
    await form.getByLabel('Security code').fill('123');
    await form.getByRole('button', { name: /^Pay/ }).click();
    await second.getByRole('heading', { name: /3-D Secure/ }).waitFor();
    await second.getByRole('button', { name: 'Complete authentication' }).click();
    await second.waitForURL((url) => url.origin === shop.origin);
    await second.close();
    const secure = await steps.session(merchant, again.id);
    assert.deepEqual([secure.status, secure.attempts[0]?.card_last_four], ['SUCCEEDED', '3220']);
  });

  it('when the buyer leaves "Save card for future payments" unticked, then the payment saves nothing', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    const session = await steps.newSession(merchant, { customer: customer.id, save_card: 'on_session', return_url: shop.url('/thanks') });
    const page = await open(session);
    const box = page.getByLabel('Save card for future payments');
    assert.equal(await box.isChecked(), false);
    await payWith(page, { number: '4242 4242 4242 4242' });
    await page.waitForURL((url) => url.origin === shop.origin);
    await page.close();
    assert.equal((await steps.session(merchant, session.id)).status, 'SUCCEEDED');
    assert.deepEqual(await steps.cardsOf(merchant, customer), []);
  });

  it('when the page is in Arabic, then it offers the saved cards right to left, and pays with one', async () => {
    const merchant = await steps.newMerchant();
    const customer = await steps.newCustomer(merchant);
    await steps.saveCard(merchant, customer, '5555555555554444', 'on_session');
    const session = await steps.newSession(merchant, { customer: customer.id, locale: 'ar', return_url: shop.url('/thanks') });
    const page = await open(session);
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    const form = page.locator('form.saved-card-form');
    await form.getByRole('group', { name: 'بطاقاتك المحفوظة' }).waitFor();
    assert.equal(await form.getByLabel('Mastercard •••• 4444').isChecked(), true);
    await page.getByText('استخدام بطاقة أخرى').waitFor();
    await form.getByLabel('رمز الأمان').fill('123');
    await form.getByRole('button', { name: /^ادفع/ }).click();
    await page.waitForURL((url) => url.origin === shop.origin);
    await page.close();
    assert.equal((await steps.session(merchant, session.id)).status, 'SUCCEEDED');
  });
});
