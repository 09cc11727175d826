/**
 * Who may command (D17), against the running system: operator commands that
 * are not signed by a known operator for exactly that message, once and in
 * time, are refused before anything happens, counted and logged; signed ones
 * run and land in the audit log, which holds no secret.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'amqplib';
import { isCommandType, newId, type AuditEntry, type BrokerPrincipal, type Envelope, type ServiceName } from '@gateway/contracts';
import { brokerUser, generateOperatorKey, namesFor, OPERATOR_SIGNATURE_HEADER, OperatorSigner, type JWK } from '@gateway/messaging';
import { LIVE_TERMINAL, payOnPage, pollUntil, runGatewayAdmin, sessionRequest, TEST_OPERATOR, TestSystem, type ServiceProcess } from '@gateway/testkit';

const REPLY_TO = 'amq.rabbitmq.reply-to';

type Reply = { ok: true; body: Record<string, unknown> } | { ok: false; problem: { code: string; detail: string; extensions?: { reason?: string } } };

describe('Operator commands (D17)', function () {
  this.timeout(90_000);
  let system: TestSystem;
  let signer: OperatorSigner;

  before(async () => {
    system = await TestSystem.start();
    signer = await OperatorSigner.fromJwk(JSON.parse(system.operatorKey) as JWK, TEST_OPERATOR);
  });

  after(async () => {
    await system?.shutdown();
  });

  function approveKyb(merchantId: string): Envelope {
    return { id: newId('cmd'), type: 'merchant.approve_kyb', version: 1, occurred_at: new Date().toISOString(), correlation_id: randomUUID(), data: { merchant_id: merchantId } };
  }

  /**
   * Publishes `envelope` on `service`'s command queue with raw amqplib, as
   * anyone holding the operators' broker credentials (but not their signing
   * key) could, `times` times with `signature` (or none), and resolves with
   * the replies.
   */
  async function publishRaw(envelope: Envelope, signature: string | undefined, times = 1, service: ServiceName = 'api-gateway', as: BrokerPrincipal = 'gateway-admin'): Promise<Reply[]> {
    const connection = await connect(system.brokerUrls[as]);
    try {
      const channel = await connection.createChannel();
      const replies: Reply[] = [];
      await channel.consume(REPLY_TO, (msg) => msg && replies.push(JSON.parse(msg.content.toString()) as Reply), { noAck: true });
      for (let i = 0; i < times; i += 1) {
        // One after the other, so that "the first" is well defined.
        channel.sendToQueue(isCommandType(envelope.type) ? namesFor(system.prefix).commandQueueOf(envelope.type) : namesFor(system.prefix).commandQueue(service), Buffer.from(JSON.stringify(envelope)), {
          type: envelope.type,
          replyTo: REPLY_TO,
          correlationId: `${envelope.id}-${i}`,
          contentType: 'application/json',
          userId: brokerUser(system.prefix, as),
          ...(signature && { headers: { [OPERATOR_SIGNATURE_HEADER]: signature } }),
        });
        await pollUntil(() => replies.length > i, 5_000, `reply ${i + 1} to ${envelope.type}`, 20);
      }
      return replies;
    } finally {
      await connection.close();
    }
  }

  async function liveState(merchantId: string): Promise<{ approved: boolean; liveKeys: number }> {
    const [merchant] = await system.db.query<{ kyb_approved_at: Date | null }>('SELECT kyb_approved_at FROM api_gateway.merchants WHERE id = $1', [merchantId]);
    const [keys] = await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_gateway.api_keys WHERE merchant_id = $1 AND livemode', [merchantId]);
    return { approved: merchant?.kyb_approved_at != null, liveKeys: keys?.n ?? -1 };
  }

  async function refusals(reason: string, service: 'api-gateway' | 'refund' = 'api-gateway', command = 'merchant.approve_kyb'): Promise<number> {
    const line = (await system.metricsOf(service))
      .split('\n')
      .find((l) => l.startsWith('gateway_operator_commands_refused_total{') && l.includes(`command="${command}"`) && l.includes(`reason="${reason}"`));
    return line ? Number(line.split(' ').pop()) : 0;
  }

  function logOf(service: string): string {
    return readFileSync(join(system.logDir, `${service}.log`), 'utf8');
  }

  /** Asserts that the reply is the refusal for `reason`, that it was counted and logged, and that the merchant was not approved. */
  async function assertRefused(reply: Reply | undefined, reason: string, merchantId: string, envelope: Envelope): Promise<void> {
    assert.ok(reply && !reply.ok, JSON.stringify(reply));
    assert.equal(reply.problem.code, 'operator-unauthorized');
    assert.equal(reply.problem.extensions?.reason, reason);
    assert.deepEqual(await liveState(merchantId), { approved: false, liveKeys: 0 });
    assert.equal(await refusals(reason), 1);
    await pollUntil(() => logOf('api-gateway').includes(envelope.id), 2_000, 'the refusal logged');
    const logged = logOf('api-gateway')
      .split('\n')
      .filter((line) => line.includes(envelope.id))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      logged.map((l) => [l['msg'], l['level'], l['reason'], l['command']]),
      [['operator command refused', 'warn', reason, 'merchant.approve_kyb']],
    );
  }

  it('when an unsigned merchant.approve_kyb is published on the broker, then it is refused, nothing changes, and the refusal is counted and logged', async () => {
    const { merchantId } = await system.newMerchant();
    const envelope = approveKyb(merchantId);
    const [reply] = await publishRaw(envelope, undefined);
    await assertRefused(reply, 'missing', merchantId, envelope);
  });

  it('when it is signed with a key no service knows, or with another key under a known kid, then it is refused as unknown-key or bad-signature', async () => {
    const stranger = await generateOperatorKey();
    const { merchantId } = await system.newMerchant();
    const unknown = approveKyb(merchantId);
    const [first] = await publishRaw(unknown, await (await OperatorSigner.fromJwk(stranger.privateJwk)).sign(unknown));
    await assertRefused(first, 'unknown-key', merchantId, unknown);

    const forged = approveKyb(merchantId);
    const impostor = await OperatorSigner.fromJwk({ ...stranger.privateJwk, kid: signer.keyId }, TEST_OPERATOR);
    const [second] = await publishRaw(forged, await impostor.sign(forged));
    await assertRefused(second, 'bad-signature', merchantId, forged);
  });

  it('when its signature has expired, then it is refused', async () => {
    const { merchantId } = await system.newMerchant();
    const envelope = approveKyb(merchantId);
    // Signed two minutes ago: its minute is over.
    const [reply] = await publishRaw(envelope, await signer.sign(envelope, Date.now() - 120_000));
    await assertRefused(reply, 'expired', merchantId, envelope);
  });

  it('when its data is altered after signing (another merchant), then it is refused and neither merchant is approved', async () => {
    const signedFor = await system.newMerchant();
    const { merchantId } = await system.newMerchant();
    const envelope = approveKyb(signedFor.merchantId);
    const token = await signer.sign(envelope);
    const [reply] = await publishRaw({ ...envelope, data: { merchant_id: merchantId } }, token);
    await assertRefused(reply, 'altered', merchantId, envelope);
    assert.deepEqual(await liveState(signedFor.merchantId), { approved: false, liveKeys: 0 });
  });

  it('when the same signed command is delivered twice, then the first runs once and the second is refused as replayed', async () => {
    const { merchantId } = await system.newMerchant();
    const envelope = approveKyb(merchantId);
    const [first, second] = await publishRaw(envelope, await signer.sign(envelope), 2);
    assert.ok(first?.ok, JSON.stringify(first));
    assert.match(String(first.body['live_secret_key']), /^sk_live_/);
    assert.ok(second && !second.ok);
    assert.equal(second.problem.extensions?.reason, 'replayed');
    assert.deepEqual(await liveState(merchantId), { approved: true, liveKeys: 1 });
    assert.equal(await refusals('replayed'), 1);
  });

  it("when a command is signed with the dashboard's key (as the dashboard's broker user) for nobody, or for a console operator beyond the console's reach, then it is refused and nothing changes", async () => {
    const dashboard = await OperatorSigner.fromJwk(JSON.parse(system.envOf('dashboard')['DASHBOARD_SIGNING_KEY'] ?? '') as JWK, 'dashboard');
    const { merchantId } = await system.newMerchant();
    const forged = approveKyb(merchantId);
    const [nobody] = await publishRaw(forged, await dashboard.sign(forged), 1, 'api-gateway', 'dashboard');
    await assertRefused(nobody, 'no-actor', merchantId, forged);

    const consoleOperator = { type: 'operator' as const, id: 'opr_forged', email: 'ops@example.com', address: '192.0.2.9' };
    const reveal: Envelope = { ...approveKyb(merchantId), type: 'api_key.reveal', data: { merchant_id: merchantId, key_id: 'key_any' } };
    const [beyond] = await publishRaw(reveal, await dashboard.sign(reveal, Date.now(), consoleOperator), 1, 'api-gateway', 'dashboard');
    assert.ok(beyond && !beyond.ok, JSON.stringify(beyond));
    assert.equal(beyond.problem.code, 'forbidden');
    // What the console does, it still may.
    const approve = approveKyb(merchantId);
    const [within] = await publishRaw(approve, await dashboard.sign(approve, Date.now(), consoleOperator), 1, 'api-gateway', 'dashboard');
    assert.ok(within?.ok, JSON.stringify(within));
    assert.deepEqual(await liveState(merchantId), { approved: true, liveKeys: 1 });
  });

  it('when another service (refund) gets an unsigned operator command, then it refuses it the same way', async () => {
    const envelope: Envelope = { id: newId('cmd'), type: 'refund.list_manual', version: 1, occurred_at: new Date().toISOString(), correlation_id: randomUUID(), data: {} };
    const [reply] = await publishRaw(envelope, undefined, 1, 'refund');
    assert.ok(reply && !reply.ok);
    assert.deepEqual([reply.problem.code, reply.problem.extensions?.reason], ['operator-unauthorized', 'missing']);
    assert.equal(await refusals('missing', 'refund', 'refund.list_manual'), 1);
  });

  describe('sent by a broker user that may not send them', () => {
    async function refusedCommands(service: ServiceProcess, command: string): Promise<number> {
      const line = (await system.metricsOf(service)).split('\n').find((l) => l.startsWith('gateway_messages_refused_total{') && l.includes('kind="command"') && l.includes(`type="${command}"`));
      return line ? Number(line.split(' ').pop()) : 0;
    }

    it("when the operators' broker user sends an API command with another merchant's context (a live webhook endpoint), then it is refused: nothing is created, and it is counted and logged", async () => {
      const { merchantId } = await system.newMerchant();
      const endpoints = async () => (await system.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks.endpoints WHERE merchant_id = $1', [merchantId]))[0]?.n;
      const before = await endpoints();
      const envelope: Envelope = {
        id: newId('cmd'),
        type: 'webhook_endpoint.create',
        version: 1,
        occurred_at: new Date().toISOString(),
        correlation_id: randomUUID(),
        data: {
          context: { merchant_id: merchantId, livemode: true, order_prefix: 'EVL', merchant_name: 'Forged', request_id: randomUUID() },
          body: { url: 'https://attacker.example/hooks', enabled_events: ['session.succeeded'] },
        },
      };
      // Signed by a real operator, even: an API command is the gateway's to send, not an operator's.
      const [reply] = await publishRaw(envelope, await signer.sign(envelope), 1, 'webhook-dispatcher');
      assert.ok(reply && !reply.ok, JSON.stringify(reply));
      assert.equal(reply.problem.code, 'internal-error');
      assert.equal(await endpoints(), before);
      assert.equal(await refusedCommands('webhook-dispatcher', 'webhook_endpoint.create'), 1);
      await pollUntil(() => logOf('webhook-dispatcher').includes(envelope.id), 2_000, 'the refusal logged');
    });

    it("when the checkout's broker user sends payment.refund to the adapter, then it is refused before anything reaches the acquirer", async () => {
      const envelope: Envelope = { id: newId('cmd'), type: 'payment.refund', version: 1, occurred_at: new Date().toISOString(), correlation_id: randomUUID(), data: {} };
      const [reply] = await publishRaw(envelope, undefined, 1, 'acquirer-adapter', 'checkout');
      assert.ok(reply && !reply.ok, JSON.stringify(reply));
      assert.equal(reply.problem.code, 'internal-error');
      assert.equal(await refusedCommands('acquirer-adapter', 'payment.refund'), 1);
      // Refused before validation: the empty data would otherwise have been a validation-error.
    });
  });

  it('when an operator approves KYB, sets a terminal, resolves a refund and resends a webhook, then the audit log lists each, newest first, with the operator and no secret', async () => {
    // Webhooks to a port nobody listens on: their deliveries fail and can be resent.
    const merchant = await system.newMerchant({ limits: { account: 1000, create: 1000, refund: 1000 }, webhookUrl: 'http://127.0.0.1:9/hooks' });
    const liveKey = await system.approveLive(merchant.merchantId, { terminal: true });
    const api = system.api(merchant.testKey);
    const created = await api.post<{ id: string; checkout_url: string }>('/gateway/sessions/', sessionRequest({ amount: '100.000' }));
    assert.equal(created.status, 201, created.text);
    await payOnPage(created.body.checkout_url, { card_number: '4242424242424242' });
    const [attempt] = await pollUntilRow(
      `SELECT a.id FROM session.attempts a JOIN session.sessions s ON s.id = a.session_id WHERE s.id = $1 AND s.status = 'SUCCEEDED'`,
      [created.body.id],
    );
    // A refund a replica left PENDING, for an operator to resolve.
    const refundId = newId('re');
    await system.db.query(`INSERT INTO refund.payments (attempt_id, session_id, merchant_id, livemode, captured, held) VALUES ($1, $2, $3, false, 100, 10)`, [
      attempt?.id,
      created.body.id,
      merchant.merchantId,
    ]);
    await system.db.query(
      `INSERT INTO refund.refunds (id, session_id, attempt_id, merchant_id, livemode, amount, refund_type, reason, metadata, status, created_at)
       VALUES ($1, $2, $3, $4, false, 10, 'PARTIAL', 'Left pending', '{}', 'PENDING', now() - interval '1 hour')`,
      [refundId, created.body.id, attempt?.id, merchant.merchantId],
    );
    await system.admin(['refund', 'resolve', refundId, '--as', 'succeeded']);
    const [delivery] = await pollUntilRow('SELECT id FROM webhooks.deliveries WHERE merchant_id = $1 LIMIT 1', [merchant.merchantId]);
    await system.admin(['webhook', 'resend', String(delivery?.id)]);

    // The entries arrive as events: wait for the last, then list them with the CLI, as an operator does.
    await pollUntilRow(`SELECT 1 FROM api_gateway.audit_log WHERE merchant_id = $1 AND action = 'webhook.resend'`, [merchant.merchantId]);
    const listed = await runGatewayAdmin(['audit', 'list', '--merchant', merchant.merchantId], {
      ...process.env,
      AMQP_URL: system.env['AMQP_URL'],
      BROKER_PREFIX: system.prefix,
      OPERATOR_KEY: system.operatorKey,
      OPERATOR_NAME: 'auditor',
    });
    assert.equal(listed.status, 0, listed.stderr);
    const entries = (JSON.parse(listed.stdout) as { data: AuditEntry[] }).data;
    assert.deepEqual(
      entries.map((e) => e.action),
      ['webhook.resend', 'refund.resolve', 'terminal.set', 'webhook_endpoint.reveal_secret', 'merchant.approve_kyb', 'limits.set', 'webhook_endpoint.reveal_secret', 'merchant.create'],
      'newest first',
    );
    for (const entry of entries) {
      assert.deepEqual(
        [entry.actor_type, entry.actor_id, entry.actor_key_id, entry.merchant_id, entry.outcome],
        ['operator', TEST_OPERATOR, signer.keyId, merchant.merchantId, 'succeeded'],
        entry.action,
      );
    }
    const byAction = (action: string) => entries.find((e) => e.action === action);
    assert.deepEqual(byAction('terminal.set')?.detail, { merchant_id: merchant.merchantId, mode: 'live', user: LIVE_TERMINAL.user, password: '[redacted]', active: true });
    assert.deepEqual([byAction('terminal.set')?.service, byAction('refund.resolve')?.service], ['acquirer-adapter', 'refund']);
    assert.deepEqual([byAction('refund.resolve')?.target, byAction('refund.resolve')?.detail], [refundId, { refund_id: refundId, as: 'succeeded' }]);
    assert.deepEqual([byAction('webhook.resend')?.target, byAction('webhook.resend')?.service], [delivery?.id, 'webhook-dispatcher']);

    const secrets = [LIVE_TERMINAL.password, liveKey, merchant.testKey, merchant.webhookSecret, JSON.parse(system.operatorKey).d as string];
    for (const secret of secrets) assert.equal(listed.stdout.includes(secret), false, 'a secret in the audit list');
    for (const file of readdirSync(system.logDir)) {
      const text = readFileSync(join(system.logDir, file), 'utf8');
      for (const secret of secrets) assert.equal(text.includes(secret), false, `a secret in ${file}`);
    }
  });

  it('when merchants call the API, then nothing is asked of them or refused (API commands are not operator commands)', async () => {
    const merchant = await system.newMerchant();
    const created = await system.api(merchant.testKey).post('/gateway/sessions/', sessionRequest({ amount: '12.000' }));
    assert.equal(created.status, 201, created.text);
    assert.equal((await system.metricsOf('session')).includes('gateway_operator_commands_refused_total{command="session.create"'), false);
  });

  it('when gateway-admin has no operator key, then it says how to set one; operator keygen needs no broker and makes a key the services accept', async () => {
    const run = (args: string[], env: Record<string, string>) => runGatewayAdmin(args, { ...process.env, OPERATOR_KEY: '', OPERATOR_KEY_FILE: '', ...env });
    const keyless = await run(['merchant', 'create', '--name', 'No Key'], { AMQP_URL: system.env['AMQP_URL'] ?? '', BROKER_PREFIX: system.prefix });
    assert.equal(keyless.status, 1);
    assert.equal((JSON.parse(keyless.stderr.split('\n')[0] ?? '{}') as { error: string }).error, 'operator-key');
    assert.match(keyless.stderr, /OPERATOR_KEY_FILE/);

    const made = await run(['operator', 'keygen'], { AMQP_URL: 'amqp://127.0.0.1:1' });
    assert.equal(made.status, 0, made.stderr);
    const keys = JSON.parse(made.stdout) as { kid: string; private_jwk: JWK; public_jwk: JWK };
    assert.deepEqual([keys.public_jwk.kty, keys.public_jwk.crv, keys.public_jwk.kid, keys.public_jwk.d], ['OKP', 'Ed25519', keys.kid, undefined]);
    // A new key is refused until the services list it.
    const unknown = await run(['merchant', 'create', '--name', 'New Key'], { AMQP_URL: system.env['AMQP_URL'] ?? '', BROKER_PREFIX: system.prefix, OPERATOR_KEY: JSON.stringify(keys.private_jwk) });
    assert.equal(unknown.status, 1);
    assert.equal((JSON.parse(unknown.stderr.split('\n')[0] ?? '{}') as { error: string }).error, 'operator-unauthorized');
  });

  it('when a service that runs operator commands is given no OPERATOR_PUBLIC_KEYS, then it refuses to start', async () => {
    await assert.rejects(system.startService('refund', 'refund-without-keys', { OPERATOR_PUBLIC_KEYS: '' }), /exited during start/);
    assert.match(logOf('refund-without-keys'), /OPERATOR_PUBLIC_KEYS is required/);
  });

  async function pollUntilRow(sql: string, params: unknown[]): Promise<Record<string, string>[]> {
    let rows: Record<string, string>[] = [];
    await pollUntil(
      async () => {
        rows = await system.db.query<Record<string, string>>(sql, params);
        return rows.length > 0;
      },
      10_000,
      sql,
    );
    return rows;
  }
});
