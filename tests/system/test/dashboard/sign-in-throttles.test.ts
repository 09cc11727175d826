/**
 * Sign-in failures throttled per account as well as per address (D14 as D29
 * amends it), against the dashboard behind one proxy of ours (its
 * X-Forwarded-For entry is each try's address, as the ingress writes it):
 * guesses spread over many addresses stop at the account's bound, IPv6
 * addresses count per /64, and a stranger cannot keep an owner out: the
 * account's bound lasts a short window and never holds an address the
 * owner signed in from before.
 */
import assert from 'node:assert/strict';
import { TestSystem, Visitor } from '@gateway/testkit';

const PASSWORD = 'the owner knows this one';
/** The account's bound and window in this system: six failures in three seconds. */
const ACCOUNT_LIMIT = 6;
const ACCOUNT_WINDOW_SECONDS = 3;

describe('dashboard sign-in throttles', function () {
  this.timeout(90_000);
  let system: TestSystem;
  let origin: string;

  before(async () => {
    system = await TestSystem.start({
      readyTimeoutMs: 60_000,
      serviceEnv: { dashboard: { TRUST_PROXY_HOPS: '1', LOGIN_ACCOUNT_FAILURE_LIMIT: String(ACCOUNT_LIMIT), LOGIN_ACCOUNT_FAILURE_WINDOW_SECONDS: String(ACCOUNT_WINDOW_SECONDS) } },
    });
    origin = `http://127.0.0.1:${system.portOf('dashboard')}`;
  });

  after(async () => {
    await system?.shutdown();
  });

  async function newOwner(): Promise<string> {
    const merchant = await system.newMerchant();
    return system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
  }

  /** One sign-in of `email` from `address`: its status. */
  async function signIn(email: string, password: string, address: string): Promise<number> {
    return (await new Visitor(origin).post('/dashboard/sign-in', { email, password }, { 'x-forwarded-for': address })).status;
  }

  /** Whether the account's window has passed, waiting for it. */
  const windowEnds = () => new Promise((resolve) => setTimeout(resolve, ACCOUNT_WINDOW_SECONDS * 1000 + 500));

  it('when wrong passwords for one account come from a new address each, then past the account\'s bound even the right password, from yet another address, waits (429)', async () => {
    const email = await newOwner();
    const statuses: number[] = [];
    for (let i = 1; i <= ACCOUNT_LIMIT; i += 1) statuses.push(await signIn(email, `guess number ${i}`, `198.51.100.${i}`));
    assert.deepEqual(statuses, [...Array<number>(ACCOUNT_LIMIT - 1).fill(401), 429], 'each address under its own bound of five, the account at its sixth');
    assert.equal(await signIn(email, PASSWORD, '198.51.100.200'), 429, 'the right password from a fresh address');
    assert.equal(await signIn(email, 'another guess', '198.51.100.201'), 429);

    await windowEnds();
    assert.equal(await signIn(email, PASSWORD, '198.51.100.202'), 303, 'once the short window ends the owner signs in');
  });

  it('when strangers hold an account at its bound, then its owner still signs in from an address they signed in from before; from a new one, once the short window ends', async () => {
    const email = await newOwner();
    const home = '192.0.2.10';
    assert.equal(await signIn(email, PASSWORD, home), 303);
    for (let i = 1; i <= ACCOUNT_LIMIT + 2; i += 1) await signIn(email, `guess number ${i}`, `203.0.113.${i}`);
    assert.equal(await signIn(email, 'yet another guess', '203.0.113.99'), 429, 'the strangers are held');
    assert.equal(await signIn(email, PASSWORD, home), 303, 'the owner at home is not');
    assert.equal(await signIn(email, PASSWORD, '192.0.2.77'), 429, 'the owner somewhere new waits with the strangers');
    await windowEnds();
    assert.equal(await signIn(email, PASSWORD, '192.0.2.77'), 303);
  });

  it('when wrong passwords come from addresses of one IPv6 /64, then they count as one address: the fifth waits, and so does the next from the same /64; another /64 does not', async () => {
    const email = await newOwner();
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i += 1) statuses.push(await signIn(email, `guess number ${i}`, `2001:db8:1:2::${i.toString(16)}`));
    assert.deepEqual(statuses, [401, 401, 401, 401, 429]);
    assert.equal(await signIn(email, PASSWORD, '2001:db8:1:2:ffff:ffff:ffff:ffff'), 429, 'the same /64');
    assert.equal(await signIn(email, PASSWORD, '2001:db8:1:3::1'), 303, 'another /64');
  });
});
