/**
 * A merchant's live Flouci keys (D26) set from the dashboard's Settings page
 * against the real services: an owner saves the public and private keys in
 * live mode, the page shows the public key and never the private one, the
 * adapter stores the private key encrypted, the audit log keeps the change
 * without it, and the session service learns that the merchant's live Flouci
 * is connected (wallet.connected); removing them undoes it. Developers and
 * viewers see the state but cannot change it; bad keys are refused and change
 * nothing; test mode says it always uses the Flouci sandbox.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pollUntil, TestSystem, Visitor, type Merchant } from '@gateway/testkit';

const PASSWORD = 'correct horse battery staple';
const SETTINGS = '/dashboard/settings';

type Role = 'owner' | 'developer' | 'viewer';
type AuditRow = { actor_email: string | null; outcome: string; detail: Record<string, unknown> };

describe('Live Flouci keys in the dashboard (D26)', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let merchant: Merchant;
  let owner: Visitor;
  let ownerEmail: string;
  const publicKey = `flouci-app-${randomBytes(8).toString('hex')}`;
  const privateKey = `flouci-secret-${randomBytes(16).toString('hex')}`;

  /** A signed-in person of `of` with `role`, in `mode`. */
  async function visitorOf(of: Merchant, role: Role, mode: 'test' | 'live'): Promise<{ visitor: Visitor; email: string }> {
    const email = await system.dashboardUser(of.merchantId, role, PASSWORD);
    const visitor = new Visitor(system.baseUrl);
    const answer = await visitor.post('/dashboard/sign-in', { email, password: PASSWORD });
    assert.equal(answer.status, 303, answer.html);
    const switched = await visitor.post('/dashboard/mode', { _csrf: await visitor.csrf(SETTINGS), mode, back: SETTINGS });
    assert.equal(switched.status, 303);
    return { visitor, email };
  }

  const postKeys = async (visitor: Visitor, keys: { public_key: string; private_key: string }) => visitor.post(`${SETTINGS}/flouci`, { _csrf: await visitor.csrf(SETTINGS), ...keys });
  const removeKeys = async (visitor: Visitor) => visitor.post(`${SETTINGS}/flouci/remove`, { _csrf: await visitor.csrf(SETTINGS) });

  /** The adapter's row of the merchant's current live Flouci application, as stored (removed keys are retired). */
  const storedAccount = async (of: Merchant) =>
    (await system.db.query<{ public_key: string; private_key_ciphertext: string }>('SELECT public_key, private_key_ciphertext FROM acquirer.wallet_accounts WHERE merchant_id = $1 AND retired_at IS NULL', [of.merchantId]))[0];

  /** Whether the session service has the merchant's live Flouci connected; undefined when it never heard of it. */
  const sessionKnows = async (of: Merchant) =>
    (await system.db.query<{ flouci_live: boolean }>('SELECT flouci_live FROM session.merchant_wallets WHERE merchant_id = $1', [of.merchantId]))[0]?.flouci_live;

  /** The audit entries of the merchant's Flouci changes, oldest first. */
  const auditOf = async (of: Merchant) =>
    system.db.query<AuditRow>("SELECT actor_email, outcome, detail FROM api_gateway.audit_log WHERE merchant_id = $1 AND action = 'wallet.settings.set' ORDER BY at", [of.merchantId]);

  before(async () => {
    system = await TestSystem.start({ readyTimeoutMs: 60_000 });
    merchant = await system.newMerchant();
    ({ visitor: owner, email: ownerEmail } = await visitorOf(merchant, 'owner', 'live'));
  });
  after(async () => {
    await system?.shutdown();
  });

  it('when the page is in test mode, then the Flouci section says test mode always uses the Flouci sandbox, with no keys to type', async () => {
    const { visitor } = await visitorOf(merchant, 'owner', 'test');
    const page = await visitor.get(SETTINGS);
    assert.equal(page.status, 200);
    assert.match(page.html, /Test mode always uses the Flouci sandbox/);
    assert.ok(!page.html.includes('name="private_key"'), 'no key form in test mode');
  });

  it('when an owner saves the keys in live mode, then the page shows connected and the public key but never the private key, and the adapter keeps the private key encrypted', async () => {
    const before = await owner.get(SETTINGS);
    assert.match(before.html, /data-flouci="not-connected"/);
    assert.match(before.html, /<input type="password" name="private_key"/, 'the private key is typed into a password field');

    const saved = await postKeys(owner, { public_key: ` ${publicKey} `, private_key: privateKey });
    assert.equal(saved.status, 200, saved.html);
    assert.match(saved.html, /Flouci keys saved/);
    assert.match(saved.html, /data-flouci="connected"/);
    assert.ok(saved.html.includes(publicKey), 'the public key is shown, trimmed');
    assert.ok(!saved.html.includes(privateKey), 'the answer never shows the private key');
    const page = await owner.get(SETTINGS);
    assert.ok(page.html.includes(`<code dir="ltr" data-flouci-public-key>${publicKey}</code>`));
    assert.ok(!page.html.includes(privateKey), 'the page never shows the private key');

    const stored = await storedAccount(merchant);
    assert.equal(stored?.public_key, publicKey);
    assert.match(stored?.private_key_ciphertext ?? '', /^v1\.dk_[0-9a-f]{16}\./, 'a ciphertext of the secret box');
    assert.ok(!stored?.private_key_ciphertext.includes(privateKey));
    assert.ok(!(await system.dumpDatabase()).includes(privateKey), 'no dump of the database shows the private key');
  });

  it('when the keys are saved, then the session service learns that the merchant takes Flouci in live mode', async () => {
    await pollUntil(async () => (await sessionKnows(merchant)) === true, 10_000, 'the session service heard wallet.connected');
  });

  it('when the keys are saved, then the audit log has the change with the public key, never the private key', async () => {
    await pollUntil(async () => (await auditOf(merchant)).length > 0, 10_000, 'the change in the audit log');
    const [entry] = await auditOf(merchant);
    assert.deepEqual(entry, { actor_email: ownerEmail, outcome: 'succeeded', detail: { flouci: { public_key: publicKey } } });
    const log = await owner.get('/dashboard/audit-log');
    assert.match(log.html, /wallet\.settings\.set/);
    assert.ok(!log.html.includes(privateKey));
  });

  it('when keys break the rules (a colon in the public key, a space, too long, missing), then each is refused, nothing changes, and the typed private key is not shown back', async () => {
    const attempts = [
      { keys: { public_key: 'app:public', private_key: 'typed-private-1' }, message: /The public key may not hold &quot;:&quot;\./ },
      { keys: { public_key: 'app public', private_key: 'typed-private-2' }, message: /The public key may hold only visible characters, without spaces\./ },
      { keys: { public_key: 'app-public', private_key: 'p'.repeat(201) }, message: /The private key must be at most 200 characters\./ },
      { keys: { public_key: 'app-public', private_key: '' }, message: /Give the private key\./ },
    ];
    for (const { keys, message } of attempts) {
      const refused = await postKeys(owner, keys);
      assert.equal(refused.status, 422, refused.html);
      assert.match(refused.html, message);
      if (keys.private_key !== '') assert.ok(!refused.html.includes(keys.private_key), 'the typed private key is not echoed');
    }
    assert.equal((await storedAccount(merchant))?.public_key, publicKey, 'the saved keys stand');
    assert.match((await owner.get(SETTINGS)).html, /data-flouci="connected"/);
  });

  it('when a developer or a viewer opens Settings in live mode, then they see the state but no form, and their changes are refused (403) and change nothing', async () => {
    for (const role of ['developer', 'viewer'] as const) {
      const { visitor } = await visitorOf(merchant, role, 'live');
      const page = await visitor.get(SETTINGS);
      assert.equal(page.status, 200);
      assert.match(page.html, /data-flouci="connected"/);
      assert.ok(!page.html.includes('name="private_key"'), `a ${role} gets no key form`);
      assert.ok(!page.html.includes(`${SETTINGS}/flouci/remove`), `a ${role} gets no removal`);
      assert.equal((await postKeys(visitor, { public_key: 'their-public', private_key: 'their-private' })).status, 403);
      assert.equal((await removeKeys(visitor)).status, 403);
    }
    assert.equal((await storedAccount(merchant))?.public_key, publicKey, 'nothing changed');
  });

  it('when the owner removes the keys, then the page shows not connected, the adapter holds none, the session service learns it and the audit log has the removal', async () => {
    const removed = await removeKeys(owner);
    assert.equal(removed.status, 200, removed.html);
    assert.match(removed.html, /Flouci keys removed/);
    assert.match(removed.html, /data-flouci="not-connected"/);
    assert.ok(!removed.html.includes(publicKey), 'no public key shown any more');
    assert.equal(await storedAccount(merchant), undefined);
    await pollUntil(async () => (await sessionKnows(merchant)) === false, 10_000, 'the session service heard the removal');
    await pollUntil(async () => (await auditOf(merchant)).some((e) => e.detail['flouci'] === null), 10_000, 'the removal in the audit log');
    const entries = await auditOf(merchant);
    assert.deepEqual(
      entries.map((e) => e.outcome),
      ['succeeded', 'validation-error', 'validation-error', 'validation-error', 'validation-error', 'succeeded'],
      'every change, refused ones included, and none by the developer or the viewer (refused before any command)',
    );
    assert.ok(!JSON.stringify(entries).includes('typed-private') && !JSON.stringify(entries).includes(privateKey), 'no private key in the audit log');
  });

  it('when the keys were handled, then no log of any service holds the private key', () => {
    assert.match(readFileSync(join(system.logDir, 'acquirer-adapter.log'), 'utf8'), /live Flouci keys saved/, 'the logs read are the ones written');
    for (const file of readdirSync(system.logDir)) {
      const text = readFileSync(join(system.logDir, file), 'utf8');
      assert.ok(!text.includes(privateKey), `${file} holds the private key`);
      assert.ok(!text.includes('typed-private'), `${file} holds a refused private key`);
    }
  });
});
