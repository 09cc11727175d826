/**
 * The edges of the hosted page's routes, through the gateway as buyers reach
 * them: what is not a step (another method, another path, HEAD, a body the
 * page cannot read) gets a page with D9's headers and changes nothing.
 */
import assert from 'node:assert/strict';
import { sessionRequest, TestSystem, type Merchant } from '@gateway/testkit';

describe('Hosted checkout routes', function () {
  this.timeout(60_000);
  let system: TestSystem;
  let merchant: Merchant;

  before(async () => {
    system = await TestSystem.start({ services: ['api-gateway', 'session', 'webhook-dispatcher', 'checkout'] });
    merchant = await system.newMerchant();
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
});
