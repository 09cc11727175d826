/**
 * Secrets at rest (D17) across the whole system: webhook secrets, live
 * terminal passwords and test keys never appear in a dump of the database
 * nor in a log, yet webhooks are signed, live payments go through and test
 * keys can be revealed; ciphertexts moved between rows do not decrypt; clear
 * rows of before D17 are encrypted at start; the KEK rotates without losing
 * a secret.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionDetail } from '@gateway/contracts';
import { LIVE_TERMINAL, newSecretsKek, payOnPage, SECRET_KEEPERS, sessionRequest, TestSystem, WebhookReceiver, type Merchant } from '@gateway/testkit';
import { verifySignature } from '@gateway/sdk';

describe('Secrets at rest (D17), whole system', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let receiver: WebhookReceiver;
  /** Every secret this file handles: none may be in a dump or a log. */
  const secrets = new Set<string>();

  before(async () => {
    system = await TestSystem.start();
    receiver = await WebhookReceiver.start();
    secrets.add(LIVE_TERMINAL.password);
    secrets.add(system.envOf('webhook-dispatcher')['SECRETS_KEK'] ?? '');
  });

  after(async () => {
    await receiver?.close();
    await system?.shutdown();
  });

  async function merchant(): Promise<Merchant> {
    const created = await system.newMerchant({ webhookUrl: receiver.url() });
    secrets.add(created.testKey);
    secrets.add(created.webhookSecret);
    return created;
  }

  /** Approves live mode with a working live terminal; the live key. */
  async function approveLive(merchantId: string): Promise<string> {
    const approved = (await system.admin(['merchant', 'approve-kyb', merchantId])) as { live_secret_key: string; live_webhook_secret: string };
    await system.admin(['terminal', 'set', merchantId, '--mode', 'live', '--user', LIVE_TERMINAL.user, '--password', LIVE_TERMINAL.password]);
    secrets.add(approved.live_secret_key);
    secrets.add(approved.live_webhook_secret);
    return approved.live_secret_key;
  }

  /** Creates a session with `key` and pays it on the hosted page; its id. */
  async function pay(key: string, card: string): Promise<string> {
    const created = await system.api(key).post<SessionDetail>('/gateway/sessions/', sessionRequest());
    assert.equal(created.status, 201, created.text);
    const paid = await payOnPage(created.body.checkout_url ?? '', { card_number: card });
    assert.match(paid.html, /Payment successful/);
    return created.body.id;
  }

  /** The session.succeeded webhook of `sessionId`, once it arrived. */
  async function succeededHook(sessionId: string) {
    const arrived = (r: readonly { body: { event: string; data: Record<string, unknown> } }[]) => r.some((x) => x.body.event === 'session.succeeded' && x.body.data['id'] === sessionId);
    await receiver.waitFor(arrived);
    const hook = receiver.received.find((x) => x.body.event === 'session.succeeded' && x.body.data['id'] === sessionId);
    assert.ok(hook);
    return hook;
  }

  async function reveal(keyId: string): Promise<string> {
    return String((await system.admin(['key', 'reveal', keyId]))['secret_key']);
  }

  function assertNoSecretIn(text: string, where: string): void {
    for (const secret of secrets) assert.equal(secret !== '' && text.includes(secret), false, `a secret (${secret.slice(0, 8)}...) is in ${where}`);
  }

  it('when merchants have webhook secrets (one rotated), a live terminal and test keys, then a dump shows none of them, while webhooks are signed and a live payment goes through', async () => {
    const shop = await merchant();
    const liveKey = await approveLive(shop.merchantId);
    const extra = (await system.admin(['key', 'create', shop.merchantId, '--mode', 'test'])) as { key_id: string; secret_key: string };
    secrets.add(extra.secret_key);
    const rotating = await merchant();
    const rotated = (await system.admin(['webhook', 'rotate-secret', rotating.merchantId, '--mode', 'test'])) as { webhook_secret: string };
    secrets.add(rotated.webhook_secret);

    const dump = await system.dumpDatabase();
    assertNoSecretIn(dump, 'the database dump');
    assert.match(dump, /v1\.dk_[0-9a-f]{16}\./, 'the dump holds ciphertexts');

    const hook = await succeededHook(await pay(shop.testKey, '4242424242424242'));
    assert.ok(verifySignature(hook.raw, hook.signature, shop.webhookSecret));
    const both = await succeededHook(await pay(rotating.testKey, '4242424242424242'));
    assert.ok(verifySignature(both.raw, both.signature, rotated.webhook_secret), 'signed with the new secret');
    assert.ok(verifySignature(both.raw, both.signature, rotating.webhookSecret), 'and, during the grace period, the previous one');

    const liveSession = await pay(liveKey, '4111111111111111');
    const order = await system.db.query<{ status: string }>('SELECT status FROM acquirer.orders WHERE session_id = $1', [liveSession]);
    assert.deepEqual(order, [{ status: 'APPROVED' }]);
  });

  it('when a test key is revealed, then it is the key and works against the API; a live, a revoked or a pre-D17 key is refused', async () => {
    const shop = await merchant();
    await approveLive(shop.merchantId);
    const test = (await system.admin(['key', 'create', shop.merchantId, '--mode', 'test'])) as { key_id: string; secret_key: string };
    secrets.add(test.secret_key);
    assert.deepEqual(await system.admin(['key', 'reveal', test.key_id]), { key_id: test.key_id, secret_key: test.secret_key });
    assert.equal((await system.api(await reveal(test.key_id)).get('/gateway/sessions/list/')).status, 200);

    const live = (await system.admin(['key', 'create', shop.merchantId, '--mode', 'live'])) as { key_id: string; secret_key: string };
    secrets.add(live.secret_key);
    await assert.rejects(reveal(live.key_id), (err: Error & { code?: string }) => err.code === 'forbidden' && /Live keys are shown only once/.test(err.message));
    const stored = await system.db.query('SELECT secret_ciphertext FROM api_gateway.api_keys WHERE id = $1', [live.key_id]);
    assert.deepEqual(stored, [{ secret_ciphertext: null }], 'a live key is never stored in a form that could be shown');

    const legacy = (await system.admin(['key', 'create', shop.merchantId, '--mode', 'test'])) as { key_id: string; secret_key: string };
    secrets.add(legacy.secret_key);
    // A test key of before D17: only its hash was stored.
    await system.db.query('UPDATE api_gateway.api_keys SET secret_ciphertext = NULL WHERE id = $1', [legacy.key_id]);
    await assert.rejects(reveal(legacy.key_id), /only its hash is kept/);

    await system.admin(['key', 'revoke', test.key_id]);
    await assert.rejects(reveal(test.key_id), /revoked/);
    await assert.rejects(reveal('key_doesnotexist'), (err: Error & { code?: string }) => err.code === 'not-found');
  });

  it('when a ciphertext is copied to another row, then it does not decrypt there: no webhook is signed with it, no key is revealed from it', async () => {
    const source = await merchant();
    const target = await merchant();
    await system.db.query(
      `UPDATE webhooks.endpoints SET secret_ciphertext = (SELECT secret_ciphertext FROM webhooks.endpoints WHERE merchant_id = $1 AND NOT livemode)
       WHERE merchant_id = $2 AND NOT livemode`,
      [source.merchantId, target.merchantId],
    );
    const created = await system.api(target.testKey).post<SessionDetail>('/gateway/sessions/', sessionRequest());
    await system.api(target.testKey).post(`/gateway/sessions/${created.body.id}/cancel/`);
    let failed: { error_message: string }[] = [];
    for (let i = 0; i < 50 && failed.length === 0; i += 1) {
      failed = await system.db.query('SELECT error_message FROM webhooks.deliveries WHERE session_id = $1 AND status = $2', [created.body.id, 'FAILED']);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(failed, [{ error_message: 'the signing secret could not be read' }]);
    assert.equal(receiver.received.some((x) => x.body.data['id'] === created.body.id), false, 'nothing was sent');

    const [one, two] = await Promise.all([1, 2].map(() => system.admin(['key', 'create', source.merchantId, '--mode', 'test']) as Promise<{ key_id: string; secret_key: string }>));
    secrets.add(one?.secret_key ?? '');
    secrets.add(two?.secret_key ?? '');
    await system.db.query('UPDATE api_gateway.api_keys SET secret_ciphertext = (SELECT secret_ciphertext FROM api_gateway.api_keys WHERE id = $1) WHERE id = $2', [one?.key_id, two?.key_id]);
    await assert.rejects(reveal(two?.key_id ?? ''), (err: Error & { code?: string }) => err.code === 'internal-error');
  });

  it('when rows are stored in clear as before D17, then the services encrypt them as they start and drop the clear columns, and they still sign and pay', async () => {
    const shop = await merchant();
    const liveKey = await approveLive(shop.merchantId);
    const legacySecret = `whsec_legacy${Date.now()}`;
    const legacyPrevious = `whsec_legacyprev${Date.now()}`;
    secrets.add(legacySecret);
    secrets.add(legacyPrevious);
    await Promise.all(['webhook-dispatcher', 'acquirer-adapter'].map((service) => system.stopService(service)));
    // The columns and rows as the schema had them before D17.
    await system.db.query(`ALTER TABLE webhooks.endpoints ADD COLUMN secret text, ADD COLUMN previous_secret text, ALTER COLUMN secret_ciphertext DROP NOT NULL`);
    await system.db.query('DELETE FROM webhooks.endpoints WHERE merchant_id = $1 AND NOT livemode', [shop.merchantId]);
    await system.db.query(
      `INSERT INTO webhooks.endpoints (merchant_id, livemode, url, secret, previous_secret, previous_secret_expires_at) VALUES ($1, false, $2, $3, $4, now() + interval '1 hour')`,
      [shop.merchantId, receiver.url(), legacySecret, legacyPrevious],
    );
    await system.db.query('ALTER TABLE acquirer.terminals ADD COLUMN password text, ALTER COLUMN password_ciphertext DROP NOT NULL');
    await system.db.query('DELETE FROM acquirer.terminals WHERE merchant_id = $1', [shop.merchantId]);
    await system.db.query(`INSERT INTO acquirer.terminals (merchant_id, livemode, user_name, password, active) VALUES ($1, true, $2, $3, true)`, [
      shop.merchantId,
      LIVE_TERMINAL.user,
      LIVE_TERMINAL.password,
    ]);

    // Two replicas of each start together: one encrypts, the other finds nothing left to do.
    await Promise.all(['webhook-dispatcher', 'acquirer-adapter'].flatMap((service) => [system.startService(service as 'webhook-dispatcher'), system.startService(service as 'webhook-dispatcher', `${service}-2`)]));
    const clear = await system.db.query(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE (table_schema, table_name) IN (('webhooks', 'endpoints'), ('acquirer', 'terminals')) AND column_name IN ('secret', 'previous_secret', 'password')`,
    );
    assert.deepEqual(clear, [], 'no clear column is left');
    const stored = await system.db.query<{ secret_ciphertext: string; previous_secret_ciphertext: string }>(
      'SELECT secret_ciphertext, previous_secret_ciphertext FROM webhooks.endpoints WHERE merchant_id = $1 AND NOT livemode',
      [shop.merchantId],
    );
    assert.match(stored[0]?.secret_ciphertext ?? '', /^v1\./);
    assert.match(stored[0]?.previous_secret_ciphertext ?? '', /^v1\./);
    assertNoSecretIn(await system.dumpDatabase(), 'the database dump');
    const logs = ['webhook-dispatcher', 'webhook-dispatcher-2'].map((name) => readFileSync(join(system.logDir, `${name}.log`), 'utf8')).join('');
    assert.equal(logs.split('webhook secrets stored in clear are now encrypted').length - 1, 1, 'one replica encrypted');

    const hook = await succeededHook(await pay(shop.testKey, '4242424242424242'));
    assert.ok(verifySignature(hook.raw, hook.signature, legacySecret));
    assert.ok(verifySignature(hook.raw, hook.signature, legacyPrevious));
    await pay(liveKey, '4111111111111111');
    await Promise.all(['webhook-dispatcher-2', 'acquirer-adapter-2'].map((name) => system.stopService(name)));
  });

  it('when SECRETS_KEK is missing or malformed, then the service refuses to start and says why', async () => {
    await assert.rejects(system.startService('webhook-dispatcher', 'dispatcher-without-kek', { SECRETS_KEK: '' }), /exited during start/);
    await assert.rejects(system.startService('api-gateway', 'gateway-short-kek', { SECRETS_KEK: 'c2hvcnQ=' }), /exited during start/);
    assert.match(readFileSync(join(system.logDir, 'dispatcher-without-kek.log'), 'utf8'), /SECRETS_KEK is required/);
    const short = readFileSync(join(system.logDir, 'gateway-short-kek.log'), 'utf8');
    assert.match(short, /SECRETS_KEK: must be 32 random bytes in base64/);
    assert.equal(short.includes('c2hvcnQ='), false, 'the value is never echoed');
  });

  it('when the KEK is rotated (new one deployed with the old as previous, rewrap, old one removed), then every secret still decrypts', async () => {
    const shop = await merchant();
    const liveKey = await approveLive(shop.merchantId);
    const test = (await system.admin(['key', 'create', shop.merchantId, '--mode', 'test'])) as { key_id: string; secret_key: string };
    secrets.add(test.secret_key);
    const oldKek = system.envOf('webhook-dispatcher')['SECRETS_KEK'] ?? '';
    const newKek = newSecretsKek();
    secrets.add(newKek);
    const restartAll = async (env: Record<string, string>) => {
      for (const service of SECRET_KEEPERS) {
        await system.stopService(service);
        await system.startService(service, service, env);
      }
    };

    // Without the old KEK the data keys cannot be opened: the service says so and does not start.
    await system.stopService('webhook-dispatcher');
    await assert.rejects(system.startService('webhook-dispatcher', 'webhook-dispatcher', { SECRETS_KEK: newKek }), /exited during start/);
    assert.match(readFileSync(join(system.logDir, 'webhook-dispatcher.log'), 'utf8'), /neither SECRETS_KEK .* no SECRETS_KEK_PREVIOUS is set/);

    await restartAll({ SECRETS_KEK: newKek, SECRETS_KEK_PREVIOUS: oldKek });
    const counts = { data_keys: 1, rewrapped: 1 };
    assert.deepEqual(await system.admin(['secrets', 'rewrap']), { 'api-gateway': counts, 'acquirer-adapter': counts, 'webhook-dispatcher': counts, dashboard: counts });
    const unchanged = { data_keys: 1, rewrapped: 0 };
    assert.deepEqual(await system.admin(['secrets', 'rewrap']), { 'api-gateway': unchanged, 'acquirer-adapter': unchanged, 'webhook-dispatcher': unchanged, dashboard: unchanged });
    await restartAll({ SECRETS_KEK: newKek });

    const hook = await succeededHook(await pay(shop.testKey, '4242424242424242'));
    assert.ok(verifySignature(hook.raw, hook.signature, shop.webhookSecret));
    await pay(liveKey, '4111111111111111');
    assert.equal(await reveal(test.key_id), test.secret_key);
  });

  it('when all that ran, then no secret is in any service log', () => {
    for (const file of readdirSync(system.logDir)) assertNoSecretIn(readFileSync(join(system.logDir, file), 'utf8'), file);
  });
});
