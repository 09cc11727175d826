/**
 * Setup and reset links (D14, D20 as D29 amends them): a person created with
 * a password gets no setup link; a setup link works only while its person
 * has no password; every setup or reset link of a person is spent when a
 * password is set, by any route, and when they sign in. The review's
 * reproduction first: the demo owner and operator `make up` seeds with a
 * password kept a live setup link, whose "Set password" page answered
 * whoever opened it within a day.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { TestSystem, Visitor } from '@gateway/testkit';

const PASSWORD = 'a password long enough';

/** A token as account links carry them, and what the database keeps of it. */
function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: createHash('sha256').update(token).digest('base64url') };
}

describe('setup and reset links', function () {
  this.timeout(90_000);
  let system: TestSystem;

  before(async () => {
    system = await TestSystem.start({ readyTimeoutMs: 60_000 });
  });

  after(async () => {
    await system?.shutdown();
  });

  /** A live setup link of `personId`, as an older version left one beside a password: its token. */
  async function setupLinkOf(personId: string): Promise<string> {
    const { token, hash } = newToken();
    await system.db.query(`INSERT INTO dashboard.setup_links (token_hash, person_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`, [hash, personId]);
    return token;
  }

  /** A live reset link of `personId`, as "Forgot password?" mails one: its token. */
  async function resetLinkOf(personId: string): Promise<string> {
    const { token, hash } = newToken();
    await system.db.query(`INSERT INTO dashboard.password_resets (id, token_hash, person_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 hour')`, [`ml_${hash.slice(0, 20)}`, hash, personId]);
    return token;
  }

  async function liveLinks(personId: string): Promise<number> {
    const rows = await system.db.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM dashboard.setup_links WHERE person_id = $1 AND used_at IS NULL AND expires_at > now())
            + (SELECT count(*) FROM dashboard.password_resets WHERE person_id = $1 AND used_at IS NULL AND expires_at > now()) AS n`,
      [personId],
    );
    return Number(rows[0]?.n);
  }

  it('when a dashboard owner and a console operator are created with a password, then no setup link is printed or kept, and a setup link such a person still holds from before answers that it is no longer valid (410) and sets nothing', async () => {
    const merchant = await system.newMerchant();
    const email = `owner-${Date.now()}@shop.example`;
    const owner = await system.admin(['user', 'create', merchant.merchantId, '--email', email, '--role', 'owner', '--password', PASSWORD]);
    assert.deepEqual(Object.keys(owner), ['user_id'], JSON.stringify(owner));
    const operatorEmail = `ops-${Date.now()}@example.com`;
    const operator = await system.admin(['operator', 'create', '--email', operatorEmail, '--password', PASSWORD]);
    assert.deepEqual(Object.keys(operator), ['operator_id'], JSON.stringify(operator));
    for (const id of [owner['user_id'], operator['operator_id']]) assert.equal(await liveLinks(String(id)), 0, `${id} has a live link`);

    for (const [door, id, who] of [['dashboard', owner['user_id'], email], ['ops', operator['operator_id'], operatorEmail]] as const) {
      const token = await setupLinkOf(String(id));
      const visitor = new Visitor(system.baseUrl);
      const page = await visitor.get(`/${door}/setup?token=${encodeURIComponent(token)}`);
      assert.equal(page.status, 410, `${door}: ${page.html.slice(0, 300)}`);
      assert.match(page.html, /Link no longer valid/);
      assert.doesNotMatch(page.html, /name="password"/, 'no form to set a password');
      const posted = await visitor.post(`/${door}/setup`, { token, password: 'taken over by whoever opened it' });
      assert.equal(posted.status, 410);
      assert.equal((await new Visitor(system.baseUrl).post(`/${door}/sign-in`, { email: who, password: PASSWORD })).status, 303, `${door}: the password is still the person's`);
    }
  });

  it('when a person signs in, then every setup or reset link of theirs still live is spent: it answers 410', async () => {
    const merchant = await system.newMerchant();
    const email = await system.dashboardUser(merchant.merchantId, 'owner', PASSWORD);
    const [person] = await system.db.query<{ id: string }>(`SELECT id FROM dashboard.people WHERE door = 'dashboard' AND email = $1`, [email]);
    const id = person?.id ?? '';
    const reset = await resetLinkOf(id);
    const setup = await setupLinkOf(id);
    const visitor = new Visitor(system.baseUrl);
    assert.equal((await visitor.get(`/dashboard/reset?token=${encodeURIComponent(reset)}`)).status, 200, 'live before the sign-in');

    assert.equal((await visitor.post('/dashboard/sign-in', { email, password: PASSWORD })).status, 303);
    assert.equal(await liveLinks(id), 0);
    assert.equal((await new Visitor(system.baseUrl).get(`/dashboard/reset?token=${encodeURIComponent(reset)}`)).status, 410);
    assert.equal((await new Visitor(system.baseUrl).get(`/dashboard/setup?token=${encodeURIComponent(setup)}`)).status, 410);
  });

  it('when an invited person sets their password with their setup link, then it and every other link of theirs are spent; the link opened again answers 410', async () => {
    const merchant = await system.newMerchant();
    const email = `invited-${Date.now()}@shop.example`;
    const created = await system.admin(['user', 'create', merchant.merchantId, '--email', email, '--role', 'developer']);
    const setupUrl = new URL(String(created['setup_url']));
    const token = setupUrl.searchParams.get('token') ?? '';
    const reset = await resetLinkOf(String(created['user_id']));
    const visitor = new Visitor(system.baseUrl);
    assert.equal((await visitor.get(`${setupUrl.pathname}${setupUrl.search}`)).status, 200, 'the invitation works');
    assert.equal((await visitor.post('/dashboard/setup', { token, password: PASSWORD })).status, 303);
    assert.equal(await liveLinks(String(created['user_id'])), 0);
    assert.equal((await visitor.get(`${setupUrl.pathname}${setupUrl.search}`)).status, 410);
    assert.equal((await visitor.get(`/dashboard/reset?token=${encodeURIComponent(reset)}`)).status, 410);
  });
});
