/**
 * Payment links (D19) against the whole system (real PostgreSQL, RabbitMQ,
 * the sandbox acquirer): the API's create, read, list and deactivate with
 * bad input and another account's links; the public page paid over HTTP
 * and in Chromium (French and Arabic), an open amount, a single-use link
 * closing once paid, a flood from one address refused, a suspended merchant's
 * page refused, and the QR codes.
 */
import assert from 'node:assert/strict';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import type { PaymentLink, PaymentLinkList, SessionDetail, SessionEventData, SessionList } from '@gateway/contracts';
import { Gateway } from '@gateway/sdk';
import { launchBrowser, payOnPage, pollUntil, sessionRequest, TestSystem, type EventCapture, type Merchant, type TestBrowser } from '@gateway/testkit';

/** The page's flood limit in this system: low, so a flood is a handful of requests. */
const BUYER_LIMIT = 5;

/** jsqr is CommonJS whose types declare an ES default export: under ESM its function is the module itself or its default. */
const jsQR = ((jsQRModule as unknown as { default?: typeof jsQRModule }).default ?? jsQRModule) as unknown as (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;

describe('Payment links', function () {
  this.timeout(90_000);
  let system: TestSystem;
  let browser: TestBrowser;
  let events: EventCapture;

  before(async () => {
    system = await TestSystem.start({ serviceEnv: { checkout: { PAYMENT_LINK_BUYER_LIMIT_PER_MINUTE: String(BUYER_LIMIT) } } });
    [browser, events] = await Promise.all([launchBrowser(), system.captureEvents(['session.*'])]);
  });

  after(async () => {
    await browser?.close();
    await events?.stop();
    await system?.shutdown();
  });

  async function newLink(merchant: Merchant, body: Record<string, unknown>): Promise<PaymentLink> {
    const created = await system.api(merchant.testKey).post<PaymentLink>('/gateway/payment_links/', body);
    assert.equal(created.status, 201, created.text);
    return created.body;
  }

  /** Submits the link page's form as a browser would; the answer, not followed. */
  async function submit(url: string, form: Record<string, string>, acceptLanguage = 'en'): Promise<{ status: number; location: string | null; html: string }> {
    const posted = await fetch(url, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual', headers: { 'accept-language': acceptLanguage } });
    return { status: posted.status, location: posted.headers.get('location'), html: await posted.text() };
  }

  const buyer = { first_name: 'Amina', last_name: 'Ben Salah', email: 'amina@example.com' };

  async function sessionOf(merchant: Merchant, reference: string): Promise<SessionDetail> {
    const list = await system.api(merchant.testKey).get<SessionList>(`/gateway/sessions/list/?merchant_reference=${encodeURIComponent(reference)}`);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.data.length, 1, `one session of ${reference}`);
    assert.equal(list.body.data[0]?.payment_link, reference.split('-')[0], 'the list item names the link');
    const read = await system.api(merchant.testKey).get<SessionDetail>(`/gateway/sessions/${list.body.data[0]?.id}/`);
    return read.body;
  }

  async function paymentsCount(merchant: Merchant, id: string, expected: number): Promise<void> {
    await pollUntil(async () => (await system.api(merchant.testKey).get<PaymentLink>(`/gateway/payment_links/${id}/`)).body.payments_count === expected, 15_000, `payments_count ${expected}`);
  }

  describe('the API', () => {
    it('when a fixed-price link is created, then it answers 201 with a pl_ id, a /pay/<code> url of 12+ base62 characters, its qr_svg_url, and reads back the same', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Handmade bag', amount: '45.000', max_payments: 3, metadata: { sku: 'bag-1' }, items: [{ name: 'Bag', quantity: 1 }] });
      assert.match(link.id, /^pl_[0-9A-Za-z]{20,}$/);
      assert.match(link.url, new RegExp(`^${system.baseUrl}/pay/[0-9A-Za-z]{12,}$`));
      assert.equal(link.qr_svg_url, `${link.url}/qr.svg`);
      assert.deepEqual(
        { active: link.active, payments_count: link.payments_count, amount: link.amount, currency: link.currency, open_amount: link.open_amount, max_payments: link.max_payments, livemode: link.livemode, metadata: link.metadata },
        { active: true, payments_count: 0, amount: '45.000', currency: 'TND', open_amount: false, max_payments: 3, livemode: false, metadata: { sku: 'bag-1' } },
      );
      const read = await system.api(merchant.testKey).get<PaymentLink>(`/gateway/payment_links/${link.id}/`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, link);
    });

    it('when a fixed price is in EUR, then it keeps its currency at its own precision (converted at each payment)', async () => {
      const merchant = await system.newMerchant();
      await system.admin(['rate', 'set', merchant.merchantId, '--mode', 'test', '--currency', 'EUR', '--rate', '3.3325']);
      const link = await newLink(merchant, { description: 'Tour', amount: '20.50', currency: 'EUR' });
      assert.deepEqual([link.amount, link.currency], ['20.50', 'EUR']);
    });

    it('when a create has many bad fields, then one 422 validation-error names each, in request order, and no link is made', async () => {
      const merchant = await system.newMerchant();
      const api = system.api(merchant.testKey);
      const bad = await api.post('/gateway/payment_links/', { amount: '12.5000', description: '', max_payments: 0, return_url: 'javascript:alert(1)', colour: 'red', expires_at: '2001-01-01T00:00:00Z' });
      assert.equal(bad.status, 422, bad.text);
      assert.match(bad.headers.get('content-type') ?? '', /^application\/problem\+json/);
      const errors = (bad.body as { errors: { field: string; code: string }[] }).errors;
      assert.deepEqual(
        errors.map((e) => [e.field, e.code]),
        [
          ['amount', 'invalid_precision'],
          ['description', 'invalid'],
          ['max_payments', 'invalid'],
          ['return_url', 'invalid'],
          ['colour', 'invalid'],
          ['expires_at', 'invalid'],
        ],
      );
      const numeric = await api.post('/gateway/payment_links/', { description: 'x', amount: 12.5 });
      assert.deepEqual((numeric.body as { errors: { field: string; code: string }[] }).errors.map((e) => [e.field, e.code]), [['amount', 'invalid_type']]);
      const open = await api.post('/gateway/payment_links/', { description: 'Tip', open_amount: true, amount_min: '10.000', amount_max: '5.000', amount: '1.000' });
      assert.deepEqual(
        (open.body as { errors: { field: string; code: string }[] }).errors.map((e) => [e.field, e.code]),
        [['amount_max', 'invalid'], ['amount', 'invalid']],
      );
      const tooBig = await api.post('/gateway/payment_links/', { description: 'Tip', open_amount: true, amount_max: '1000000.000' });
      assert.deepEqual((tooBig.body as { errors: { field: string; code: string }[] }).errors.map((e) => [e.field, e.code]), [['amount_max', 'amount_too_large']]);
      const missing = await api.post('/gateway/payment_links/', { description: 'No price' });
      assert.deepEqual((missing.body as { errors: { field: string; code: string }[] }).errors.map((e) => [e.field, e.code]), [['amount', 'required']]);
      const list = await api.get<PaymentLinkList>('/gateway/payment_links/');
      assert.deepEqual(list.body.data, []);
    });

    it('when links are listed, then newest first, with cursors both ways, and a bad query is refused', async () => {
      const merchant = await system.newMerchant();
      const made: PaymentLink[] = [];
      for (const n of [1, 2, 3]) made.push(await newLink(merchant, { description: `Item ${n}`, amount: `${n}.000` }));
      const api = system.api(merchant.testKey);
      const first = await api.get<PaymentLinkList>('/gateway/payment_links/?limit=2');
      assert.deepEqual(first.body.data.map((l) => l.id), [made[2]?.id, made[1]?.id]);
      assert.equal(first.body.has_more, true);
      const next = await api.get<PaymentLinkList>(`/gateway/payment_links/?limit=2&starting_after=${made[1]?.id}`);
      assert.deepEqual([next.body.data.map((l) => l.id), next.body.has_more], [[made[0]?.id], false]);
      const back = await api.get<PaymentLinkList>(`/gateway/payment_links/?limit=1&ending_before=${made[0]?.id}`);
      assert.deepEqual([back.body.data.map((l) => l.id), back.body.has_more], [[made[1]?.id], true]);
      const bad = await api.get(`/gateway/payment_links/?limit=0&colour=red`);
      assert.equal(bad.status, 422);
    });

    it('when the SDK makes, reads, lists and deactivates a link, then paymentLinks answers as the API does, and its errors carry the field problems', async () => {
      const merchant = await system.newMerchant();
      const gateway = new Gateway(merchant.testKey, { baseUrl: system.baseUrl, initialRetryDelayMs: 50 });
      const link = await gateway.paymentLinks.create({ description: 'Via SDK', open_amount: true, amount_max: '20.000' });
      assert.equal((await gateway.paymentLinks.get(link.id)).url, link.url);
      const listed = [];
      for await (const item of gateway.paymentLinks.list({ limit: 1 })) listed.push(item.id);
      assert.deepEqual(listed, [link.id]);
      assert.equal((await gateway.paymentLinks.deactivate(link.id)).active, false);
      await assert.rejects(gateway.paymentLinks.create({ description: 'Bad', amount: '1.5' }), (err: { status?: number; errors?: { field: string }[] }) => err.status === 422 && err.errors?.[0]?.field === 'amount');
    });

    it('when another merchant or the other mode asks for a link, then it is not found, and cannot deactivate it', async () => {
      const [owner, other] = [await system.newMerchant(), await system.newMerchant()];
      const link = await newLink(owner, { description: 'Mine', amount: '5.000' });
      for (const key of [other.testKey, await system.approveLive(owner.merchantId)]) {
        const api = system.api(key);
        assert.equal((await api.get(`/gateway/payment_links/${link.id}/`)).status, 404);
        assert.equal((await api.post(`/gateway/payment_links/${link.id}/deactivate/`)).status, 404);
        assert.deepEqual((await api.get<PaymentLinkList>('/gateway/payment_links/')).body.data, []);
        assert.equal((await api.get(`/gateway/payment_links/?starting_after=${link.id}`)).status, 422);
      }
      assert.equal((await system.api(owner.testKey).get<PaymentLink>(`/gateway/payment_links/${link.id}/`)).body.active, true);
    });

    it('when a link is deactivated, then it answers 200 active false, and its page is gone (410) saying so', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Closing', amount: '5.000', locale: 'en' });
      const deactivated = await system.api(merchant.testKey).post<PaymentLink>(`/gateway/payment_links/${link.id}/deactivate/`);
      assert.equal(deactivated.status, 200);
      assert.equal(deactivated.body.active, false);
      const page = await fetch(link.url);
      assert.equal(page.status, 410);
      assert.match(await page.text(), /no longer available/);
      const posted = await submit(link.url, buyer);
      assert.equal(posted.status, 410);
    });
  });

  describe('the public page', () => {
    it('when a buyer opens a link, then the page shows the merchant, the description escaped, the price and the labelled fields, with the hosted page headers', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: '<script>alert("x")</script><b>Bag</b>', amount: '45.000', collect_phone: true, locale: 'en' });
      const page = await fetch(link.url);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.ok(!html.includes('<script>'), 'no script from the description');
      assert.ok(html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;b&gt;Bag&lt;/b&gt;'), 'the description escaped');
      assert.match(html, /Test Shop \d+/);
      assert.ok(html.includes('TND\u00a045.000'), 'the price');
      for (const label of ['First name', 'Last name', 'Email', 'Phone']) assert.match(html, new RegExp(`<label for="[a-z_]+">${label}</label>`), label);
      assert.ok(!html.includes('>Amount</label>'), 'no amount field on a fixed price');
      assert.match(html, /<button type="submit" class="pay">Continue/);
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      assert.equal((await fetch(`${system.baseUrl}/pay/NoSuchCode12345`)).status, 404);
    });

    it('when a buyer pays a fixed link over HTTP, then a session <link>-1 is made with the link, paid, announced with payment_link, and counted', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Two books', amount: '125.500', items: [{ name: 'Book', quantity: 2 }], metadata: { shelf: 'A' }, locale: 'en', return_url: 'https://shop.example/thanks' });
      const posted = await submit(link.url, buyer);
      assert.equal(posted.status, 303, posted.html);
      assert.match(posted.location ?? '', new RegExp(`^${system.baseUrl}/checkout/`));
      const session = await sessionOf(merchant, `${link.id}-1`);
      assert.deepEqual(
        { amount: session.amount, description: session.description, items: session.items, metadata: session.metadata, return_url: session.return_url, locale: session.locale, payment_link: session.payment_link, buyer: [session.buyer_first_name, session.buyer_last_name, session.buyer_email] },
        { amount: '125.500', description: 'Two books', items: [{ name: 'Book', quantity: 2 }], metadata: { shelf: 'A' }, return_url: 'https://shop.example/thanks', locale: 'en', payment_link: link.id, buyer: ['Amina', 'Ben Salah', 'amina@example.com'] },
      );
      const paid = await payOnPage(posted.location ?? '', { card_number: '4242424242424242' });
      assert.equal(paid.status, 200);
      assert.ok(paid.html.includes('https://shop.example/thanks'), 'the buyer goes on to the link return_url');
      assert.equal((await sessionOf(merchant, `${link.id}-1`)).status, 'SUCCEEDED');
      await paymentsCount(merchant, link.id, 1);
      const [announced] = await events.waitFor<SessionEventData>('session.succeeded', (e) => e.data.session.id === session.id);
      assert.equal(announced?.data.session.payment_link, link.id);
      // Delivered again, or announced again under another id: the payment still counts once.
      const [succeeded] = events.of<SessionEventData>('session.succeeded', (e) => e.data.session.id === session.id);
      assert.ok(succeeded);
      await system.publishEvents([succeeded, succeeded, { ...succeeded, id: `${succeeded.id}x` }]);
      await system.waitForQueueDrained(`${system.prefix}.checkout.events`);
      assert.equal((await system.api(merchant.testKey).get<PaymentLink>(`/gateway/payment_links/${link.id}/`)).body.payments_count, 1);
      // A second buyer gets a session of their own.
      const again = await submit(link.url, { ...buyer, email: 'second@example.com' });
      assert.equal(again.status, 303);
      assert.equal((await sessionOf(merchant, `${link.id}-2`)).buyer_email, 'second@example.com');
    });

    it('when a fixed price is in EUR, then each session converts it at the rate of its creation; once the rate is removed the page says the merchant cannot take it', async () => {
      const merchant = await system.newMerchant();
      await system.admin(['rate', 'set', merchant.merchantId, '--mode', 'test', '--currency', 'EUR', '--rate', '3.3325']);
      const link = await newLink(merchant, { description: 'Guided tour', amount: '20.00', currency: 'EUR', locale: 'en' });
      await system.admin(['rate', 'remove', merchant.merchantId, '--mode', 'test', '--currency', 'EUR']);
      const unrated = await submit(link.url, buyer);
      assert.equal(unrated.status, 422);
      assert.match(unrated.html, /cannot take payments/);
      await system.admin(['rate', 'set', merchant.merchantId, '--mode', 'test', '--currency', 'EUR', '--rate', '3.3325']);
      assert.equal((await submit(link.url, buyer)).status, 303);
      const session = await sessionOf(merchant, `${link.id}-2`);
      assert.deepEqual([session.amount, session.original], ['66.650', { amount: '20.00', currency: 'EUR', rate: '3.332500' }]);
    });

    it('when the buyer form is bad, then the page comes back 422 with each error in the page language, and no session is made', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Gift', open_amount: true, amount_min: '10.000', amount_max: '100.000', locale: 'fr' });
      const page = await fetch(link.url);
      const html = await page.text();
      for (const label of ['Prénom', 'Nom', 'E-mail', 'Montant']) assert.match(html, new RegExp(`>${label}</label>`), label);
      const bad = await submit(link.url, { first_name: '', last_name: 'Ben Salah', email: 'not-an-email', amount: '12.5000' });
      assert.equal(bad.status, 422);
      assert.match(bad.html, /<html lang="fr" dir="ltr">/);
      assert.match(bad.html, /Ce champ est obligatoire\./);
      assert.equal((bad.html.match(/Cette valeur n’est pas valide\./g) ?? []).length, 2, 'email and amount');
      assert.match(bad.html, /value="Ben Salah"/, 'what was typed is put back');
      const low = await submit(link.url, { ...buyer, amount: '5.000' });
      assert.equal(low.status, 422);
      assert.match(low.html, /Le montant doit être d’au moins/);
      const high = await submit(link.url, { ...buyer, amount: '100.001' });
      assert.match(high.html, /Le montant ne doit pas dépasser/);
      const list = await system.api(merchant.testKey).get<SessionList>('/gateway/sessions/list/');
      assert.deepEqual(list.body.data, []);
    });

    it('when a buyer pays an open amount, then the session is for the amount typed, in TND', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Donation', open_amount: true, amount_min: '1.000', locale: 'en' });
      const posted = await submit(link.url, { ...buyer, amount: '37.250' });
      assert.equal(posted.status, 303, posted.html);
      const session = await sessionOf(merchant, `${link.id}-1`);
      assert.deepEqual([session.amount, session.original.currency], ['37.250', 'TND']);
      const paid = await payOnPage(posted.location ?? '', { card_number: '4242424242424242' });
      assert.equal(paid.status, 200);
      await paymentsCount(merchant, link.id, 1);
    });

    it('when a single-use link is paid, then its page answers 410 and the API shows it inactive with one payment', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'One of a kind', amount: '80.000', max_payments: 1, locale: 'en' });
      const posted = await submit(link.url, buyer);
      assert.equal(posted.status, 303);
      await payOnPage(posted.location ?? '', { card_number: '4242424242424242' });
      await paymentsCount(merchant, link.id, 1);
      const page = await fetch(link.url);
      assert.equal(page.status, 410);
      assert.match(await page.text(), /This payment link is no longer available/);
      assert.equal((await submit(link.url, buyer)).status, 410);
      assert.equal((await system.api(merchant.testKey).get<PaymentLink>(`/gateway/payment_links/${link.id}/`)).body.active, false);
    });

    it('when an expired link is opened, then it answers 410', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Soon gone', amount: '1.000', expires_at: new Date(Date.now() + 1_500).toISOString() });
      assert.equal((await fetch(link.url)).status, 200);
      await pollUntil(async () => (await fetch(link.url)).status === 410, 5_000, 'the link expired');
    });

    it('when one address floods a link with session requests, then past the limit a minute it gets 429 with Retry-After, and no more sessions are made', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Popular', amount: '2.000', locale: 'en' });
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      // Twice the limit and one: however a minute's turn splits them, one minute sees more than the limit.
      for (let n = 0; n < 2 * BUYER_LIMIT + 1; n += 1) {
        const posted = await fetch(link.url, { method: 'POST', body: new URLSearchParams(buyer), redirect: 'manual' });
        statuses.push(posted.status);
        if (posted.status === 429) retryAfter = posted.headers.get('retry-after');
        await posted.body?.cancel();
      }
      assert.ok(statuses.includes(429), `statuses ${statuses.join(',')}`);
      assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60);
      const made = statuses.filter((status) => status === 303).length;
      const list = await system.api(merchant.testKey).get<SessionList>('/gateway/sessions/list/?limit=100');
      assert.equal(list.body.data.length, made);
      assert.ok(made <= 2 * BUYER_LIMIT);
    });

    it('when the merchant is suspended, then its link page makes no session and says it cannot take payments', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Paused shop', amount: '4.000', locale: 'en' });
      const made = await system.api(merchant.testKey).post<SessionDetail>('/gateway/sessions/', sessionRequest());
      assert.equal(made.status, 201, made.text);
      await system.admin(['merchant', 'suspend', merchant.merchantId]);
      // The session service hears of the suspension by its event: the hosted page of an API session shows when it has.
      await pollUntil(async () => (await fetch(made.body.checkout_url ?? '')).status === 403, 10_000, 'the suspension heard');
      const refused = await submit(link.url, buyer);
      assert.equal(refused.status, 403);
      assert.match(refused.html, /cannot take payments/);
      await system.admin(['merchant', 'reactivate', merchant.merchantId]);
      const sessions = (await system.api(merchant.testKey).get<SessionList>('/gateway/sessions/list/')).body.data;
      assert.deepEqual(sessions.filter((session) => session.payment_link !== undefined), []);
    });

    it('when the QR codes are fetched, then the SVG is an SVG QR code and the PNG decodes to the link url, without a key, cacheable', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Market stall', open_amount: true });
      const svg = await fetch(link.qr_svg_url);
      assert.equal(svg.status, 200);
      assert.match(svg.headers.get('content-type') ?? '', /^image\/svg\+xml/);
      assert.match(svg.headers.get('cache-control') ?? '', /public, max-age=\d+/);
      const text = await svg.text();
      assert.match(text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"/);
      assert.match(text, /<path [^>]*d="M/);
      const png = await fetch(`${link.url}/qr.png`);
      assert.equal(png.headers.get('content-type'), 'image/png');
      const bytes = Buffer.from(await png.arrayBuffer());
      assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const image = PNG.sync.read(bytes);
      const decoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
      assert.equal(decoded?.data, link.url);
    });
  });

  describe('in a browser', () => {
    it('when a buyer pays a French link in Chromium, then the French page leads to the French checkout page and the payment succeeds', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'Tapis berbère', amount: '250.000', locale: 'fr' });
      const page = await browser.newPage();
      await page.goto(link.url);
      assert.equal(await page.getAttribute('html', 'lang'), 'fr');
      await page.getByLabel('Prénom').fill('Amina');
      await page.getByLabel('Nom', { exact: true }).fill('Ben Salah');
      await page.getByLabel('E-mail').fill('amina@example.com');
      await page.getByRole('button', { name: /^Continuer/ }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/checkout/'));
      await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
      await page.getByLabel("Date d'expiration").fill('12/34');
      await page.getByLabel('Code de sécurité').fill('123');
      await page.getByLabel('Nom du titulaire de la carte').fill('Amina Ben Salah');
      await page.locator('form.payment-form').getByRole('button', { name: /^Payer/ }).click();
      await page.getByText('Paiement accepté').first().waitFor();
      await paymentsCount(merchant, link.id, 1);
      await page.close();
    });

    it('when a buyer pays an Arabic open-amount link in Chromium, then the page is right to left and the payment succeeds', async () => {
      const merchant = await system.newMerchant();
      const link = await newLink(merchant, { description: 'تبرع', open_amount: true, amount_max: '500.000', locale: 'ar', collect_phone: true });
      const page = await browser.newPage();
      await page.goto(link.url);
      assert.deepEqual([await page.getAttribute('html', 'lang'), await page.getAttribute('html', 'dir')], ['ar', 'rtl']);
      await page.getByLabel('الاسم').fill('Amina');
      await page.getByLabel('اللقب').fill('Ben Salah');
      await page.getByLabel('البريد الإلكتروني').fill('amina@example.com');
      await page.getByLabel('الهاتف').fill('+21620123456');
      await page.getByLabel('المبلغ').fill('15.500');
      await page.getByRole('button', { name: /^متابعة/ }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/checkout/'));
      assert.equal(await page.getAttribute('html', 'dir'), 'rtl');
      await page.getByLabel('رقم البطاقة').fill('4242 4242 4242 4242');
      await page.getByLabel('تاريخ انتهاء الصلاحية').fill('12/34');
      await page.getByLabel('رمز الأمان').fill('123');
      await page.getByLabel('اسم حامل البطاقة').fill('Amina Ben Salah');
      await page.locator('form.payment-form').getByRole('button', { name: /^ادفع/ }).click();
      await page.getByText('تمت عملية الدفع بنجاح').first().waitFor();
      await paymentsCount(merchant, link.id, 1);
      const session = await sessionOf(merchant, `${link.id}-1`);
      assert.deepEqual([session.amount, session.buyer_phone, session.locale], ['15.500', '+21620123456', 'ar']);
      await page.close();
    });
  });
});
