/**
 * The dashboard in Arabic, right to left (issue 29), in Chromium against the
 * real services: the language switch offers العربية beside English and
 * French, the choice stays (across pages and signing out), the page is
 * `lang="ar" dir="rtl"` and laid out as the mirror of the English one, its
 * links and buttons read in Arabic while amounts and ids stay left to right,
 * and English comes back as it was. A browser that asks for Arabic gets it.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { launchBrowser, sessionRequest, TestSystem, type Merchant, type TestBrowser } from '@gateway/testkit';

const PASSWORD = 'correct horse battery staple';

/** The merchant dashboard's sections, as the payments page lists them to an owner, in English and in Arabic. */
const SECTIONS: readonly (readonly [string, string])[] = [
  ['Payments', 'المدفوعات'],
  ['API keys', 'مفاتيح API'],
  ['Webhooks', 'إشعارات Webhook'],
  ['Exchange rates', 'أسعار الصرف'],
  ['Team', 'الفريق'],
  ['Audit log', 'سجل التدقيق'],
  ['Security', 'الأمان'],
];

describe('dashboard in Arabic, right to left, in a browser', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let browser: TestBrowser;

  before(async () => {
    system = await TestSystem.start({ readyTimeoutMs: 60_000 });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await system?.shutdown();
  });

  async function owner(merchant: Merchant): Promise<string> {
    const email = `owner.${merchant.merchantId.slice(-8).toLowerCase()}@shop.example`;
    await system.admin(['user', 'create', merchant.merchantId, '--email', email, '--role', 'owner', '--password', PASSWORD]);
    return email;
  }

  async function signIn(page: Page, email: string, labels = { email: 'Email', password: 'Password', button: 'Sign in' }): Promise<void> {
    await page.goto(`${system.baseUrl}/dashboard/`);
    await page.getByLabel(labels.email).fill(email);
    await page.getByLabel(labels.password).fill(PASSWORD);
    await page.getByRole('button', { name: labels.button }).click();
  }

  const attribute = (page: Page, name: 'lang' | 'dir') => page.locator('html').getAttribute(name);
  const sections = (page: Page) => page.getByRole('navigation', { name: /Sections|الأقسام/ });

  it('when an owner switches to العربية, then the payments list is right to left and reads in Arabic, the choice stays, and English comes back', async () => {
    const merchant = await system.newMerchant();
    const created = await system.api(merchant.testKey).post<{ id: string }>('/gateway/sessions/', sessionRequest({ amount: '125.500' }));
    assert.match(created.body.id ?? '', /^ps_/, created.text);
    const email = await owner(merchant);
    const page = await (await browser.newContext({ locale: 'en-GB' })).newPage();
    await signIn(page, email);
    // The dashboard opens on Home (D21); this test reads the payments list.
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();
    await sections(page).getByRole('link', { name: 'Payments', exact: true }).click();
    await page.getByRole('heading', { name: 'Payments' }).waitFor();
    assert.deepEqual([await attribute(page, 'lang'), await attribute(page, 'dir')], ['en', 'ltr']);
    const englishFirst = await sections(page).getByRole('link', { name: 'Payments', exact: true }).boundingBox();
    const englishSecond = await sections(page).getByRole('link', { name: 'API keys', exact: true }).boundingBox();
    assert.ok(englishFirst && englishSecond && englishFirst.x < englishSecond.x, 'left to right, the first section is leftmost');

    // The switch offers the two other languages, each in its own words.
    assert.ok(await page.getByRole('link', { name: 'Français' }).isVisible());
    await page.getByRole('link', { name: 'العربية' }).click();
    await page.getByRole('heading', { name: 'المدفوعات' }).waitFor();
    assert.deepEqual([await attribute(page, 'lang'), await attribute(page, 'dir')], ['ar', 'rtl']);
    assert.equal(await page.evaluate('getComputedStyle(document.body).direction'), 'rtl');

    // The navigation and the buttons of the payments list read in Arabic; no English section name is left.
    for (const [english, arabic] of SECTIONS) {
      assert.equal(await sections(page).getByRole('link', { name: arabic, exact: true }).count(), 1, arabic);
      assert.equal(await sections(page).getByRole('link', { name: english, exact: true }).count(), 0, english);
    }
    assert.ok(await page.getByRole('button', { name: 'تصفية', exact: true }).isVisible());
    assert.ok(await page.getByRole('button', { name: 'تسجيل الخروج' }).isVisible());
    assert.equal(await page.getByRole('button', { name: 'Filter' }).count(), 0);
    assert.ok(await page.getByLabel('بحث').isVisible());
    assert.ok(await page.getByRole('link', { name: 'English' }).isVisible());
    assert.ok(await page.getByRole('link', { name: 'Français' }).isVisible());
    assert.equal(await page.getByRole('link', { name: 'العربية' }).count(), 0, 'the switch offers the other languages');

    // Mirrored: the first section is now rightmost; the amount stays one left-to-right run.
    const arabicFirst = await sections(page).getByRole('link', { name: 'المدفوعات', exact: true }).boundingBox();
    const arabicSecond = await sections(page).getByRole('link', { name: 'مفاتيح API', exact: true }).boundingBox();
    assert.ok(arabicFirst && arabicSecond && arabicFirst.x > arabicSecond.x, 'right to left, the first section is rightmost');
    const amount = page.locator('td.num bdi').first();
    assert.equal(await amount.textContent(), '125.500 TND');
    assert.equal(await page.evaluate("getComputedStyle(document.querySelector('td.num bdi')).unicodeBidi"), 'isolate');
    const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
    const viewport = Number(await page.evaluate('document.documentElement.clientWidth'));
    assert.ok(width <= viewport, `the page is ${width} px wide in a ${viewport} px window`);

    // One payment's page: its facts in Arabic, its id left to right.
    await page.locator(`a[href$="/payments/${created.body.id}"]`).click();
    await page.getByText('طريقة التحصيل').waitFor();
    assert.equal(await page.evaluate("getComputedStyle(document.querySelector('dd code')).direction"), 'ltr');

    // The choice stays: another section, and the sign-in page after signing out.
    await sections(page).getByRole('link', { name: 'مفاتيح API', exact: true }).click();
    await page.getByRole('heading', { name: /مفاتيح API/ }).waitFor();
    assert.ok(await page.getByRole('button', { name: 'إنشاء مفتاح' }).isVisible());
    assert.equal(await attribute(page, 'dir'), 'rtl');
    await page.getByRole('button', { name: 'تسجيل الخروج' }).click();
    await page.getByRole('button', { name: 'تسجيل الدخول' }).waitFor();
    assert.deepEqual([await attribute(page, 'lang'), await attribute(page, 'dir')], ['ar', 'rtl']);
    await signIn(page, email, { email: 'البريد الإلكتروني', password: 'كلمة المرور', button: 'تسجيل الدخول' });
    await page.getByRole('heading', { name: 'الرئيسية', exact: true }).waitFor();
    await sections(page).getByRole('link', { name: 'المدفوعات', exact: true }).click();
    await page.getByRole('heading', { name: 'المدفوعات' }).waitFor();

    // And back to English, as it was.
    await page.getByRole('link', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Payments' }).waitFor();
    assert.deepEqual([await attribute(page, 'lang'), await attribute(page, 'dir')], ['en', 'ltr']);
    for (const [english] of SECTIONS) assert.equal(await sections(page).getByRole('link', { name: english, exact: true }).count(), 1, english);
    assert.ok(await page.getByRole('button', { name: 'Filter', exact: true }).isVisible());
    assert.equal(await page.evaluate('getComputedStyle(document.body).direction'), 'ltr');
  });

  it('when a browser that asks for Arabic opens the dashboard with no choice made, then it is in Arabic, right to left', async () => {
    const page = await (await browser.newContext({ locale: 'ar-TN' })).newPage();
    await page.goto(`${system.baseUrl}/dashboard/`);
    await page.getByRole('button', { name: 'تسجيل الدخول' }).waitFor();
    assert.deepEqual([await attribute(page, 'lang'), await attribute(page, 'dir')], ['ar', 'rtl']);
    assert.ok(await page.getByRole('heading', { name: 'لوحة التحكم' }).isVisible());
    assert.ok(await page.getByRole('link', { name: 'English' }).isVisible());
  });
});
