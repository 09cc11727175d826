/**
 * A merchant's branding and receipts switch (D20) against the real services:
 * set from the dashboard's Settings page (session cookie, CSRF, the logo as a
 * multipart upload), shown on the hosted page and the payment link page,
 * served by the checkout as uploaded with headers that let nothing run, and
 * carried by the receipts. Hostile or oversize logos, bad colours and a
 * viewer's changes are refused and change nothing; another merchant is
 * untouched; receipts off in test mode write no receipt, live stays on.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { PNG } from 'pngjs';
import { newId } from '@gateway/contracts';
import { payOnPage, pollUntil, sessionRequest, TestSystem, Visitor, type Merchant } from '@gateway/testkit';

const PASSWORD = 'correct horse battery staple';
const ACCENT = '#1A4D2E';

type Branding = { accent_color: string | null; logo_type: string | null; logo_sha256: string | null };

function png(width: number, height: number, fill = 0x40): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(fill);
  return PNG.sync.write(image);
}

/** A real PNG of over 2 MB: random pixels do not compress. */
function bigPng(): Buffer {
  const image = new PNG({ width: 1024, height: 600 });
  randomBytes(image.data.length).copy(image.data);
  const bytes = PNG.sync.write(image);
  assert.ok(bytes.length > 2 * 1024 * 1024, `the PNG is ${bytes.length} bytes`);
  return bytes;
}

