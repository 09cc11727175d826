/**
 * The dashboard against someone who already holds part of the way in: a
 * stolen password facing the second factor (guessing, from one address or
 * many, replaying a seen code), a signed-in session trying to drop the second
 * factor unseen or without the password, a console setup link carried to the
 * dashboard, a password set without a trace, and a suspended merchant's user
 * refunding where the API would refuse.
 */
import assert from 'node:assert/strict';
import { payOnPage, pollUntil, sessionRequest, TestSystem, Visitor } from '@gateway/testkit';
import { totpCode, totpStep } from '../../src/domain/totp.js';

const PASSWORD = 'correct horse battery staple';

/** A six-digit code that is none of the codes the secret accepts now (the step before, now and after). */
function wrongCode(secret: string, n: number): string {
  const accepted = new Set([-1, 0, 1].map((d) => totpCode(secret, totpStep() + d)));
  for (let i = n; ; i += 1) {
    const code = String(i % 1_000_000).padStart(6, '0');
    if (!accepted.has(code)) return code;
  }
}

describe('dashboard attacks', function () {
  this.timeout(120_000);
  let system: TestSystem;

  before(async () => {
    // Six wrong codes lock an account's second factor for three seconds, so a test sees the lockout end.
    // As behind one proxy of ours (the gateway, an ingress), whose X-Forwarded-For entry the tests of many addresses write.
    system = await TestSystem.start({
      readyTimeoutMs: 60_000,
      serviceEnv: { dashboard: { SECOND_FACTOR_ACCOUNT_LIMIT: '6', SECOND_FACTOR_LOCKOUT_SECONDS: '3', TRUST_PROXY_HOPS: '1' } },
    });
  });

  after(async () => {
    await system?.shutdown();
  });

  let emails = 0;
  async function ownerOfNewMerchant(): Promise<{ email: string; merchantId: string; testKey: string }> {
    const merchant = await system.newMerchant();
    emails += 1;
    const email = `attacked${emails}@shop.example`;
    await system.admin(['user', 'create', merchant.merchantId, '--email', email, '--role', 'owner', '--password', PASSWORD]);
    return { email, merchantId: merchant.merchantId, testKey: merchant.testKey };
  }

  async function signIn(email: string, base = system.baseUrl): Promise<Visitor> {
    const visitor = new Visitor(base);
    const answer = await visitor.post('/dashboard/sign-in', { email, password: PASSWORD });
    assert.equal(answer.status, 303, answer.html);
    return visitor;
  }

  /** The code the last set-up was confirmed with. */
  let confirmedWith = '';

  /** Turns two-step sign-in on for the signed-in `visitor`; answers its secret. */
  async function turnOnTotp(visitor: Visitor): Promise<string> {
    const begun = await visitor.post('/dashboard/security/begin', { _csrf: await visitor.csrf('/dashboard/security') });
    const secret = /id="totp-secret">([A-Z2-7]+)</.exec(begun.html)?.[1];
    assert.ok(secret, `no secret shown (${begun.status})`);
    confirmedWith = totpCode(secret, totpStep());
    const confirmed = await visitor.post('/dashboard/security/confirm', { _csrf: await visitor.csrf('/dashboard/security'), code: confirmedWith });
    assert.equal(confirmed.status, 200, confirmed.html);
    assert.match(confirmed.html, /Recovery codes/);
    return secret;
  }

  it('when someone with the password guesses second-factor codes and signs in again between guesses, then the guesses still add up: the fifth wrong code waits (429), even the right one', async () => {
    const { email } = await ownerOfNewMerchant();
    const secret = await turnOnTotp(await signIn(email));

    const attacker = await signIn(email);
    for (let i = 0; i < 4; i += 1) {
      const guess = await attacker.post('/dashboard/second-factor', { _csrf: await attacker.csrf('/dashboard/second-factor'), code: wrongCode(secret, 100 + i) });
      assert.equal(guess.status, 401, guess.html);
    }
    // The right password again: a fresh half-signed-in session, but not a fresh count of wrong codes.
    const again = await signIn(email);
    assert.match(again.cookies, /gw_dashboard=/);
    const fifth = await again.post('/dashboard/second-factor', { _csrf: await again.csrf('/dashboard/second-factor'), code: wrongCode(secret, 200) });
    assert.equal(fifth.status, 429, 'the fifth wrong code, across two sign-ins, is throttled');
    const right = await again.post('/dashboard/second-factor', { _csrf: await again.csrf('/dashboard/second-factor'), code: totpCode(secret, totpStep()) });
    assert.equal(right.status, 429, 'while throttled even the right code waits');
    assert.equal((await again.get('/dashboard/payments')).status, 303, 'still not signed in');
  });

  it('when someone with the password spreads second-factor guesses over many addresses, then the account stops taking codes after its bound, even the right one, until the lockout ends', async () => {
    const { email } = await ownerOfNewMerchant();
    const secret = await turnOnTotp(await signIn(email));
    // Straight at the dashboard, whose one trusted proxy's X-Forwarded-For entry is the address: a new one per guess.
    const attacker = await signIn(email, `http://127.0.0.1:${system.portOf('dashboard')}`);
    const from = (n: number) => ({ 'x-forwarded-for': `198.51.100.${n}` });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await attacker.post('/dashboard/second-factor', { _csrf: await attacker.csrf('/dashboard/second-factor'), code: wrongCode(secret, 300 + i) }, from(i + 1))).status);
    }
    // Under the per-address throttle (5) every time, yet the sixth wrong code for the account locks it.
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    // The next step's code: the current one confirmed the set-up, and is spent.
    const right = await attacker.post('/dashboard/second-factor', { _csrf: await attacker.csrf('/dashboard/second-factor'), code: totpCode(secret, totpStep() + 1) }, from(50));
    assert.equal(right.status, 429, 'during the lockout even the right code, from a fresh address, is refused');
    assert.match(right.html, /Too many failed sign-ins/);
    assert.equal((await attacker.get('/dashboard/payments')).status, 303, 'not signed in');

    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const after = await attacker.post('/dashboard/second-factor', { _csrf: await attacker.csrf('/dashboard/second-factor'), code: totpCode(secret, totpStep() + 1) }, from(51));
    assert.equal(after.status, 303, `once the lockout ends the right code signs in (${after.status})`);
    assert.equal((await attacker.get('/dashboard/payments')).status, 200);
  });

  it('when two-step sign-in is turned off without the password or with a wrong one, then it is refused and stays on; with the password it goes off', async () => {
    const { email } = await ownerOfNewMerchant();
    const visitor = await signIn(email);
    await turnOnTotp(visitor);
    const security = await visitor.get('/dashboard/security');
    assert.match(security.html, /name="password"[^>]*autocomplete="current-password"/, 'the form asks for the password');

    const without = await visitor.post('/dashboard/security/off', { _csrf: await visitor.csrf('/dashboard/security') });
    assert.equal(without.status, 422, without.html);
    assert.match(without.html, /That password is not right; two-step sign-in stays on/);
    const wrong = await visitor.post('/dashboard/security/off', { _csrf: await visitor.csrf('/dashboard/security'), password: 'not my password at all' });
    assert.equal(wrong.status, 422, wrong.html);
    const stillOn = await new Visitor(system.baseUrl).post('/dashboard/sign-in', { email, password: PASSWORD });
    assert.match(stillOn.location ?? '', /^\/dashboard\/second-factor/, 'the second factor is still asked for');

    const off = await visitor.post('/dashboard/security/off', { _csrf: await visitor.csrf('/dashboard/security'), password: PASSWORD });
    assert.equal(off.status, 200, off.html);
    assert.match(off.html, /Two-step sign-in is off/);
    const next = await new Visitor(system.baseUrl).post('/dashboard/sign-in', { email, password: PASSWORD });
    assert.equal(next.location, '/dashboard/', 'no second factor any more');
  });

  it('when a second-factor code that already signed someone in is given again, then it is refused (401); the code that confirmed set-up does not sign in either', async () => {
    const { email } = await ownerOfNewMerchant();
    const secret = await turnOnTotp(await signIn(email));
    const confirming = await signIn(email);
    const reused = await confirming.post('/dashboard/second-factor', { _csrf: await confirming.csrf('/dashboard/second-factor'), code: confirmedWith });
    assert.equal(reused.status, 401, 'the code that turned it on');

    // The next step's code: the app shows it within 30 s, and the window accepts it now.
    const code = totpCode(secret, totpStep() + 1);
    const owner = await signIn(email);
    const first = await owner.post('/dashboard/second-factor', { _csrf: await owner.csrf('/dashboard/second-factor'), code });
    assert.equal(first.status, 303, first.html);
    assert.equal((await owner.get('/dashboard/payments')).status, 200, 'the owner is in');
    const eavesdropper = await signIn(email);
    const replayed = await eavesdropper.post('/dashboard/second-factor', { _csrf: await eavesdropper.csrf('/dashboard/second-factor'), code });
    assert.equal(replayed.status, 401, 'the same code a second time');
    assert.equal((await eavesdropper.get('/dashboard/payments')).status, 303, 'not signed in');
  });

  it('when two-step sign-in is on and set-up is started again by a posted form, then it stays on (409) and the next sign-in still asks for the code', async () => {
    const { email } = await ownerOfNewMerchant();
    const visitor = await signIn(email);
    await turnOnTotp(visitor);

    const restarted = await visitor.post('/dashboard/security/begin', { _csrf: await visitor.csrf('/dashboard/security') });
    assert.equal(restarted.status, 409, restarted.html);
    assert.match(restarted.html, /already on/);
    assert.doesNotMatch(restarted.html, /id="totp-secret"/, 'no new secret');

    const next = await new Visitor(system.baseUrl).post('/dashboard/sign-in', { email, password: PASSWORD });
    assert.match(next.location ?? '', /^\/dashboard\/second-factor/, 'the second factor is still asked for');
  });

  it("when an operator's setup link is opened at the dashboard, then it is no link there (410, as any link that does not work) and sets nothing; it still works at the console", async () => {
    const created = (await system.admin(['operator', 'create', '--email', `new-operator-${Date.now()}@example.com`])) as { setup_url: string };
    const token = new URL(created.setup_url).searchParams.get('token') ?? '';
    assert.match(created.setup_url, /\/ops\/setup\?token=/);
    const visitor = new Visitor(system.baseUrl);
    assert.equal((await visitor.get(`/dashboard/setup?token=${encodeURIComponent(token)}`)).status, 410);
    assert.equal((await visitor.post('/dashboard/setup', { token, password: 'a password set at the wrong door' })).status, 410);
    assert.equal((await visitor.get(`/ops/setup?token=${encodeURIComponent(token)}`)).status, 200, 'the link is still unused');
  });

  it('when someone sets a password with a setup link, then the audit log records it: who, from which address, and never the password', async () => {
    const merchant = await system.newMerchant();
    const email = `invited-${Date.now()}@shop.example`;
    const created = (await system.admin(['user', 'create', merchant.merchantId, '--email', email, '--role', 'developer'])) as { user_id: string; setup_url: string };
    const token = new URL(created.setup_url).searchParams.get('token') ?? '';
    const password = 'a brand new password of mine';
    const set = await new Visitor(system.baseUrl).post('/dashboard/setup', { token, password });
    assert.equal(set.status, 303, set.html);
    assert.equal((await new Visitor(system.baseUrl).post('/dashboard/sign-in', { email, password })).status, 303, 'the password works');

    type Entry = { action: string; actor_type: string; actor_id: string; actor_email: string | null; address: string | null; target: string | null };
    let entry: Entry | undefined;
    await pollUntil(
      async () => {
        const audit = (await system.admin(['audit', 'list', '--merchant', merchant.merchantId])) as { data: Entry[] };
        entry = audit.data.find((e) => e.action === 'user.set_password');
        assert.ok(!JSON.stringify(audit).includes(password), 'the password is in the audit log');
        return entry !== undefined;
      },
      10_000,
      'the password set in the audit log',
    );
    assert.equal(entry?.actor_type, 'user');
    assert.equal(entry?.actor_id, created.user_id);
    assert.equal(entry?.actor_email, email);
    assert.equal(entry?.target, created.user_id);
    assert.ok(entry?.address, 'the address is recorded');
  });

  it("when a suspended merchant's user refunds from the dashboard, then it is refused as the API refuses it (403), recorded, and nothing is refunded", async () => {
    const { email, merchantId, testKey } = await ownerOfNewMerchant();
    const created = await system.api(testKey).post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest({ amount: '20.000' }));
    await payOnPage(created.body.checkout_url, { card_number: '4242424242424242' });
    await pollUntil(async () => (await system.api(testKey).get<{ status: string }>(`/gateway/sessions/${created.body.id}/`)).body.status === 'SUCCEEDED', 15_000, 'the payment');
    const owner = await signIn(email);
    const token = await owner.csrf(`/dashboard/payments/${created.body.id}`);

    await system.admin(['merchant', 'suspend', merchantId]);
    const api = await system.api(testKey).post(`/gateway/sessions/${created.body.id}/refund/`, { reason: 'suspended', refund_type: 'FULL' });
    assert.equal(api.status, 403, 'the API refuses');
    const refused = await owner.post(`/dashboard/payments/${created.body.id}/refund`, { _csrf: token, amount: '', reason: 'suspended' });
    assert.equal(refused.status, 403, refused.html);
    assert.match(refused.html, /suspended/);

    await system.admin(['merchant', 'reactivate', merchantId]);
    const read = await system.api(testKey).get<{ amount_refunded: string }>(`/gateway/sessions/${created.body.id}/`);
    assert.equal(read.body.amount_refunded, '0.000', 'nothing refunded');
    await pollUntil(
      async () => {
        const audit = (await system.admin(['audit', 'list', '--merchant', merchantId])) as { data: { action: string; outcome: string }[] };
        return audit.data.some((e) => e.action === 'refund.create' && e.outcome === 'forbidden');
      },
      10_000,
      'the refused refund in the audit log',
    );
  });
});
