/**
 * The hosted page in French, English and Arabic (D18), in real headless
 * Chromium against the whole system: the session's locale, else the buyer's
 * Accept-Language, else French; Arabic right to left with the card fields
 * left to right; amounts written per language; a payment in each language.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { SessionDetail } from '@gateway/contracts';
import { holdThreeDSMethod, launchBrowser, MerchantSite, payOnPage, sessionRequest, TestSystem, type Merchant, type TestBrowser } from '@gateway/testkit';
import type { Language } from '@gateway/i18n';
import { CHECKOUT_CATALOGUE } from '../../src/pages/index.js';

const NBSP = '\u00a0';
const RLM = '\u200f';

describe('Hosted checkout in three languages, in a browser', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let shop: MerchantSite;
  let merchant: Merchant;

  before(async () => {
    system = await TestSystem.start();
    [shop, browser] = await Promise.all([MerchantSite.start(), launchBrowser()]);
    merchant = await system.newMerchant();
  });

  after(async () => {
    await browser?.close();
    await shop?.close();
    await system?.shutdown();
  });

  async function newSession(overrides: Record<string, unknown> = {}): Promise<SessionDetail> {
    const created = await system.api(merchant.testKey).post<SessionDetail>('/gateway/sessions/', sessionRequest(overrides));
    assert.equal(created.status, 201, created.text);
    return created.body;
  }

  /** A page in a browser whose language (Accept-Language) is `browserLocale`. */
  async function openPage(url: string, browserLocale: string): Promise<Page> {
    const context = await browser.newContext({ locale: browserLocale });
    const page = await context.newPage();
    const response = await page.goto(url);
    assert.equal(response?.status(), 200);
    return page;
  }

  /** Fills the card form by its labels in `language` and presses the translated Pay button. */
  async function payWith(page: Page, language: Language, number: string, expiry = '12/34'): Promise<void> {
    const words = CHECKOUT_CATALOGUE.messages[language];
    await page.getByLabel(words.card_number, { exact: true }).fill(number);
    await page.getByLabel(words.expiry, { exact: true }).fill(expiry);
    await page.getByLabel(words.cvc, { exact: true }).fill('123');
    await page.getByLabel(words.cardholder_name, { exact: true }).fill('Amina Ben Salah');
    await page.locator('button.pay').click();
  }

  async function documentOf(page: Page): Promise<{ lang: string; dir: string }> {
    const html = page.locator('html');
    return { lang: (await html.getAttribute('lang')) ?? '', dir: (await html.getAttribute('dir')) ?? '' };
  }

  it('when the session asks for Arabic, then the page is right to left in Arabic, card fields left to right, and a payment succeeds in Arabic', async () => {
    const created = await newSession({ locale: 'ar' });
    assert.equal(created.locale, 'ar');
    // The browser speaks English: the session's locale wins.
    const page = await openPage(created.checkout_url ?? '', 'en-US');
    assert.deepEqual(await documentOf(page), { lang: 'ar', dir: 'rtl' });
    const amount = `${RLM}125,500${NBSP}TND`;
    assert.equal(await page.locator('h1.amount').textContent(), amount);
    assert.equal(await page.locator('button.pay').textContent(), `ادفع ${amount}`);
    assert.equal(await page.locator('.test-banner-title').textContent(), 'وضع الاختبار');

    // Reading order: merchant, amount, then the fields from card number to name, then Pay; each starts on the right.
    // The text's own box (a range over the element's contents), not the block's: where the words start and end.
    const order = await page.evaluate<{ selector: string; top: number; rightGap: number; width: number; mainWidth: number }[]>(`(() => {
      const main = document.querySelector('main').getBoundingClientRect();
      return ${JSON.stringify(['.merchant', 'h1.amount', 'label[for=card_number]', 'label[for=expiry]', 'label[for=cvc]', 'label[for=cardholder_name]', 'button.pay'])}.map((selector) => {
        const range = document.createRange();
        range.selectNodeContents(document.querySelector(selector));
        const box = range.getBoundingClientRect();
        return { selector, top: box.top, rightGap: main.right - box.right, width: box.width, mainWidth: main.width };
      });
    })()`);
    for (let i = 1; i < order.length; i += 1) assert.ok((order[i]?.top ?? 0) > (order[i - 1]?.top ?? 0), `${order[i]?.selector} comes after ${order[i - 1]?.selector}`);
    for (const { selector, rightGap, width, mainWidth } of order.filter((o) => o.selector.startsWith('label'))) {
      assert.ok(rightGap < 40 && width < mainWidth / 2, `${selector} sits on the right, where Arabic starts (gap ${rightGap})`);
    }
    // The script runs in the page (the tests compile without the DOM's types).
    const directions = await page.evaluate<string[]>("['card_number', 'expiry', 'cvc', 'cardholder_name'].map((id) => getComputedStyle(document.getElementById(id)).direction)");
    assert.deepEqual(directions, ['ltr', 'ltr', 'ltr', 'rtl']);

    await payWith(page, 'ar', '4242 4242 4242 4242');
    await page.getByRole('heading', { name: 'تمت عملية الدفع بنجاح' }).waitFor();
    assert.deepEqual(await documentOf(page), { lang: 'ar', dir: 'rtl' });
    assert.equal((await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${created.id}/`)).body.status, 'SUCCEEDED');
    await page.context().close();
  });

  it('when an Arabic buyer passes 3-D Secure at the bank, then the 3DS Method page was Arabic, the acquirer was asked for Arabic, and the buyer comes back to the result in Arabic', async () => {
    const created = await newSession({ locale: 'ar' });
    const page = await openPage(created.checkout_url ?? '', 'ar-TN');
    const release = await holdThreeDSMethod(page, new URL(system.envOf('checkout')['SANDBOX_PUBLIC_URL'] ?? '').origin);
    await payWith(page, 'ar', '4000 0000 0000 3220');
    await page.getByRole('heading', { name: 'جارٍ التحقق من بطاقتك' }).waitFor();
    assert.deepEqual(await documentOf(page), { lang: 'ar', dir: 'rtl' });
    assert.equal(await page.locator('#method-continue input[name=language]').getAttribute('value'), 'ar');
    release();
    await page.getByRole('heading', { name: /3-D Secure/ }).waitFor();
    // The sandbox issuer shows the language register.do was given: the page's reached the acquirer.
    assert.equal(await page.locator('dd.language').textContent(), 'ar');
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByRole('heading', { name: 'تمت عملية الدفع بنجاح' }).waitFor();
    assert.deepEqual(await documentOf(page), { lang: 'ar', dir: 'rtl' });
    await page.context().close();
  });

  it('when the session leaves the language to the browser and the buyer reads French, then a decline and a payment are told in French', async () => {
    const created = await newSession({ return_url: shop.url('/merci') });
    assert.equal(created.locale, 'auto');
    const page = await openPage(created.checkout_url ?? '', 'fr-TN');
    assert.deepEqual(await documentOf(page), { lang: 'fr', dir: 'ltr' });
    assert.equal(await page.locator('button.pay').textContent(), `Payer 125,500${NBSP}TND`);

    await payWith(page, 'fr', '4000 0000 0000 0002');
    await page.getByRole('alert').getByText('Votre carte a été refusée. Essayez une autre carte ou contactez votre banque.').waitFor();
    await page.getByRole('alert').getByText('Il vous reste 4 tentatives.').waitFor();

    await payWith(page, 'fr', '4242 4242 4242 4242');
    await page.waitForURL((url) => url.origin === shop.origin);
    await page.context().close();
  });

  it('when the session asks for English, then a German-speaking buyer pays in English, with the English amount', async () => {
    const created = await newSession({ locale: 'en', cancel_url: shop.url('/cart') });
    const page = await openPage(created.checkout_url ?? '', 'de-DE');
    assert.deepEqual(await documentOf(page), { lang: 'en', dir: 'ltr' });
    assert.equal(await page.locator('button.pay').textContent(), `Pay TND${NBSP}125.500`);
    await payWith(page, 'en', '4242 4242 4242 4242');
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await page.context().close();
  });

  it('when a field is wrong, then the error is shown beside it in the buyer’s language, and the title says so', async () => {
    const created = await newSession();
    const page = await openPage(created.checkout_url ?? '', 'ar-TN');
    assert.deepEqual(await documentOf(page), { lang: 'ar', dir: 'rtl' });
    await payWith(page, 'ar', '4242 4242 4242 4241', '01/20');
    await page.locator('#card_number-error').getByText('يرجى إدخال رقم بطاقة صحيح.').waitFor();
    assert.match((await page.locator('#expiry-error').textContent()) ?? '', /انتهت صلاحية هذه البطاقة\./);
    assert.match(await page.title(), /^خطأ: /);
    assert.equal(await page.locator('#card_number').getAttribute('aria-invalid'), 'true');
    await page.context().close();
  });

  it('when the locale is auto, then Accept-Language chooses by q-value among the three languages, and French when none is spoken', async () => {
    const created = await newSession();
    const cases: [string | undefined, Language][] = [
      [undefined, 'fr'],
      ['de-DE, en;q=0.5', 'en'],
      ['en-GB;q=0.3, ar-TN;q=0.9, fr;q=0.8', 'ar'],
      ['ar;q=0, en;q=0.2, fr-FR;q=0.4', 'fr'],
      ['de, it', 'fr'],
      ['EN', 'en'],
    ];
    for (const [acceptLanguage, language] of cases) {
      const res = await fetch(created.checkout_url ?? '', { headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage } });
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.ok(html.includes(`<html lang="${language}" dir="${language === 'ar' ? 'rtl' : 'ltr'}">`), `${acceptLanguage ?? '(none)'} → ${language}`);
      assert.ok(html.includes(CHECKOUT_CATALOGUE.messages[language].cancel_link), `${acceptLanguage ?? '(none)'} → ${language}`);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    }
    // A link that leads nowhere still speaks the buyer's language.
    const lapsed = await fetch(`${created.checkout_url ?? ''}x/result`, { headers: { 'accept-language': 'ar' } });
    assert.equal(lapsed.status, 410);
    assert.match(await lapsed.text(), /<html lang="ar" dir="rtl">[\s\S]*<h1>انتهت صلاحية رابط الدفع هذا<\/h1>/);
  });

  it('when a buyer pays over plain HTTP in French, then the final page is French', async () => {
    const created = await newSession({ locale: 'fr' });
    const paid = await payOnPage(created.checkout_url ?? '', { card_number: '4242424242424242' }, 'ar');
    assert.equal(paid.status, 200);
    assert.match(paid.html, /<html lang="fr" dir="ltr">[\s\S]*Paiement accepté[\s\S]*Merci\u00a0: votre paiement a bien été reçu\./);
  });

  /** Without script the ACS's hand-back form waits for its Continue (the sandbox's page, in English); with script it goes by itself. */
  async function handedBack(page: Page, javaScriptEnabled: boolean): Promise<void> {
    if (javaScriptEnabled) return;
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
  }

  it('when a French buyer pays 3220, then the 3DS Method and the bank hand-off speak French, with script and without it', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const created = await newSession({ locale: 'fr' });
      const context = await browser.newContext({ locale: 'fr-TN', javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(created.checkout_url ?? '');
      const bankPages: string[] = [];
      page.on('response', (response) => {
        if (response.request().method() === 'POST' && response.url().endsWith('/method')) bankPages.push(response.headers()['content-security-policy'] ?? '');
      });
      const release = javaScriptEnabled ? await holdThreeDSMethod(page, new URL(system.envOf('checkout')['SANDBOX_PUBLIC_URL'] ?? '').origin) : () => undefined;
      await payWith(page, 'fr', '4000 0000 0000 3220');
      await page.getByRole('heading', { name: 'Vérification de votre carte' }).waitFor();
      await page.getByText('Nous vérifions votre carte auprès de votre banque. Cela ne prend que quelques secondes.').waitFor();
      release();
      if (!javaScriptEnabled) {
        await page.getByRole('button', { name: 'Continuer' }).click();
        await page.getByRole('heading', { name: 'Redirection vers votre banque' }).waitFor();
        await page.getByText('Si rien ne se passe, cliquez sur Continuer.').waitFor();
        await page.getByRole('button', { name: 'Continuer' }).click();
      }
      await page.getByRole('heading', { name: /3-D Secure/ }).waitFor();
      assert.equal(await page.locator('dd.language').textContent(), 'fr');
      await page.getByRole('button', { name: 'Complete authentication' }).click();
      await handedBack(page, javaScriptEnabled);
      await page.getByRole('heading', { name: 'Paiement accepté' }).waitFor();
      assert.deepEqual(await documentOf(page), { lang: 'fr', dir: 'ltr' });
      assert.equal(bankPages.length, 1, 'the hand-off page came after the method');
      assert.match(bankPages[0] ?? '', /form-action 'self' http:/);
      assert.equal((await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${created.id}/`)).body.status, 'SUCCEEDED', `script ${javaScriptEnabled}`);
      await context.close();
    }
  });

  it('when an Arabic buyer without script pays 3063 (3-D Secure 1), then the hand-off is right to left in Arabic with its متابعة button, and the payment succeeds in Arabic', async () => {
    const created = await newSession({ locale: 'ar' });
    const context = await browser.newContext({ locale: 'ar-TN', javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(created.checkout_url ?? '');
    await payWith(page, 'ar', '4000 0000 0000 3063');
    await page.getByRole('heading', { name: 'جارٍ تحويلك إلى مصرفك' }).waitFor();
    assert.deepEqual(await documentOf(page), { lang: 'ar', dir: 'rtl' });
    await page.getByText('يطلب منك مصرفك تأكيد عملية الدفع هذه.').waitFor();
    await page.getByRole('button', { name: 'متابعة' }).click();
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await handedBack(page, false);
    await page.getByRole('heading', { name: 'تمت عملية الدفع بنجاح' }).waitFor();
    assert.deepEqual(await documentOf(page), { lang: 'ar', dir: 'rtl' });
    await context.close();
  });

  it("when D30's frictionless (3238) and refused (3246) cards are paid in French and in Arabic, then the 3DS Method page and the outcome speak the buyer's language", async () => {
    for (const language of ['fr', 'ar'] as const) {
      const words = CHECKOUT_CATALOGUE.messages[language];
      const frictionless = await newSession({ locale: language });
      const page = await openPage(frictionless.checkout_url ?? '', 'en-US');
      const release = await holdThreeDSMethod(page, new URL(system.envOf('checkout')['SANDBOX_PUBLIC_URL'] ?? '').origin);
      await payWith(page, language, '4000 0000 0000 3238');
      await page.getByRole('heading', { name: words.method_title }).waitFor();
      assert.deepEqual(await documentOf(page), { lang: language, dir: language === 'ar' ? 'rtl' : 'ltr' });
      release();
      await page.getByRole('heading', { name: words.succeeded_title }).waitFor();
      await page.context().close();

      const refused = await newSession({ locale: language });
      const again = await openPage(refused.checkout_url ?? '', 'en-US');
      await payWith(again, language, '4000 0000 0000 3246');
      await again.getByRole('alert').getByText(words.decline_authentication_failed).waitFor();
      assert.equal((await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${refused.id}/`)).body.attempts[0]?.failure_code, 'authentication_failed');
      await again.context().close();
    }
  });
});
