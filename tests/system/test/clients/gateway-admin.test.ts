/** The gateway-admin executable against a running system: JSON out, exit codes (D13). */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { newId, type Envelope } from '@gateway/contracts';
import { generateOperatorKey, namesFor, OPERATOR_SIGNATURE_HEADER, OperatorSigner } from '@gateway/messaging';
import { pollUntil, runGatewayAdmin, testEnvironment, TestSystem } from '@gateway/testkit';

describe('gateway-admin', function () {
  this.timeout(60_000);
  let system: TestSystem;
  before(async () => {
    system = await TestSystem.start();
  });
  after(async () => {
    await system?.shutdown();
  });

  async function admin(...args: string[]) {
    const env = { ...process.env, AMQP_URL: system.env['AMQP_URL'], BROKER_PREFIX: system.prefix, OPERATOR_KEY: system.operatorKey, OPERATOR_NAME: 'cli-operator' };
    const result = await runGatewayAdmin(args, env);
    return { code: result.status, out: result.stdout ? (JSON.parse(result.stdout) as Record<string, string>) : undefined, err: result.stderr };
  }

  it('when a merchant is created, then it prints its id, test key and webhook secret as JSON and the key works', async () => {
    const { code, out } = await admin('merchant', 'create', '--name', 'CLI Shop', '--webhook-url', 'https://shop.example.tn/hooks');
    assert.equal(code, 0);
    assert.match(String(out?.['merchant_id']), /^mer_/);
    assert.match(String(out?.['test_secret_key']), /^sk_test_/);
    assert.match(String(out?.['test_webhook_secret']), /^whsec_/);
    assert.equal((await system.api(String(out?.['test_secret_key'])).get('/gateway/sessions/list/')).status, 200);
    const endpoint = await system.db.query<{ url: string }>('SELECT url FROM webhooks.endpoints WHERE merchant_id = $1', [out?.['merchant_id']]);
    assert.equal(endpoint[0]?.url, 'https://shop.example.tn/hooks');
  });

  it('when KYB is approved, then a live key and live webhook secret are printed, and live keys can then be created', async () => {
    const merchant = (await admin('merchant', 'create', '--name', 'Live Shop')).out;
    const id = String(merchant?.['merchant_id']);
    assert.equal((await admin('key', 'create', id, '--mode', 'live')).code, 1);
    const approved = await admin('merchant', 'approve-kyb', id);
    assert.equal(approved.code, 0);
    assert.match(String(approved.out?.['live_secret_key']), /^sk_live_/);
    assert.match(String(approved.out?.['live_webhook_secret']), /^whsec_/);
    const key = await admin('key', 'create', id, '--mode', 'live');
    assert.equal(key.code, 0);
    assert.match(String(key.out?.['secret_key']), /^sk_live_/);
    const live = await system.api(String(key.out?.['secret_key'])).get<{ data: unknown[] }>('/gateway/sessions/list/');
    assert.equal(live.status, 200);
  });

  it('when limits and rates are set, then they print what is now in force', async () => {
    const id = String((await admin('merchant', 'create', '--name', 'Limits Shop')).out?.['merchant_id']);
    assert.deepEqual((await admin('limits', 'set', id, '--mode', 'test', '--create', '7')).out, { merchant_id: id, mode: 'test', account: 10, create: 7, refund: 2 });
    assert.deepEqual((await admin('rate', 'set', id, '--mode', 'live', '--currency', 'eur', '--rate', '3.3')).out, { merchant_id: id, mode: 'live', currency: 'EUR', rate: '3.300000' });
    assert.deepEqual((await admin('rate', 'remove', id, '--mode', 'live', '--currency', 'EUR')).out, { merchant_id: id, mode: 'live', currency: 'EUR', removed: true });
  });

  it('when a test key is revealed, then it prints the key; a live key is refused (exit 1); secrets rewrap prints counts per service', async () => {
    const id = String((await admin('merchant', 'create', '--name', 'Reveal Shop')).out?.['merchant_id']);
    const test = (await admin('key', 'create', id, '--mode', 'test')).out;
    assert.deepEqual((await admin('key', 'reveal', String(test?.['key_id']))).out, test);
    await admin('merchant', 'approve-kyb', id);
    const live = await admin('key', 'reveal', String((await admin('key', 'create', id, '--mode', 'live')).out?.['key_id']));
    assert.equal(live.code, 1);
    assert.equal((JSON.parse(live.err.split('\n')[0] ?? '{}') as { error: string }).error, 'forbidden');
    const counts = { data_keys: 1, rewrapped: 0 };
    assert.deepEqual((await admin('secrets', 'rewrap')).out, { 'api-gateway': counts, 'acquirer-adapter': counts, 'webhook-dispatcher': counts, dashboard: counts });
  });

  it('when a dashboard user and a console operator are created, then it prints their ids and, for the one without a password, its setup link (D29: none with --password), stores them, and refuses a second of the same email or an unknown merchant (exit 1)', async () => {
    const id = String((await admin('merchant', 'create', '--name', 'Team Shop')).out?.['merchant_id']);
    const email = `owner.${id.slice(-8).toLowerCase()}@shop.example`;
    const user = await admin('user', 'create', id, '--email', email, '--role', 'owner');
    assert.equal(user.code, 0, user.err);
    assert.deepEqual(Object.keys(user.out ?? {}).sort(), ['setup_url', 'user_id']);
    assert.match(String(user.out?.['user_id']), /^usr_/);
    assert.ok(String(user.out?.['setup_url']).startsWith(`${system.baseUrl}/dashboard/`), String(user.out?.['setup_url']));
    const operatorEmail = `ops.${id.slice(-8).toLowerCase()}@example.com`;
    const operator = await admin('operator', 'create', '--email', operatorEmail, '--password', 'a long operator password');
    assert.equal(operator.code, 0, operator.err);
    assert.match(String(operator.out?.['operator_id']), /^opr_/);
    assert.deepEqual(Object.keys(operator.out ?? {}), ['operator_id']);
    const stored = await system.db.query<{ id: string; door: string; merchant_id: string | null; role: string | null; has_password: boolean }>(
      'SELECT id, door, merchant_id, role, password_hash IS NOT NULL AS has_password FROM dashboard.people WHERE email = ANY($1) ORDER BY door',
      [[email, operatorEmail]],
    );
    assert.deepEqual(stored, [
      { id: user.out?.['user_id'], door: 'dashboard', merchant_id: id, role: 'owner', has_password: false },
      { id: operator.out?.['operator_id'], door: 'ops', merchant_id: null, role: null, has_password: true },
    ]);

    const again = await admin('user', 'create', id, '--email', email, '--role', 'viewer');
    assert.equal(again.code, 1);
    assert.equal((JSON.parse(again.err.split('\n')[0] ?? '{}') as { error: string }).error, 'conflict');
    const nowhere = await admin('user', 'create', `mer_${'z'.repeat(24)}`, '--email', `x.${email}`, '--role', 'viewer');
    assert.equal(nowhere.code, 1);
    assert.equal((JSON.parse(nowhere.err.split('\n')[0] ?? '{}') as { error: string }).error, 'not-found');
    assert.equal((await system.db.query('SELECT 1 FROM dashboard.people WHERE email = $1', [`x.${email}`])).length, 0);
  });

  it("when it connects as a broker user that may not send operator commands (the broker's administrator), then it says which user and what to set, not an internal error; the same command unsigned or signed with an unknown key from that user still learns nothing", async () => {
    const brokerAdmin = (await testEnvironment()).amqpUrls[0] as string;
    const user = decodeURIComponent(new URL(brokerAdmin).username) || 'guest';
    const refused = await runGatewayAdmin(['audit', 'list'], { ...process.env, AMQP_URL: brokerAdmin, BROKER_PREFIX: system.prefix, OPERATOR_KEY: system.operatorKey });
    assert.equal(refused.status, 1);
    const error = JSON.parse(refused.stderr.split('\n')[0] ?? '{}') as { error: string; detail: string };
    assert.equal(error.error, 'broker-user', refused.stderr);
    assert.ok(error.detail.includes(`gateway-admin connected to the broker as ${user} (from AMQP_URL)`), error.detail);
    assert.ok(error.detail.includes(`operator commands from ${system.prefix}.gateway-admin only`), error.detail);
    assert.ok(error.detail.includes('set it to a URL with user') || error.detail.includes('Set AMQP_URL'), error.detail);

    const stranger = await OperatorSigner.fromJwk((await generateOperatorKey()).privateJwk, 'stranger');
    const connection = await connect(brokerAdmin);
    try {
      const channel = await connection.createChannel();
      const replies = new Map<string, { ok: boolean; problem?: { code: string; extensions?: Record<string, unknown> } }>();
      await channel.consume('amq.rabbitmq.reply-to', (msg) => msg && replies.set(String(msg.properties.correlationId), JSON.parse(msg.content.toString()) as never), { noAck: true });
      for (const sign of [undefined, (envelope: Envelope) => stranger.sign(envelope)]) {
        const envelope: Envelope = { id: newId('cmd'), type: 'audit.list', version: 1, occurred_at: new Date().toISOString(), correlation_id: randomUUID(), data: {} };
        const signature = sign ? await sign(envelope) : undefined;
        channel.sendToQueue(namesFor(system.prefix).commandQueueOf('audit.list'), Buffer.from(JSON.stringify(envelope)), {
          type: envelope.type,
          replyTo: 'amq.rabbitmq.reply-to',
          correlationId: envelope.id,
          contentType: 'application/json',
          userId: user,
          ...(signature && { headers: { [OPERATOR_SIGNATURE_HEADER]: signature } }),
        });
        await pollUntil(() => replies.has(envelope.id), 5_000, `the reply to ${sign ? 'a stranger-signed' : 'an unsigned'} audit.list`, 20);
        assert.deepEqual(replies.get(envelope.id)?.problem?.code, 'internal-error', JSON.stringify(replies.get(envelope.id)));
      }
    } finally {
      await connection.close();
    }
  });

  it('when a service refuses, then it exits 1 with a JSON error; on a usage error it exits 2', async () => {
    const refused = await admin('rate', 'set', `mer_${'z'.repeat(24)}`, '--mode', 'test', '--currency', 'TND', '--rate', '1');
    assert.equal(refused.code, 1);
    assert.equal((JSON.parse(refused.err.split('\n')[0] ?? '{}') as { error: string }).error, 'validation-error');
    assert.equal((await admin('merchant', 'suspend', `mer_${'z'.repeat(24)}`)).code, 1);
    assert.equal((await admin('merchant', 'create')).code, 2);
    assert.equal((await admin('key', 'create', 'mer_x', '--mode', 'prod')).code, 2);
    assert.equal((await admin('nonsense')).code, 2);
  });
});
