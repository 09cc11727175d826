/**
 * D14: the dashboard works with a keyboard and at 360 px wide. Signing in and
 * moving between sections by keyboard alone, and no page wider than the screen.
 */
import assert from 'node:assert/strict';
import { launchBrowser, TestSystem, type TestBrowser } from '@gateway/testkit';

const PASSWORD = 'correct horse battery staple';

describe('dashboard at 360 px, by keyboard', function () {
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

  it('when a phone-sized screen signs in and opens each section with the keyboard, then nothing is wider than the screen', async () => {
    const merchant = await system.newMerchant();
    await system.admin(['user', 'create', merchant.merchantId, '--email', 'small@shop.example', '--role', 'owner', '--password', PASSWORD]);
    const page = await (await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'en-GB' })).newPage();
    await page.goto(`${system.baseUrl}/dashboard/`);
    await page.getByLabel('Email').focus();
    await page.keyboard.type('small@shop.example');
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();

    for (const section of ['Payments', 'Reports', 'API keys', 'Webhooks', 'Exchange rates', 'Team', 'Audit log', 'Security', 'Home']) {
      const link = page.getByRole('link', { name: section, exact: true });
      await link.focus();
      assert.equal(await page.evaluate('document.activeElement && document.activeElement.textContent'), section, `${section} takes the focus`);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: section }).first().waitFor();
      const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
      assert.ok(width <= 360, `${section} is ${width} px wide at 360`);
    }
  });
});