describe('Merchant branding and the receipts switch (D20)', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let branded: Merchant;
  let other: Merchant;
  let brandedName: string;
  let owner: Visitor;
  let logoBytes: Buffer;

  let emails = 0;
  async function signedIn(merchant: Merchant, role: 'owner' | 'developer' | 'viewer'): Promise<Visitor> {
    emails += 1;
    const email = `${role}${emails}-${newId('ps').slice(3, 11).toLowerCase()}@shop.example`;
    await system.admin(['user', 'create', merchant.merchantId, '--email', email, '--role', role, '--password', PASSWORD]);
    const visitor = new Visitor(system.baseUrl);
    const answer = await visitor.post('/dashboard/sign-in', { email, password: PASSWORD });
    assert.equal(answer.status, 303, answer.html);
    return visitor;
  }

  /** The logo form as a browser sends it: the CSRF field first, then the file. */
  async function upload(visitor: Visitor, file: Buffer, name: string, type: string): Promise<{ status: number; html: string }> {
    const token = await visitor.csrf('/dashboard/settings');
    const form = new FormData();
    form.append('_csrf', token);
    form.append('logo', new Blob([file], { type }), name);
    const res = await fetch(`${system.baseUrl}/dashboard/settings/logo`, { method: 'POST', redirect: 'manual', body: form, headers: { cookie: visitor.cookies, 'accept-language': 'en' } });
    return { status: res.status, html: await res.text() };
  }

  async function setAccent(visitor: Visitor, color: string): Promise<{ status: number; html: string }> {
    return visitor.post('/dashboard/settings/accent', { _csrf: await visitor.csrf('/dashboard/settings'), accent_color: color });
  }

  const brandingOf = async (merchant: Merchant): Promise<Branding | undefined> =>
    (await system.db.query<Branding>('SELECT accent_color, logo_type, logo_sha256 FROM checkout.merchant_branding WHERE merchant_id = $1', [merchant.merchantId]))[0];

  before(async () => {
    system = await TestSystem.start();
    branded = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    other = await system.newMerchant({ limits: { account: 10_000, create: 10_000, refund: 10_000 } });
    // Test-mode receipts are off until a merchant turns them on (D29): both do, as the Settings page would.
    for (const merchant of [branded, other]) await system.send('receipts.settings.set', { merchant_id: merchant.merchantId, mode: 'test', receipts_enabled: true });
    brandedName = (await system.db.query<{ name: string }>('SELECT name FROM api_gateway.merchants WHERE id = $1', [branded.merchantId]))[0]?.name ?? '';
    owner = await signedIn(branded, 'owner');
    logoBytes = png(160, 48);
  });
  after(async () => {
    await system?.shutdown();
  });

  it('when an owner uploads a PNG logo and sets an accent colour in Settings, then the hosted page and the link page show them, and the logo is served as uploaded with headers that let nothing run', async () => {
    const uploaded = await upload(owner, logoBytes, 'logo.png', 'image/png');
    assert.equal(uploaded.status, 200, uploaded.html);
    assert.match(uploaded.html, /Logo saved\./);
    const colored = await setAccent(owner, ACCENT);
    assert.equal(colored.status, 200, colored.html);
    assert.match(colored.html, /Accent colour saved: #1a4d2e\./);
    const sha = createHash('sha256').update(logoBytes).digest('hex');
    assert.deepEqual(await brandingOf(branded), { accent_color: '#1a4d2e', logo_type: 'image/png', logo_sha256: sha });
    const logoPath = `/checkout/brand/${sha}.png`;
    const settings = await owner.get('/dashboard/settings');
    assert.ok(settings.html.includes(`src="${logoPath}"`), 'the page previews the logo from this origin');

    const session = await system.api(branded.testKey).post<{ checkout_url: string }>('/gateway/sessions/', sessionRequest({ amount: '12.500' }));
    assert.equal(session.status, 201, session.text);
    const page = await fetch(session.body.checkout_url, { headers: { 'accept-language': 'en' } });
    const hosted = await page.text();
    assert.equal(page.status, 200);
    assert.ok(hosted.includes(`<img src="${logoPath}" alt="${brandedName}">`), 'the hosted page shows the logo');
    assert.ok(hosted.includes('<link rel="stylesheet" href="/checkout/brand/accent-1a4d2e.css">'), 'the hosted page takes the accent colour');
    assert.match(page.headers.get('content-security-policy') ?? '', /style-src 'self'; img-src 'self'/, 'the page CSP is unchanged');

    const link = await system.api(branded.testKey).post<{ url: string }>('/gateway/payment_links/', { description: 'Olive oil', amount: '20.000' });
    assert.equal(link.status, 201, link.text);
    const linkPage = await (await fetch(link.body.url, { headers: { 'accept-language': 'fr' } })).text();
    assert.ok(linkPage.includes(`<img src="${logoPath}" alt="${brandedName}">`), 'the link page shows the logo');
    assert.ok(linkPage.includes('/checkout/brand/accent-1a4d2e.css'));

    const css = await fetch(`${system.baseUrl}/checkout/brand/accent-1a4d2e.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    assert.match(await css.text(), /--accent: #1a4d2e;/);

    const logo = await fetch(`${system.baseUrl}${logoPath}`);
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get('content-type'), 'image/png');
    assert.equal(logo.headers.get('x-content-type-options'), 'nosniff');
    assert.match(logo.headers.get('cache-control') ?? '', /immutable/);
    assert.ok(Buffer.from(await logo.arrayBuffer()).equals(logoBytes), 'the exact bytes uploaded');
    assert.equal((await fetch(`${system.baseUrl}/checkout/brand/${'0'.repeat(64)}.png`)).status, 404);
  });

  it('when a safe SVG logo is uploaded, then it is served as image/svg+xml under a policy that runs nothing', async () => {
    const developer = await signedIn(branded, 'developer');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><title>Shop</title><circle cx="5" cy="5" r="4" fill="#1a4d2e"/></svg>');
    const uploaded = await upload(developer, svg, 'logo.svg', 'image/svg+xml');
    assert.equal(uploaded.status, 200, uploaded.html);
    const sha = createHash('sha256').update(svg).digest('hex');
    const logo = await fetch(`${system.baseUrl}/checkout/brand/${sha}.svg`);
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get('content-type'), 'image/svg+xml');
    assert.equal(logo.headers.get('content-security-policy'), "default-src 'none'; style-src 'unsafe-inline'");
    assert.equal(logo.headers.get('x-content-type-options'), 'nosniff');
    assert.ok(Buffer.from(await logo.arrayBuffer()).equals(svg));
    // Back to the PNG for the tests that follow.
    assert.equal((await upload(owner, logoBytes, 'logo.png', 'image/png')).status, 200);
  });

  it('when an SVG logo carries a script, an event attribute, a javascript: or external href, a foreignObject, a DOCTYPE or a <style>, then each is refused with a clear message and nothing is stored', async () => {
    const before = await brandingOf(branded);
    const head = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">';
    const hostile = [
      `${head}<script>alert(document.cookie)</script></svg>`,
      `${head}<rect width="10" height="10" onload="alert(1)"/></svg>`,
      `${head}<use xlink:href="javascript:alert(1)"/></svg>`,
      `${head}<use href="https://evil.example/sprite.svg#a"/></svg>`,
      `${head}<foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></body></foreignObject></svg>`,
      `<!DOCTYPE svg [<!ENTITY boom "boom">]>${head}<text>&boom;</text></svg>`,
      `${head}<style>@import url(https://evil.example/x.css); rect { fill: url(https://evil.example/t) }</style></svg>`,
    ];
    for (const markup of hostile) {
      const answer = await upload(owner, Buffer.from(markup), 'logo.svg', 'image/svg+xml');
      assert.equal(answer.status, 422, markup);
      assert.match(answer.html, /The SVG logo (may|is not)/, markup);
      assert.ok(!answer.html.includes('alert('), 'the refused markup is not echoed');
    }
    assert.deepEqual(await brandingOf(branded), before, 'nothing changed');
  });

  it('when the upload is a 2 MB PNG or a text file named .png, then it is refused with a clear message and nothing is stored', async () => {
    const before = await brandingOf(branded);
    const large = await upload(owner, bigPng(), 'huge.png', 'image/png');
    assert.equal(large.status, 422);
    assert.match(large.html, /The logo is larger than 256 KB\./);
    const text = await upload(owner, Buffer.from('this is a text file, not an image\n'), 'notes.png', 'image/png');
    assert.equal(text.status, 422);
    assert.match(text.html, /The logo is not a PNG image\./);
    const form = new FormData();
    form.append('logo', new Blob([logoBytes], { type: 'image/png' }), 'logo.png');
    const unsigned = await fetch(`${system.baseUrl}/dashboard/settings/logo`, { method: 'POST', redirect: 'manual', body: form, headers: { cookie: owner.cookies } });
    assert.equal(unsigned.status, 403, 'an upload without its CSRF token is refused');
    const token = await owner.csrf('/dashboard/settings');
    const cut = `--B0UND\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${token}\r\n--B0UND\r\nContent-Disposition: form-data; name="logo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG`;
    const broken = await fetch(`${system.baseUrl}/dashboard/settings/logo`, { method: 'POST', redirect: 'manual', body: cut, headers: { cookie: owner.cookies, 'content-type': 'multipart/form-data; boundary=B0UND', 'accept-language': 'en' } });
    const brokenPage = await broken.text();
    assert.equal(broken.status, 422, 'a body cut short is an upload without its file');
    assert.match(brokenPage, /Choose a PNG or SVG file to upload\./);
    assert.ok(!/\bat [\w.]+ \(|node_modules/.test(brokenPage), 'no stack trace');
    assert.deepEqual(await brandingOf(branded), before, 'nothing changed');
  });

  it('when the accent colour is not #RRGGBB or too light for white text, then it is refused and the colour stays', async () => {
    for (const bad of ['#fff', 'red', '#12345g', '#1a4d2e;background:url(x)']) {
      const answer = await setAccent(owner, bad);
      assert.equal(answer.status, 422, bad);
      assert.match(answer.html, /The accent colour must be #RRGGBB/);
    }
    const light = await setAccent(owner, '#FFFF66');
    assert.equal(light.status, 422);
    assert.match(light.html, /too light/);
    assert.equal((await brandingOf(branded))?.accent_color, '#1a4d2e');
  });

  it("when a viewer tries to change the branding or the receipts, then it is refused (403) and nothing changes; another merchant's branding is untouched", async () => {
    const before = await brandingOf(branded);
    const viewer = await signedIn(branded, 'viewer');
    const page = await viewer.get('/dashboard/settings');
    assert.equal(page.status, 200);
    assert.ok(!page.html.includes('type="file"'), 'a viewer gets no upload form');
    assert.equal((await upload(viewer, png(10, 10), 'x.png', 'image/png')).status, 403);
    assert.equal((await viewer.post('/dashboard/settings/accent', { _csrf: await viewer.csrf('/dashboard/settings'), accent_color: '#000000' })).status, 403);
    assert.equal((await viewer.post('/dashboard/settings/logo/remove', { _csrf: await viewer.csrf('/dashboard/settings') })).status, 403);
    assert.equal((await viewer.post('/dashboard/settings/receipts', { _csrf: await viewer.csrf('/dashboard/settings'), receipts_enabled: 'off' })).status, 403);
    assert.deepEqual(await brandingOf(branded), before);
    assert.equal(await brandingOf(other), undefined, 'the other merchant has no branding');
    const otherSession = await system.api(other.testKey).post<{ checkout_url: string }>('/gateway/sessions/', sessionRequest({ amount: '3.000' }));
    const otherPage = await (await fetch(otherSession.body.checkout_url)).text();
    assert.ok(!otherPage.includes('/checkout/brand/'), "the other merchant's page shows no branding");
  });

  it('when a buyer pays the branded merchant, then the receipt carries the logo by its absolute URL and the accent colour', async () => {
    const sha = (await brandingOf(branded))?.logo_sha256 ?? '';
    const email = `buyer-${newId('ps').slice(3, 15).toLowerCase()}@example.tn`;
    const created = await system.api(branded.testKey).post<{ id: string; checkout_url: string }>('/gateway/sessions/', { ...sessionRequest({ amount: '15.000', email }), locale: 'en' });
    assert.equal(created.status, 201, created.text);
    await payOnPage(created.body.checkout_url, { card_number: '4242424242424242' }, 'en');
    const [mail] = await system.mail.waitFor((m) => m.envelope.to.includes(email));
    assert.ok(mail);
    const body = String(mail.parsed.html);
    assert.ok(body.includes(`<img src="${system.baseUrl}/checkout/brand/${sha}.png" alt="${brandedName}"`), body);
    assert.match(body, /border-top:4px solid #1a4d2e/);
  });

  it('when receipts are turned off in test mode, then a paid test session writes no receipt, while live mode stays on and another merchant still gets receipts', async () => {
    const off = await owner.post('/dashboard/settings/receipts', { _csrf: await owner.csrf('/dashboard/settings'), receipts_enabled: 'off' });
    assert.equal(off.status, 200, off.html);
    assert.match(off.html, /no longer get receipts/);
    assert.match(off.html, /data-receipts="off"/);

    const silent = `buyer-${newId('ps').slice(3, 15).toLowerCase()}@example.tn`;
    const quiet = await system.api(branded.testKey).post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest({ amount: '9.000', email: silent }));
    await payOnPage(quiet.body.checkout_url, { card_number: '4242424242424242' }, 'en');
    // Another merchant's payment, made after it, gets its receipt: by then the notifier has had the first event too.
    const heard = `buyer-${newId('ps').slice(3, 15).toLowerCase()}@example.tn`;
    const loud = await system.api(other.testKey).post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest({ amount: '9.000', email: heard }));
    await payOnPage(loud.body.checkout_url, { card_number: '4242424242424242' }, 'en');
    await system.mail.waitFor((m) => m.envelope.to.includes(heard));
    await pollUntil(async () => (await system.db.query('SELECT 1 FROM notifier.mails WHERE source = $1', [loud.body.id])).length === 1, 5_000, 'the other receipt written');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.deepEqual(await system.db.query('SELECT 1 FROM notifier.mails WHERE source = $1', [quiet.body.id]), [], 'no receipt written');
    assert.equal(system.mail.to(silent).length, 0, 'no receipt sent');

    const rows = await system.db.query<{ livemode: boolean; receipts_enabled: boolean }>('SELECT livemode, receipts_enabled FROM notifier.receipt_settings WHERE merchant_id = $1', [branded.merchantId]);
    assert.deepEqual(rows, [{ livemode: false, receipts_enabled: false }], 'only test mode was turned off');
    const live = await owner.post('/dashboard/mode', { _csrf: await owner.csrf('/dashboard/settings'), mode: 'live', back: '/dashboard/settings' });
    assert.equal(live.status, 303);
    assert.match((await owner.get('/dashboard/settings')).html, /data-receipts="on"/, 'live mode still sends receipts');
  });
});
