/**
 * Whose address a request comes from (D12, D14 as D29 amends them): no
 * service believes X-Forwarded-For unless TRUST_PROXY_HOPS says how many
 * proxies of ours stand in front, and by default none do. The review's
 * reproductions first: a client that reaches a service's port wrote a new
 * forwarded address with every request and was never held back, neither at
 * a payment link's page nor at the dashboard's sign-in. Every service here
 * runs with its own defaults.
 */
import assert from 'node:assert/strict';
import type { PaymentLink } from '@gateway/contracts';
import { TestSystem, Visitor } from '@gateway/testkit';

const PASSWORD = 'a password long enough';

describe('forwarded addresses, with every service at its defaults', function () {
  this.timeout(90_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start({ readyTimeoutMs: 60_000 });
  });

  after(async () => {
    await system?.shutdown();
  });

  /** A new test link's public path, /pay/<code>. */
  async function newLinkPath(): Promise<string> {
    const merchant = await system.newMerchant();
    const created = await system.api(merchant.testKey).post<PaymentLink>('/gateway/payment_links/', { description: 'Forwarded', amount: '10.000' });
    assert.equal(created.status, 201, created.text);
    return new URL(created.body.url).pathname;
  }

  /** The statuses of `count` empty submissions of the link page at `origin`, each with a new X-Forwarded-For, all within one minute of the clock (the page counts per minute). */
  async function submissions(origin: string, path: string, count: number): Promise<number[]> {
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    const statuses: number[] = [];
    for (let i = 1; i <= count; i += 1) {
      const posted = await fetch(`${origin}${path}`, { method: 'POST', body: new URLSearchParams({}), redirect: 'manual', headers: { 'x-forwarded-for': `198.51.100.${i}`, 'accept-language': 'en' } });
      await posted.body?.cancel();
      statuses.push(posted.status);
    }
    return statuses;
  }

  it('when 21 POSTs reach one payment link straight at checkout, each with a new X-Forwarded-For, then they are not all let through: the 21st waits (429)', async () => {
    const path = await newLinkPath();
    const statuses = await submissions(`http://127.0.0.1:${system.portOf('checkout')}`, path, 21);
    assert.deepEqual(statuses.slice(0, 20), Array(20).fill(422), 'the first twenty show the form again');
    assert.equal(statuses[20], 429, `the 21st from the same peer, whatever it wrote (${statuses.join(',')})`);
  });

  it('when the 21 POSTs come through the gateway, each with a new X-Forwarded-For, then the 21st waits (429) as well', async () => {
    const path = await newLinkPath();
    const statuses = await submissions(system.baseUrl, path, 21);
    assert.equal(statuses[20], 429, statuses.join(','));
  });

  /** Five wrong passwords for `email` at `origin`, each with a new X-Forwarded-For; then the right one with yet another: its status. */
  async function fiveFailuresThenANewAddress(origin: string, email: string): Promise<{ failures: number[]; next: number }> {
    const visitor = new Visitor(origin);
    const failures: number[] = [];
    for (let i = 1; i <= 5; i += 1) failures.push((await visitor.post('/dashboard/sign-in', { email, password: 'not the password at all' }, { 'x-forwarded-for': `203.0.113.${i}` })).status);
    const next = await visitor.post('/dashboard/sign-in', { email, password: PASSWORD }, { 'x-forwarded-for': '192.0.2.77' });
    return { failures, next: next.status };
  }

  it('when five sign-ins fail straight at the dashboard and the next comes with a new X-Forwarded-For, then it still gets 429', async () => {
    const merchant = await system.newMerchant();
    const email = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const { failures, next } = await fiveFailuresThenANewAddress(`http://127.0.0.1:${system.portOf('dashboard')}`, email);
    assert.deepEqual(failures, [401, 401, 401, 401, 429]);
    assert.equal(next, 429);
  });

  it('when five sign-ins fail through the gateway and the next comes with a new X-Forwarded-For, then it still gets 429', async () => {
    const merchant = await system.newMerchant();
    const email = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const { failures, next } = await fiveFailuresThenANewAddress(system.baseUrl, email);
    assert.deepEqual(failures, [401, 401, 401, 401, 429]);
    assert.equal(next, 429);
  });

  it('when failed API authentications come through the gateway with a new X-Forwarded-For each, then they add up for the one peer (D12: 429 past 20 a minute)', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 21; i += 1) {
      statuses.push((await system.api(`sk_test_${'Z'.repeat(32)}`).get('/gateway/sessions/list/', { 'x-forwarded-for': `198.51.100.${i}` })).status);
    }
    assert.deepEqual(statuses.slice(0, 20), Array(20).fill(401));
    assert.equal(statuses[20], 429);
  });
});
