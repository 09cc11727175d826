/**
 * The dashboard's doors against people who should not get in or through
 * (D14): wrong passwords and the throttle, forged and ended sessions, missing
 * and wrong CSRF tokens, roles, another merchant's objects by id, and HTML in
 * everything that reaches a page. Each must change nothing.
 */
import assert from 'node:assert/strict';
import { payOnPage, pollUntil, sessionRequest, TestSystem, Visitor, WebhookReceiver, type Merchant } from '@gateway/testkit';

const PASSWORD = 'correct horse battery staple';
const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)>`;

describe('dashboard security', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let receiver: WebhookReceiver;

  before(async () => {
    system = await TestSystem.start({ readyTimeoutMs: 60_000 });
    receiver = await WebhookReceiver.start(() => ({ status: 500 }));
  });

  after(async () => {
    await receiver?.close();
    await system?.shutdown();
  });

  let emails = 0;
  async function userOf(merchant: Merchant, role: 'owner' | 'developer' | 'viewer'): Promise<string> {
    emails += 1;
    const email = `${role}${emails}@shop.example`;
    await system.admin(['user', 'create', merchant.merchantId, '--email', email, '--role', role, '--password', PASSWORD]);
    return email;
  }

  async function signIn(email: string): Promise<Visitor> {
    const visitor = new Visitor(system.baseUrl);
    const answer = await visitor.post('/dashboard/sign-in', { email, password: PASSWORD });
    assert.equal(answer.status, 303, answer.html);
    return visitor;
  }

  async function keyRows(visitor: Visitor): Promise<number> {
    return ((await visitor.get('/dashboard/api-keys')).html.match(/<tr><td><code>key_/g) ?? []).length;
  }

  it('when the password is wrong, then the page says so (401); after five failures even the right one waits (429, Retry-After)', async () => {
    const merchant = await system.newMerchant();
    const email = await userOf(merchant, 'owner');
    const visitor = new Visitor(system.baseUrl);
    const wrong = await visitor.post('/dashboard/sign-in', { email, password: 'not the password at all' });
    assert.equal(wrong.status, 401);
    assert.match(wrong.html, /The email or the password is wrong/);
    assert.equal(visitor.cookies, '', 'no session for a wrong password');
    // An unknown email gets the same answer.
    assert.equal((await visitor.post('/dashboard/sign-in', { email: 'nobody@shop.example', password: PASSWORD })).status, 401);
    for (let i = 0; i < 4; i += 1) await visitor.post('/dashboard/sign-in', { email, password: `wrong ${i} password` });
    const res = await fetch(`${system.baseUrl}/dashboard/sign-in`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ email, password: PASSWORD }) });
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get('retry-after')) > 0);
  });

  it('when signed in, then the cookie is HttpOnly and SameSite=Lax, and pages carry the no-script-but-ours, no-framing, no-store headers', async () => {
    const merchant = await system.newMerchant();
    const email = await userOf(merchant, 'owner');
    const res = await fetch(`${system.baseUrl}/dashboard/sign-in`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ email, password: PASSWORD }) });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('gw_dashboard=')) ?? '';
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Path=\/dashboard/);
    const visitor = new Visitor(system.baseUrl);
    visitor.setCookie(cookie.split(';')[0] ?? '');
    const page = await visitor.get('/dashboard/payments');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'; script-src 'self'/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.equal(page.headers.get('cache-control'), 'no-store');
  });

  it('when the cookie is forged or its session ended, then pages send to sign-in and a change is refused, changing nothing', async () => {
    const merchant = await system.newMerchant();
    const owner = await signIn(await userOf(merchant, 'owner'));
    const token = await owner.csrf('/dashboard/api-keys');
    const keys = await keyRows(owner);

    const forged = new Visitor(system.baseUrl);
    forged.setCookie('gw_dashboard=made-up-session-id');
    const page = await forged.get('/dashboard/payments');
    assert.equal(page.status, 303);
    assert.match(page.location ?? '', /\/dashboard\/sign-in/);
    assert.equal((await forged.post('/dashboard/api-keys/create', { _csrf: token })).status, 401);

    const stolen = owner.cookies;
    assert.equal((await owner.post('/dashboard/sign-out', { _csrf: token })).status, 303);
    const replayed = new Visitor(system.baseUrl);
    replayed.setCookie(stolen);
    assert.equal((await replayed.get('/dashboard/payments')).status, 303, 'a signed-out cookie opens nothing');
    assert.equal((await replayed.post('/dashboard/api-keys/create', { _csrf: token })).status, 401);
    assert.equal(await keyRows(await signIn((await userOf(merchant, 'owner')))), keys, 'no key was created');
  });

  it('when a change comes without the CSRF token, with a wrong one, or from another origin, then it is refused (403) and changes nothing', async () => {
    const merchant = await system.newMerchant();
    const owner = await signIn(await userOf(merchant, 'owner'));
    const token = await owner.csrf('/dashboard/api-keys');
    const keys = await keyRows(owner);
    assert.equal((await owner.post('/dashboard/api-keys/create', {})).status, 403);
    assert.equal((await owner.post('/dashboard/api-keys/create', { _csrf: `${token}x` })).status, 403);
    assert.equal((await owner.post('/dashboard/api-keys/create', { _csrf: token }, { origin: 'https://evil.example' })).status, 403);
    assert.equal(await keyRows(owner), keys);
    // The same request with the token goes through.
    assert.equal((await owner.post('/dashboard/api-keys/create', { _csrf: token })).status, 200);
    assert.equal(await keyRows(owner), keys + 1);
  });

  it("when a viewer tries a developer's action, then it is forbidden (403) and nothing is shown or changed", async () => {
    const merchant = await system.newMerchant();
    const viewer = await signIn(await userOf(merchant, 'viewer'));
    const token = await viewer.csrf('/dashboard/api-keys');
    const keyId = /<code>(key_[0-9A-Za-z]+)<\/code>/.exec((await viewer.get('/dashboard/api-keys')).html)?.[1] ?? '';
    assert.ok(keyId);
    const reveal = await viewer.post(`/dashboard/api-keys/${keyId}/reveal`, { _csrf: token });
    assert.equal(reveal.status, 403);
    assert.ok(!reveal.html.includes(merchant.testKey));
    assert.equal((await viewer.post(`/dashboard/api-keys/${keyId}/revoke`, { _csrf: token })).status, 403);
    assert.equal((await system.api(merchant.testKey).get('/gateway/sessions/list/')).status, 200, 'the key still works');
    assert.equal((await viewer.post('/dashboard/exchange-rates', { _csrf: token, currency: 'EUR', rate: '3.3' })).status, 403);
  });

  it("when a user of merchant A opens or acts on merchant B's session, refund, delivery or key by id, then it is not found and B's data is unchanged", async () => {
    const a = await system.newMerchant();
    const b = await system.newMerchant({ webhookUrl: receiver.url('/b') });
    const created = await system.api(b.testKey).post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest({ amount: '20.000' }));
    await payOnPage(created.body.checkout_url, { card_number: '4242424242424242' });
    await pollUntil(async () => (await system.api(b.testKey).get<{ status: string }>(`/gateway/sessions/${created.body.id}/`)).body.status === 'SUCCEEDED', 15_000, 'the payment');
    const refund = await system.api(b.testKey).post<{ refund_id: string }>(`/gateway/sessions/${created.body.id}/refund/`, { reason: 'test', refund_type: 'PARTIAL', amount: '1.000' });
    assert.equal(refund.status, 200, refund.text);
    let deliveryId = '';
    await pollUntil(
      async () => {
        const list = await system.api(b.testKey).get<{ data: { id: string }[] }>(`/gateway/sessions/${created.body.id}/webhooks/`);
        deliveryId = list.body.data[0]?.id ?? '';
        return deliveryId !== '';
      },
      15_000,
      "B's delivery",
    );

    const owner = await signIn(await userOf(a, 'owner'));
    const token = await owner.csrf('/dashboard/payments');
    assert.equal((await owner.get(`/dashboard/payments/${created.body.id}`)).status, 404);
    assert.equal((await owner.post(`/dashboard/payments/${created.body.id}/refund`, { _csrf: token, amount: '5.000', reason: 'steal' })).status, 404);
    assert.equal((await owner.get(`/dashboard/webhooks/attempts/${deliveryId}`)).status, 404);
    assert.equal((await owner.post(`/dashboard/webhooks/attempts/${deliveryId}/resend`, { _csrf: token })).status, 404);
    const bOwner = await signIn(await userOf(b, 'owner'));
    const bKey = /<code>(key_[0-9A-Za-z]+)<\/code>/.exec((await bOwner.get('/dashboard/api-keys')).html)?.[1] ?? '';
    const reveal = await owner.post(`/dashboard/api-keys/${bKey}/reveal`, { _csrf: token });
    assert.equal(reveal.status, 404);
    assert.ok(!reveal.html.includes(b.testKey));
    assert.equal((await owner.post(`/dashboard/api-keys/${bKey}/revoke`, { _csrf: token })).status, 404);

    const read = await system.api(b.testKey).get<{ amount_refunded: string }>(`/gateway/sessions/${created.body.id}/`);
    assert.equal(read.status, 200, "B's key still works");
    assert.equal(read.body.amount_refunded, '1.000', "B's refunds unchanged");
  });

  it('when names, descriptions, metadata, references and webhook answers hold HTML, then every page shows them as text', async () => {
    const made = (await system.admin(['merchant', 'create', '--name', `Shop ${HOSTILE}`, '--webhook-url', receiver.url('/hostile')])) as { merchant_id: string; test_secret_key: string };
    receiver.answer = () => ({ status: 500, body: `<html><body>${HOSTILE}</body></html>` });
    const merchant: Merchant = { merchantId: made.merchant_id, testKey: made.test_secret_key, webhookSecret: '' };
    const created = await system.api(merchant.testKey).post<{ id: string; checkout_url: string }>(
      '/gateway/sessions/',
      sessionRequest({ merchant_reference: `ref-${HOSTILE}`.slice(0, 100), description: `Desc ${HOSTILE}`, metadata: { note: HOSTILE } }),
    );
    assert.equal(created.status, 201, created.text);
    await payOnPage(created.body.checkout_url, { card_number: '4242424242424242' });
    const owner = await signIn(await userOf(merchant, 'owner'));
    const pages = [await owner.get('/dashboard/payments'), await owner.get(`/dashboard/payments/${created.body.id}`)];
    let deliveryId = '';
    await pollUntil(
      async () => {
        deliveryId = /\/dashboard\/webhooks\/attempts\/(whd_[0-9A-Za-z]+)/.exec((await owner.get(`/dashboard/payments/${created.body.id}`)).html)?.[1] ?? '';
        return deliveryId !== '';
      },
      15_000,
      'a delivery',
    );
    pages.push(await owner.get(`/dashboard/webhooks/attempts/${deliveryId}`));
    for (const page of pages) {
      assert.equal(page.status, 200);
      assert.ok(!page.html.includes('<script>alert(1)</script>'), 'a raw script tag on the page');
      assert.ok(!page.html.includes('<img src=x'), 'a raw img tag on the page');
      assert.ok(page.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'the text, escaped');
    }
  });
});
