/**
 * The edges of the hosted page's routes, through the gateway as buyers reach
 * them: what is not a step (another method, another path, HEAD, a body the
 * page cannot read) gets a page with D9's headers and changes nothing.
 */
import assert from 'node:assert/strict';
import { sessionRequest, TestSystem, type Merchant } from '@gateway/testkit';
import { HAND_OFF_SCRIPT, HAND_OFF_SCRIPT_PATH } from '../../src/pages/index.js';

describe('Hosted checkout routes', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let merchant: Merchant;

  before(async () => {
    system = await TestSystem.start({ services: ['api-gateway', 'session', 'webhook-dispatcher', 'checkout'] });
    // Budgets no test here reaches: the notice test polls its session's status.
    merchant = await system.newMerchant({ limits: { account: 10_000, create: 10_000 } });
  });
  after(async () => {
    await system?.shutdown();
  });

  async function openSession(): Promise<{ id: string; url: string }> {
    const created = await system.api(merchant.testKey).post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 201, created.text);
    return { id: created.body.id, url: created.body.checkout_url };
  }

  async function statusOf(id: string): Promise<unknown> {
    return (await system.api(merchant.testKey).get(`/gateway/sessions/${id}/`)).body['status'];
  }

  function assertPageHeaders(res: Response): void {
    assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
    assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('cache-control'), 'no-store');
  }

  it('when the page is asked with a trailing slash, then it is the page; HEAD on its cancel link is a 404 page and the session stays open', async () => {
    const { id, url } = await openSession();
    const page = await fetch(`${url}/`);
    assert.equal(page.status, 200);
    assertPageHeaders(page);
    assert.match(await page.text(), /name="card_number"/);
    const head = await fetch(`${url}/cancel`, { method: 'HEAD', redirect: 'manual' });
    assert.equal(head.status, 404);
    assert.equal(await statusOf(id), 'CREATED');
  });

  it('when a step is asked with another method, in another case or under an unknown path, then a 404 page with the page headers', async () => {
    const { url } = await openSession();
    for (const [method, target] of [['POST', url], ['GET', `${url}/pay`], ['GET', `${url}/PAY`], ['GET', `${url}/pay/more`]] as const) {
      const res = await fetch(target, { method, redirect: 'manual' });
      assert.equal(res.status, 404, `${method} ${target}`);
      assertPageHeaders(res);
      assert.doesNotMatch(await res.text(), /at \w+ \(|Error:/);
    }
  });

  it('when the card form is too large or not UTF-8, then a 400 page, and no attempt is started', async () => {
    const { id, url } = await openSession();
    const form = { card_number: '4242424242424242', expiry: '12/34', cvc: '123', cardholder_name: 'Amina Ben Salah' };
    const large = await fetch(`${url}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form, filler: 'x'.repeat(9_000) }),
    });
    assert.equal(large.status, 400);
    assertPageHeaders(large);
    const latin = await fetch(`${url}/pay`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' },
      body: new URLSearchParams(form).toString(),
    });
    assert.equal(latin.status, 400);
    assert.equal(await statusOf(id), 'CREATED');
  });

  it('when the hand-off script is asked, then it is our JavaScript from our origin, kept for good under its content\'s name, not sniffed; another name is a 404 page', async () => {
    const { url } = await openSession();
    const origin = new URL(url).origin;
    assert.match(HAND_OFF_SCRIPT_PATH, /^\/checkout\/assets\/hand-off-[0-9a-f]{12}\.js$/);
    const script = await fetch(`${origin}${HAND_OFF_SCRIPT_PATH}`);
    assert.equal(script.status, 200);
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(script.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(script.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(await script.text(), HAND_OFF_SCRIPT);
    const other = await fetch(`${origin}/checkout/assets/hand-off-000000000000.js`);
    assert.equal(other.status, 404);
    assertPageHeaders(other);
  });

  it('when a 3-D Secure return names no attempt of ours, or brings a PaRes for another attempt, then nothing is finished: a 404 page, or the result page', async () => {
    const { id, url } = await openSession();
    for (const target of [`${url}/3ds/pa_short`, `${url}/3ds/nope/method`, `${url}/3ds/${'pa_' + 'x'.repeat(20)}/other`]) {
      const res = await fetch(target, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ cres: 'c' }) });
      assert.equal(res.status, 404, target);
      assertPageHeaders(res);
      await res.arrayBuffer();
    }
    const attempt = `pa_${'A'.repeat(22)}`;
    const other = await fetch(`${url}/3ds/${attempt}`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ PaRes: 'p', MD: `pa_${'B'.repeat(22)}` }) });
    assert.deepEqual([other.status, other.headers.get('location')], [303, `${new URL(url).pathname}/result`]);
    const empty = await fetch(`${url}/3ds/${attempt}`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({}) });
    assert.deepEqual([empty.status, empty.headers.get('location')], [303, `${new URL(url).pathname}/result`]);
    assert.equal(await statusOf(id), 'CREATED');
  });

  it('when a Flouci return or "Pay with Flouci" names no attempt of ours, another method or a lapsed link, then a page: 404 for the path, 410 for the link, and the session stays open', async () => {
    const { id, url } = await openSession();
    for (const [method, target] of [['GET', `${url}/wallet/pa_short`], ['GET', `${url}/wallet/flouci`], ['POST', `${url}/wallet/other`], ['GET', `${url}/wallet/${'pa_' + 'x'.repeat(22)}/more`]] as const) {
      const res = await fetch(target, { method, redirect: 'manual' });
      assert.equal(res.status, 404, `${method} ${target}`);
      assertPageHeaders(res);
      await res.arrayBuffer();
    }
    const origin = new URL(url).origin;
    const lapsed = await fetch(`${origin}/checkout/not-a-token/wallet/flouci`, { method: 'POST', redirect: 'manual', headers: { 'accept-language': 'en' }, body: new URLSearchParams({ language: 'en' }) });
    assert.equal(lapsed.status, 410);
    assertPageHeaders(lapsed);
    assert.match(await lapsed.text(), /This payment link has expired/);
    const returned = await fetch(`${origin}/checkout/not-a-token/wallet/${'pa_' + 'x'.repeat(22)}?payment_id=f1`, { redirect: 'manual' });
    assert.equal(returned.status, 410);
    await returned.arrayBuffer();
    assert.equal(await statusOf(id), 'CREATED');
  });

  it("when Flouci's notice comes, then JSON and never a page: 200 received for a notice even when the adapter cannot verify now, 400 for another body, 404 for a path naming no attempt", async () => {
    const { url } = await openSession();
    const notices = `${new URL(url).origin}/checkout/wallet-notices/flouci`;
    const attempt = `pa_${'N'.repeat(22)}`;
    const post = (target: string, body: string) => fetch(target, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body });
    const taken = await post(`${notices}/${attempt}`, JSON.stringify({ payment_id: 'f1', status: 'SUCCESS' }));
    assert.deepEqual([taken.status, taken.headers.get('content-type'), await taken.json()], [200, 'application/json; charset=utf-8', { received: true }]);
    const bad = await post(`${notices}/${attempt}`, '{"payment_id":');
    assert.deepEqual([bad.status, bad.headers.get('content-type'), await bad.json()], [400, 'application/json; charset=utf-8', { error: 'invalid-notice' }]);
    const unknown = await post(`${notices}/pa_short`, JSON.stringify({ payment_id: 'f1', status: 'SUCCESS' }));
    assert.deepEqual([unknown.status, await unknown.json()], [404, { error: 'not-found' }]);
  });
});
