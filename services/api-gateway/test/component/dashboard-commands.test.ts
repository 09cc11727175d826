/**
 * The commands the dashboard and the operations console send (D14, D15),
 * against the running gateway: a merchant's user, signed for by the door, is
 * held to their own merchant; keys are listed, rotated with a configured
 * grace and stop working at its end on every replica; the audit log names
 * who acted and from where, never a secret, a page at a time; the console
 * searches and pages merchants.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiKeySummary, AuditEntry, MerchantDetail, MerchantSummary } from '@gateway/contracts';
import type { Actor } from '@gateway/messaging';
import type { AppError } from '@gateway/problem';
import { ApiClient, pollUntil, TestSystem, type Merchant } from '@gateway/testkit';

type Keys = { data: ApiKeySummary[] };
type AuditPage = { data: AuditEntry[]; has_more: boolean };
type MerchantPage = { data: MerchantSummary[]; has_more: boolean };

describe('Dashboard and console commands (D14, D15)', function () {
  this.timeout(120_000);
  let system: TestSystem;
  let userCount = 0;
  /** Every secret the tests made or were shown: none may reach a log. */
  const secrets: string[] = [];

  before(async () => {
    system = await TestSystem.start({
      services: ['api-gateway', 'session', 'webhook-dispatcher'],
      replicas: { 'api-gateway': 2 },
      // A key stays cached 30 s: a revocation that shows sooner was checked at use, or broadcast.
      serviceEnv: { 'api-gateway': { KEY_ROTATION_GRACES_SECONDS: '0,2,86400', AUTH_CACHE_TTL_MS: '30000' } },
      readyTimeoutMs: 60_000,
    });
  });
  after(async () => {
    await system?.shutdown();
  });

  async function merchant(): Promise<Merchant> {
    const m = await system.newMerchant({ limits: { account: 1000 } });
    secrets.push(m.testKey, m.webhookSecret);
    return m;
  }

  /** A dashboard user of `merchantId`, acting from a documentation address. */
  function userOf(merchantId: string): Actor {
    userCount += 1;
    return { type: 'user', id: `usr_test${userCount}`, email: `owner${userCount}@shop.example`, address: `203.0.113.${userCount}`, merchantId };
  }

  /** One API client per gateway replica, with `key`. */
  function onEveryReplica(key: string): ApiClient[] {
    return system.replicasOf('api-gateway').map((name) => new ApiClient(`http://127.0.0.1:${system.portOf(name)}/api/v1`, key));
  }

  async function statuses(key: string): Promise<number[]> {
    return Promise.all(onEveryReplica(key).map(async (api) => (await api.get('/gateway/sessions/list/')).status));
  }

  async function keyRow(keyId: string): Promise<{ merchant_id: string; revoked_at: Date | null } | undefined> {
    return (await system.db.query<{ merchant_id: string; revoked_at: Date | null }>('SELECT merchant_id, revoked_at FROM api_gateway.api_keys WHERE id = $1', [keyId]))[0];
  }

  async function keyIdOf(merchantId: string, mode: 'test' | 'live' = 'test'): Promise<string> {
    const rows = await system.db.query<{ id: string }>('SELECT id FROM api_gateway.api_keys WHERE merchant_id = $1 AND livemode = $2 ORDER BY created_at LIMIT 1', [
      merchantId,
      mode === 'live',
    ]);
    return rows[0]?.id ?? '';
  }

  async function rejection(promise: Promise<unknown>): Promise<{ code: string; detail: string; errors: readonly { field: string }[] }> {
    try {
      await promise;
    } catch (err) {
      const e = err as AppError;
      return { code: e.code, detail: e.detail, errors: e.errors };
    }
    assert.fail('the command was expected to be refused');
  }

  /** The ids of the audit entries of `merchantId` stored, newest first, once `count` of them have arrived (they come as events). */
  async function storedAudit(merchantId: string, count: number): Promise<string[]> {
    let ids: string[] = [];
    await pollUntil(
      async () => {
        const rows = await system.db.query<{ audit_id: string }>('SELECT audit_id FROM api_gateway.audit_log WHERE merchant_id = $1 ORDER BY at DESC, audit_id DESC', [merchantId]);
        ids = rows.map((row) => row.audit_id);
        return ids.length >= count;
      },
      10_000,
      `${count} audit entries of ${merchantId}`,
    );
    return ids;
  }

  /**
   * The audit log of `merchantId` as an operator lists it, once `count`
   * entries have arrived. Reading it is not recorded: reads that answer are
   * page views, not changes.
   */
  async function auditOf(merchantId: string, count: number): Promise<AuditEntry[]> {
    await storedAudit(merchantId, count);
    return (await system.send<AuditPage>('audit.list', { merchant_id: merchantId, limit: 500 })).data;
  }

  describe("a merchant's user", () => {
    it('when a user lists, creates, reveals and revokes their own keys, then each works and the audit log names the user, their email and address, and no secret', async () => {
      const m = await merchant();
      const user = userOf(m.merchantId);
      const original = await keyIdOf(m.merchantId);

      const created = await system.sendFor<{ key_id: string; secret_key: string }>(user, 'api_key.create', { merchant_id: m.merchantId, mode: 'test' });
      assert.match(created.secret_key, /^sk_test_/);
      secrets.push(created.secret_key);
      const listed = await system.sendFor<Keys>(user, 'api_key.list', { merchant_id: m.merchantId });
      assert.deepEqual(
        listed.data.map((k) => [k.key_id, k.mode, k.last_four, k.revoked_at, k.revealable]),
        [
          [created.key_id, 'test', created.secret_key.slice(-4), null, true],
          [original, 'test', m.testKey.slice(-4), null, true],
        ],
        'newest first, the last four of each secret, no secret',
      );
      assert.equal(JSON.stringify(listed).includes(created.secret_key), false);

      const revealed = await system.sendFor<{ secret_key: string }>(user, 'api_key.reveal', { merchant_id: m.merchantId, key_id: created.key_id });
      assert.equal(revealed.secret_key, created.secret_key);
      assert.deepEqual(await system.sendFor(user, 'api_key.revoke', { merchant_id: m.merchantId, key_id: created.key_id }), { key_id: created.key_id, revoked: true });
      assert.deepEqual(await statuses(created.secret_key), [401, 401]);
      const after = await system.sendFor<Keys>(user, 'api_key.list', { merchant_id: m.merchantId, mode: 'test' });
      assert.equal(after.data[0]?.revealable, false, 'a revoked key is not revealable');
      assert.ok(after.data[0]?.revoked_at);

      // merchant.create, webhook_endpoint.reveal_secret (the endpoint comes from merchant.created), limits.set by the operator; then the user's three changes (lists are reads, not recorded).
      const entries = await auditOf(m.merchantId, 6);
      const byUser = entries.filter((e) => e.actor_type === 'user');
      assert.deepEqual(
        byUser.map((e) => [e.action, e.actor_id, e.actor_email, e.address, e.merchant_id, e.outcome, e.service]),
        ['api_key.revoke', 'api_key.reveal', 'api_key.create'].map((action) => [
          action,
          user.id,
          user.email,
          user.address,
          m.merchantId,
          'succeeded',
          'api-gateway',
        ]),
      );
      assert.equal(byUser.find((e) => e.action === 'api_key.reveal')?.target, created.key_id);
      const operators = entries.filter((e) => e.actor_type === 'operator');
      assert.deepEqual(
        operators.map((e) => [e.actor_email, e.address]),
        operators.map(() => [null, null]),
        'gateway-admin knows no email or address',
      );
      const text = JSON.stringify(entries);
      for (const secret of [created.secret_key, m.testKey]) assert.equal(text.includes(secret), false, 'a secret in the audit log');
      const [stored] = await system.db.query<{ actor_email: string; address: string }>('SELECT actor_email, address FROM api_gateway.audit_log WHERE action = $1 AND actor_id = $2', [
        'api_key.create',
        user.id,
      ]);
      assert.deepEqual(stored, { actor_email: user.email, address: user.address });
    });

    it("when a user names another merchant's key under their own merchant, then it is not found and the key is untouched", async () => {
      const mine = await merchant();
      const theirs = await merchant();
      const user = userOf(mine.merchantId);
      const theirKey = await keyIdOf(theirs.merchantId);
      const refused = await Promise.all([
        rejection(system.sendFor(user, 'api_key.revoke', { merchant_id: mine.merchantId, key_id: theirKey })),
        rejection(system.sendFor(user, 'api_key.reveal', { merchant_id: mine.merchantId, key_id: theirKey })),
        rejection(system.sendFor(user, 'api_key.rotate', { merchant_id: mine.merchantId, key_id: theirKey, revoke_in_seconds: 0 })),
      ]);
      assert.deepEqual(
        refused.map((r) => r.code),
        ['not-found', 'not-found', 'not-found'],
      );
      for (const r of refused) assert.equal(r.detail.includes(theirs.merchantId), false);
      assert.deepEqual(await keyRow(theirKey), { merchant_id: theirs.merchantId, revoked_at: null });
      assert.equal((await system.db.query('SELECT 1 FROM api_gateway.api_keys WHERE merchant_id = $1', [mine.merchantId])).length, 1, 'no key made by the refused rotation');
      assert.deepEqual(await statuses(theirs.testKey), [200, 200]);
    });

    it("when a user names another merchant, or sends an operator-only command, then it is forbidden and nothing changes", async () => {
      const mine = await merchant();
      const theirs = await merchant();
      const user = userOf(mine.merchantId);
      const refused = await Promise.all([
        rejection(system.sendFor(user, 'api_key.list', { merchant_id: theirs.merchantId })),
        rejection(system.sendFor(user, 'api_key.create', { merchant_id: theirs.merchantId, mode: 'test' })),
        rejection(system.sendFor(user, 'merchant.approve_kyb', { merchant_id: mine.merchantId })),
        rejection(system.sendFor(user, 'merchant.list', {})),
        rejection(system.sendFor(user, 'audit.list', {})),
      ]);
      assert.deepEqual(
        refused.map((r) => r.code),
        ['forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden'],
      );
      const [state] = await system.db.query<{ kyb_approved_at: Date | null; keys: number }>(
        'SELECT kyb_approved_at, (SELECT count(*)::int FROM api_gateway.api_keys k WHERE k.merchant_id = m.id) AS keys FROM api_gateway.merchants m WHERE id = $1',
        [mine.merchantId],
      );
      assert.deepEqual(state, { kyb_approved_at: null, keys: 1 });
      const [theirKeys] = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_gateway.api_keys WHERE merchant_id = $1', [theirs.merchantId]);
      assert.equal(theirKeys?.n, 1);
      // Refusals are recorded too, under the user.
      // merchant.create, webhook_endpoint.reveal_secret and limits.set by the operator, then the refused approval.
      const entries = (await auditOf(mine.merchantId, 4)).filter((e) => e.actor_id === user.id);
      assert.deepEqual(entries.map((e) => [e.action, e.outcome]), [['merchant.approve_kyb', 'forbidden']]);
    });

    it("when a user reads their merchant's audit log, then only its entries come, a page at a time", async () => {
      const m = await merchant();
      const user = userOf(m.merchantId);
      const page = await system.sendFor<AuditPage>(user, 'audit.list', { merchant_id: m.merchantId, limit: 1 });
      assert.equal(page.data.length, 1);
      assert.equal(page.has_more, true);
      assert.equal(page.data[0]?.merchant_id, m.merchantId);
    });
  });

  describe('key rotation', () => {
    it('when a key is rotated with no grace, then the new key works and the old one answers 401 at once on every replica, though both had it cached', async () => {
      const m = await merchant();
      const user = userOf(m.merchantId);
      const old = await keyIdOf(m.merchantId);
      assert.deepEqual(await statuses(m.testKey), [200, 200]);
      const rotated = await system.sendFor<{ key_id: string; secret_key: string; revoked_key_id: string; revokes_at: string }>(user, 'api_key.rotate', {
        merchant_id: m.merchantId,
        key_id: old,
        revoke_in_seconds: 0,
      });
      assert.equal(rotated.revoked_key_id, old);
      secrets.push(rotated.secret_key);
      assert.match(rotated.secret_key, /^sk_test_/);
      assert.ok(Math.abs(Date.parse(rotated.revokes_at) - Date.now()) < 5_000);
      // The replica that ran the command forgot the key itself; the other heard the api_key.revoked broadcast.
      await pollUntil(async () => (await statuses(m.testKey)).every((s) => s === 401), 1_000, 'the old key refused by every replica');
      assert.deepEqual(await statuses(rotated.secret_key), [200, 200]);
      const again = await rejection(system.sendFor(user, 'api_key.rotate', { merchant_id: m.merchantId, key_id: old, revoke_in_seconds: 0 }));
      assert.equal(again.code, 'not-found', 'a revoked key is no longer rotated');
    });

    it('when a key is rotated with a grace of 2 s, then the old key works on every replica until then and answers 401 after, at once', async () => {
      const m = await merchant();
      const old = await keyIdOf(m.merchantId);
      assert.deepEqual(await statuses(m.testKey), [200, 200]);
      const rotated = await system.sendFor<{ secret_key: string; revokes_at: string }>(userOf(m.merchantId), 'api_key.rotate', {
        merchant_id: m.merchantId,
        key_id: old,
        revoke_in_seconds: 2,
      });
      const revokesAt = Date.parse(rotated.revokes_at);
      secrets.push(rotated.secret_key);
      assert.deepEqual((await keyRow(old))?.revoked_at?.getTime(), revokesAt);
      assert.deepEqual(await statuses(m.testKey), [200, 200], 'the old key works during the grace');
      assert.deepEqual(await statuses(rotated.secret_key), [200, 200]);
      const listed = await system.sendFor<Keys>(userOf(m.merchantId), 'api_key.list', { merchant_id: m.merchantId });
      assert.deepEqual(
        listed.data.map((k) => [k.revoked_at, k.revealable]),
        [
          [null, true],
          [rotated.revokes_at, true],
        ],
        'the old key shows when it stops working',
      );
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, revokesAt - Date.now() + 50)));
      assert.deepEqual(await statuses(m.testKey), [401, 401], 'refused once its time has come');
      assert.deepEqual(await statuses(rotated.secret_key), [200, 200]);
    });

    it('when a live key is rotated, then the new key is a live key shown once, and the old one keeps its grace', async () => {
      const m = await merchant();
      const liveKey = await system.approveLive(m.merchantId);
      const old = await keyIdOf(m.merchantId, 'live');
      const rotated = await system.sendFor<{ key_id: string; secret_key: string }>(userOf(m.merchantId), 'api_key.rotate', {
        merchant_id: m.merchantId,
        key_id: old,
        revoke_in_seconds: 86_400,
      });
      assert.match(rotated.secret_key, /^sk_live_/);
      secrets.push(liveKey, rotated.secret_key);
      assert.deepEqual(await statuses(liveKey), [200, 200]);
      assert.deepEqual(await statuses(rotated.secret_key), [200, 200]);
      const live = await system.sendFor<Keys>(userOf(m.merchantId), 'api_key.list', { merchant_id: m.merchantId, mode: 'live' });
      assert.deepEqual(
        live.data.map((k) => [k.key_id, k.last_four, k.revealable]),
        [
          [rotated.key_id, rotated.secret_key.slice(-4), false],
          [old, liveKey.slice(-4), false],
        ],
      );
      assert.ok(Date.parse(live.data[1]?.revoked_at ?? '') > Date.now() + 86_000_000);
    });

    it('when the grace is not one of the configured lengths, then it is a 422 naming revoke_in_seconds and nothing changes', async () => {
      const m = await merchant();
      const old = await keyIdOf(m.merchantId);
      const refused = await rejection(system.sendFor(userOf(m.merchantId), 'api_key.rotate', { merchant_id: m.merchantId, key_id: old, revoke_in_seconds: 3600 }));
      assert.deepEqual([refused.code, refused.errors.map((e) => e.field)], ['validation-error', ['revoke_in_seconds']]);
      assert.deepEqual(await keyRow(old), { merchant_id: m.merchantId, revoked_at: null });
      const [count] = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_gateway.api_keys WHERE merchant_id = $1', [m.merchantId]);
      assert.equal(count?.n, 1);
    });
  });

  describe('the audit log', () => {
    it('when it is read a page at a time with before, then the pages join up newest first, with has_more until the last; a cursor of another list is a 422', async () => {
      const m = await merchant();
      const user = userOf(m.merchantId);
      for (let i = 0; i < 3; i += 1) await system.sendFor(user, 'api_key.create', { merchant_id: m.merchantId, mode: 'test' });
      // A read is no change: not recorded.
      await system.sendFor(user, 'api_key.list', { merchant_id: m.merchantId });
      // merchant.create, webhook_endpoint.reveal_secret, limits.set, then the three creates.
      const all = await storedAudit(m.merchantId, 6);
      const pages: AuditPage[] = [];
      let before: string | undefined;
      do {
        const page = await system.send<AuditPage>('audit.list', { merchant_id: m.merchantId, limit: 4, ...(before && { before }) });
        pages.push(page);
        before = page.data.at(-1)?.audit_id;
        if (!page.has_more) break;
      } while (pages.length < 5);
      assert.deepEqual(
        pages.map((p) => [p.data.length, p.has_more]),
        [
          [4, true],
          [2, false],
        ],
      );
      assert.deepEqual(
        pages.flatMap((p) => p.data.map((e) => e.audit_id)),
        all,
      );
      const times = pages.flatMap((p) => p.data.map((e) => Date.parse(e.at)));
      assert.deepEqual(times, [...times].sort((a, b) => b - a), 'newest first');

      // The whole system's log pages the same way, and an entry of another merchant is no cursor of this one's.
      const whole = await system.send<AuditPage>('audit.list', { limit: 2, before: all[0] });
      assert.equal(whole.data.length, 2);
      assert.equal(whole.has_more, true);
      const other = await merchant();
      const [foreign] = await storedAudit(other.merchantId, 1);
      const refused = await rejection(system.sendFor(user, 'audit.list', { merchant_id: m.merchantId, before: foreign }));
      assert.deepEqual([refused.code, refused.errors.map((e) => e.field)], ['validation-error', ['before']]);
    });
  });

  describe('merchants in the console', () => {
    it('when merchants are searched by part of the name in any case, by id, and by status, then the matches come newest first, a page at a time', async () => {
      const tag = `Qz${Date.now().toString(36)}`;
      const ids: string[] = [];
      for (const name of [`${tag} Alpha`, `Shop ${tag.toLowerCase()} Beta`, `${tag.toUpperCase()}_Gamma`]) {
        ids.push(String((await system.admin(['merchant', 'create', '--name', name]))['merchant_id']));
      }
      await system.admin(['merchant', 'suspend', ids[1] ?? '']);
      const newestFirst = [...ids].reverse();

      const first = (await system.send('merchant.list', { search: tag.toLowerCase(), limit: 2 })) as MerchantPage;
      assert.deepEqual([first.data.map((d) => d.merchant_id), first.has_more], [newestFirst.slice(0, 2), true]);
      const second = (await system.send('merchant.list', { search: tag, limit: 2, starting_after: first.data[1]?.merchant_id })) as MerchantPage;
      assert.deepEqual([second.data.map((d) => d.merchant_id), second.has_more], [newestFirst.slice(2), false]);
      assert.deepEqual(
        first.data[1],
        { merchant_id: ids[1], name: `Shop ${tag.toLowerCase()} Beta`, order_prefix: 'SHO', status: 'suspended', kyb_approved_at: null, created_at: first.data[1]?.created_at },
      );

      const suspended = (await system.send('merchant.list', { search: tag, status: 'suspended' })) as MerchantPage;
      assert.deepEqual(suspended.data.map((d) => d.merchant_id), [ids[1]]);
      const byId = (await system.send('merchant.list', { search: ids[2] })) as MerchantPage;
      assert.deepEqual(byId.data.map((d) => d.merchant_id), [ids[2]]);
      // LIKE's wildcards are plain characters in a search.
      const wildcard = (await system.send('merchant.list', { search: `${tag}%` })) as MerchantPage;
      assert.deepEqual(wildcard.data, []);
      const unknown = await rejection(system.send('merchant.list', { starting_after: 'mer_nosuchmerchant0000000' }));
      assert.deepEqual([unknown.code, unknown.errors.map((e) => e.field)], ['validation-error', ['starting_after']]);
    });

    it("when a merchant is read, then it comes with the budgets in force per mode: its overrides, the defaults elsewhere", async () => {
      const m = await system.newMerchant({ limits: { account: 40 } });
      await system.admin(['limits', 'set', m.merchantId, '--mode', 'live', '--refund', '3']);
      const detail = (await system.sendFor(userOf(m.merchantId), 'merchant.get', { merchant_id: m.merchantId })) as MerchantDetail;
      assert.equal(detail.merchant_id, m.merchantId);
      assert.equal(detail.status, 'active');
      assert.deepEqual(detail.limits, { test: { account: 40, create: 5, refund: 2 }, live: { account: 25, create: 10, refund: 3 } });
      const missing = await rejection(system.send('merchant.get', { merchant_id: 'mer_nosuchmerchant0000000' }));
      assert.equal(missing.code, 'not-found');
    });
  });

  // A suite of its own: mocha runs a suite's own tests before its nested suites'.
  describe('afterwards', () => {
    it('when all that ran, then no key made, shown or rotated is in any service log or in the audit log', async () => {
      assert.ok(secrets.length > 10);
      const audit = (await system.db.query<{ row: string }>('SELECT row_to_json(a)::text AS row FROM api_gateway.audit_log a')).map((r) => r.row).join('\n');
      for (const secret of secrets) assert.equal(audit.includes(secret), false, 'a secret in the audit log');
      for (const file of readdirSync(system.logDir)) {
        const text = readFileSync(join(system.logDir, file), 'utf8');
        for (const secret of secrets) assert.equal(text.includes(secret), false, `a secret in ${file}`);
      }
    });
  });
});
