/**
 * The dashboard's Payment links page (D19) against the real services: a link
 * created in Chromium, its QR code and its download, paid on its public page
 * and then seen used up with its payment; an open amount in French; refused
 * input; a viewer's reach, another merchant's link, and "Deactivate".
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { PaymentLink, PaymentLinkList } from '@gateway/contracts';
import { launchBrowser, pollUntil, sessionRequest, signInToDashboard, TestSystem, Visitor, type Merchant, type TestBrowser } from '@gateway/testkit';
import { payWith } from '../checkout/browser.js';
import { snap } from './screenshots.js';

const PASSWORD = 'correct horse battery staple';

describe('dashboard payment links', function () {
  this.timeout(180_000);
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

  const userOf = (merchant: Merchant, role: 'owner' | 'developer' | 'viewer') => system.dashboardUser(merchant.merchantId, role, PASSWORD);

  async function visitorOf(merchant: Merchant, role: 'owner' | 'developer' | 'viewer'): Promise<Visitor> {
    const visitor = new Visitor(system.baseUrl);
    const answer = await visitor.post('/dashboard/sign-in', { email: await userOf(merchant, role), password: PASSWORD });
    assert.equal(answer.status, 303, answer.html);
    return visitor;
  }

  async function links(merchant: Merchant): Promise<PaymentLink[]> {
    const list = await system.api(merchant.testKey).get<PaymentLinkList>('/gateway/payment_links/');
    assert.equal(list.status, 200, list.text);
    return list.body.data;
  }

  async function openLinks(page: Page, name = 'Payment links'): Promise<void> {
    await page.getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: new RegExp(`^${name}`) }).waitFor();
  }

  it('when a developer creates a single-use link in Chromium and a buyer pays it, then its URL, QR code and SVG show, and the page shows its one payment, the link used up and its public page gone (410)', async () => {
    const merchant = await system.newMerchant();
    // A session of the merchant's own, not made through the link: the link's page must not list it.
    assert.equal((await system.api(merchant.testKey).post('/gateway/sessions/', sessionRequest())).status, 201);
    const page = await signInToDashboard(browser, system.baseUrl, await userOf(merchant, 'developer'), PASSWORD);
    await openLinks(page);
    await page.getByLabel('Description').fill('Handmade bag');
    await page.getByLabel('Fixed price').check();
    await page.getByLabel('Amount', { exact: true }).fill('45.000');
    assert.equal(await page.getByLabel('Currency').inputValue(), 'TND', 'TND by default');
    await page.getByLabel('Payments allowed').fill('1');
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByText('Link created. Share its address:').waitFor();

    const [made] = await links(merchant);
    assert.ok(made);
    assert.deepEqual([made.description, made.amount, made.currency, made.max_payments, made.open_amount], ['Handmade bag', '45.000', 'TND', 1, false]);
    const row = page.locator(`tr[data-link="${made.id}"]`);
    assert.equal((await row.locator('[data-field="url"]').textContent())?.trim(), made.url);
    assert.equal(await row.locator('[data-field="state"]').textContent(), 'active');
    // The QR code is shown: its image loaded from the link's qr.svg.
    const qr = row.getByRole('img', { name: `QR code of ${made.url}` });
    assert.equal(await qr.getAttribute('src'), `${made.url}/qr.svg`);
    await pollUntil(async () => (await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) > 0, 10_000, 'the QR code image loaded');

    // "Download SVG" saves the SVG (the download attribute), served as image/svg+xml.
    await snap(page, 'dashboard-payment-links');
    const [file] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: 'Download SVG' }).click()]);
    assert.equal(file.suggestedFilename(), `${made.id}.svg`);
    const svg = await readFile(await file.path(), 'utf8');
    assert.match(svg, /<svg[\s>]/);
    const served = await fetch(`${made.url}/qr.svg`);
    assert.match(served.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    await served.body?.cancel();
    assert.equal(await row.getByRole('link', { name: 'Download PNG' }).getAttribute('href'), `${made.url}/qr.png`);

    // The buyer opens the link and pays on the hosted page.
    const buyer = await browser.newPage();
    await buyer.goto(made.url);
    await buyer.getByLabel('First name').fill('Amina');
    await buyer.getByLabel('Last name').fill('Ben Salah');
    await buyer.getByLabel('Email').fill('amina@example.com');
    await buyer.getByRole('button', { name: /^Continue/ }).click();
    await buyer.waitForURL((url) => url.pathname.startsWith('/checkout/'));
    await payWith(buyer, { number: '4242 4242 4242 4242' });
    await buyer.getByText('Payment successful').first().waitFor();
    await buyer.close();

    await page.getByRole('link', { name: 'Handmade bag' }).click();
    await pollUntil(
      async () => {
        await page.reload();
        return (await page.locator('[data-field="payments_count"]').textContent()) === '1';
      },
      20_000,
      'the payment counted on the link',
    );
    assert.equal(await page.locator('h1 [data-field="state"]').textContent(), 'used up');
    assert.equal(await page.getByRole('button', { name: 'Deactivate' }).count(), 0, 'a closed link has nothing to deactivate');
    await snap(page, 'dashboard-payment-link');
    const payments = page.locator('table tbody tr');
    assert.equal(await payments.count(), 1, 'only the payment made through the link');
    assert.match((await payments.first().textContent()) ?? '', new RegExp(`${made.id}-1`));
    assert.match((await payments.first().textContent()) ?? '', /SUCCEEDED/);
    // Each payment opens the payment's own page, which names the link.
    await payments.first().getByRole('link').first().click();
    await page.waitForURL(/\/dashboard\/payments\/ps_/);
    assert.equal((await page.locator('[data-field="payment_link"]').textContent())?.trim(), made.id);
    await page.locator('[data-field="payment_link"] a').click();
    await page.waitForURL(new RegExp(`/dashboard/payment-links/${made.id}$`));

    // The list says the same, and the public page is gone.
    await openLinks(page);
    assert.equal(await page.locator(`tr[data-link="${made.id}"] [data-field="state"]`).textContent(), 'used up');
    assert.equal((await fetch(made.url)).status, 410);
    // The Payments list names the link too.
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    assert.equal(await page.locator('[data-field="payment_link"]').count(), 1);
    // The API's session list takes no payment_link filter: its filters are unchanged.
    assert.equal((await system.api(merchant.testKey).get(`/gateway/sessions/list/?payment_link=${made.id}`)).status, 422);

    // D14: at 360 px nothing is wider than the screen (tables scroll inside their card).
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ['/dashboard/payment-links', `/dashboard/payment-links/${made.id}`]) {
      await page.goto(`${system.baseUrl}${path}`);
      const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
      assert.ok(width <= 360, `${path} is ${width} px wide at 360`);
    }
    await page.close();
  });

  it('when an owner reading French creates an open-amount link, then the page and its outcome are in French, and the link takes the bounds', async () => {
    const merchant = await system.newMerchant();
    const page = await signInToDashboard(browser, system.baseUrl, await userOf(merchant, 'owner'), PASSWORD);
    await openLinks(page);
    await page.getByRole('link', { name: 'Français' }).click();
    await page.getByRole('heading', { level: 1, name: /^Liens de paiement/ }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
    await page.getByLabel('Description').fill('Don libre');
    await page.getByLabel('Montant libre').check();
    await page.getByLabel('Montant minimum (TND)').fill('5.000');
    await page.getByLabel('Montant maximum (TND)').fill('500.000');
    await page.getByLabel('Langue de la page').selectOption('fr');
    await page.getByLabel("Demander un numéro de téléphone à l'acheteur").check();
    await page.getByRole('button', { name: 'Créer un lien' }).click();
    await page.getByText('Lien créé. Partagez son adresse :').waitFor();
    const [made] = await links(merchant);
    assert.ok(made);
    assert.deepEqual([made.open_amount, made.amount, made.amount_min, made.amount_max, made.locale, made.collect_phone, made.max_payments], [true, null, '5.000', '500.000', 'fr', true, null]);
    const row = page.locator(`tr[data-link="${made.id}"]`);
    assert.match((await row.textContent()) ?? '', /Montant libre/);
    assert.equal(await row.locator('[data-field="state"]').textContent(), 'actif');
    assert.ok(await row.getByRole('link', { name: 'Télécharger en SVG' }).isVisible());
    assert.equal(await row.getByRole('button', { name: 'Désactiver' }).count(), 1);
    await page.close();
  });

  it('when the form is refused (empty description, an amount with 4 decimals, a minimum above the maximum), then the errors show beside the form as filled, and no link is made', async () => {
    const merchant = await system.newMerchant();
    const developer = await visitorOf(merchant, 'developer');
    const token = await developer.csrf('/dashboard/payment-links');

    const fixed = await developer.post('/dashboard/payment-links', { _csrf: token, description: '', pricing: 'fixed', amount: '12.3456', currency: 'TND', max_payments: '' });
    assert.equal(fixed.status, 422);
    assert.match(fixed.html, /description must be at least 1 characters long\./);
    assert.match(fixed.html, /amount must have exactly 3 decimal places for TND\./);
    assert.match(fixed.html, /name="amount" inputmode="decimal" value="12\.3456"/, 'the form comes back as filled');

    const open = await developer.post('/dashboard/payment-links', { _csrf: token, description: 'Tip', pricing: 'open', amount_min: '10.000', amount_max: '5.000' });
    assert.equal(open.status, 422);
    assert.match(open.html, /amount_max must not be less than amount_min\./);
    assert.match(open.html, /name="pricing" value="open" checked/);

    // D29: a currency the merchant has no rate for, refused by the API's own rule.
    const unrated = await developer.post('/dashboard/payment-links', { _csrf: token, description: 'Tour', pricing: 'fixed', amount: '20.00', currency: 'EUR', max_payments: '' });
    assert.equal(unrated.status, 422);
    assert.match(unrated.html, /<code>currency<\/code>: No exchange rate is configured for EUR/);

    // In the viewer's language.
    const french = await developer.post('/dashboard/payment-links', { _csrf: token, description: 'Tip', pricing: 'open', amount_min: '10.000', amount_max: '5.000' }, { 'accept-language': 'fr' });
    assert.equal(french.status, 422);
    assert.match(french.html, /le montant maximum ne doit pas être inférieur au montant minimum\./);
    const unratedFrench = await developer.post('/dashboard/payment-links', { _csrf: token, description: 'Tour', pricing: 'fixed', amount: '20.00', currency: 'EUR', max_payments: '' }, { 'accept-language': 'fr' });
    assert.equal(unratedFrench.status, 422);
    assert.match(unratedFrench.html, /<code>currency<\/code>: Aucun taux de change n’est configuré pour EUR ; demandez en TND ou configurez un taux\./);

    assert.deepEqual(await links(merchant), []);
    assert.match((await developer.get('/dashboard/payment-links')).html, /No payment links yet\./);
  });

  it("when a viewer opens the page, then there is no Create form, and a forged create is refused (403) making nothing; another merchant's link is not found; live mode before verification creates none; Deactivate closes the link (410)", async () => {
    const [merchant, other] = [await system.newMerchant(), await system.newMerchant()];
    const mine = (await system.api(merchant.testKey).post<PaymentLink>('/gateway/payment_links/', { description: 'Mine', amount: '5.000' })).body;
    const theirs = (await system.api(other.testKey).post<PaymentLink>('/gateway/payment_links/', { description: 'Theirs', amount: '7.000' })).body;

    const viewer = await visitorOf(merchant, 'viewer');
    const page = await viewer.get('/dashboard/payment-links');
    assert.equal(page.status, 200);
    assert.ok(page.html.includes(mine.url), 'a viewer reads the links');
    assert.ok(!page.html.includes('Create link'), 'no Create form for a viewer');
    assert.ok(!page.html.includes('/deactivate'), 'no Deactivate for a viewer');
    const token = await viewer.csrf('/dashboard/payment-links');
    assert.equal((await viewer.post('/dashboard/payment-links', { _csrf: token, description: 'Forged', pricing: 'fixed', amount: '1.000' })).status, 403);
    assert.equal((await viewer.post(`/dashboard/payment-links/${mine.id}/deactivate`, { _csrf: token })).status, 403);
    assert.deepEqual((await links(merchant)).map((l) => [l.id, l.active]), [[mine.id, true]]);

    const developer = await visitorOf(merchant, 'developer');
    const devToken = await developer.csrf('/dashboard/payment-links');
    const foreign = await developer.get(`/dashboard/payment-links/${theirs.id}`);
    assert.equal(foreign.status, 404);
    assert.ok(!foreign.html.includes(theirs.url));
    assert.equal((await developer.post(`/dashboard/payment-links/${theirs.id}/deactivate`, { _csrf: devToken })).status, 404);
    assert.equal((await system.api(other.testKey).get<PaymentLink>(`/gateway/payment_links/${theirs.id}/`)).body.active, true, "the other merchant's link is untouched");
    assert.equal((await fetch(theirs.url)).status, 200);

    // Live mode before the business is verified: no Create form, and a create is refused.
    assert.equal((await developer.post('/dashboard/mode', { _csrf: devToken, mode: 'live' })).status, 303);
    const live = await developer.get('/dashboard/payment-links');
    assert.ok(!live.html.includes('Create link') && !live.html.includes(mine.url), 'live mode shows no test link and no Create form');
    const refused = await developer.post('/dashboard/payment-links', { _csrf: devToken, description: 'Live', pricing: 'fixed', amount: '1.000' });
    assert.equal(refused.status, 403);
    assert.match(refused.html, /Live payments open once your business is verified\./);
    assert.match((await developer.get('/dashboard/payment-links')).html, /No payment links yet\./);
    assert.equal((await developer.post('/dashboard/mode', { _csrf: devToken, mode: 'test' })).status, 303);

    const deactivated = await developer.post(`/dashboard/payment-links/${mine.id}/deactivate`, { _csrf: devToken });
    assert.equal(deactivated.status, 200);
    assert.match(deactivated.html, /Link deactivated: its page no longer takes payments\./);
    assert.match(deactivated.html, /data-state="inactive"/);
    assert.equal((await fetch(mine.url)).status, 410);
    assert.equal((await system.api(merchant.testKey).get<PaymentLink>(`/gateway/payment_links/${mine.id}/`)).body.active, false);
  });

  it('when an id is no payment link id (a NUL, a quote, a short id), then the link page, its Deactivate, the payment page and the API answer not found (404), never a server error', async () => {
    const merchant = await system.newMerchant();
    const mine = (await system.api(merchant.testKey).post<PaymentLink>('/gateway/payment_links/', { description: 'Mine', amount: '5.000' })).body;
    const developer = await visitorOf(merchant, 'developer');
    const token = await developer.csrf('/dashboard/payment-links');
    const api = system.api(merchant.testKey);
    for (const id of ['%00', `${mine.id}%00`, 'pl_%27', 'pl_short']) {
      const page = await developer.get(`/dashboard/payment-links/${id}`);
      assert.equal(page.status, 404, `the page of ${id}`);
      assert.match(page.html, /No such payment link\./);
      assert.equal((await developer.post(`/dashboard/payment-links/${id}/deactivate`, { _csrf: token })).status, 404, `Deactivate of ${id}`);
      const got = await api.get(`/gateway/payment_links/${id}/`);
      assert.equal(got.status, 404, `GET ${id}: ${got.text}`);
      assert.match(got.text, /not-found/);
      assert.equal((await api.post(`/gateway/payment_links/${id}/deactivate/`)).status, 404, `deactivate ${id}`);
    }
    const cursor = await api.get('/gateway/payment_links/?starting_after=%00');
    assert.equal(cursor.status, 422, cursor.text);
    assert.match(cursor.text, /starting_after/);
    const listed = await developer.get('/dashboard/payment-links?starting_after=%00');
    assert.equal(listed.status, 422, 'the list page with a NUL cursor');
    assert.match(listed.html, /starting_after/);
    const payment = await developer.get('/dashboard/payments/%00');
    assert.equal(payment.status, 404, 'the payment page of a NUL id');
    assert.equal((await api.get('/gateway/sessions/%00/')).status, 404);
    assert.equal((await api.get<PaymentLink>(`/gateway/payment_links/${mine.id}/`)).body.active, true, 'the link is untouched');
  });
});
