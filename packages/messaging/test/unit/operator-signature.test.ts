/** Operator signatures (D17) on their own: what a token binds, and why one is refused. */
import assert from 'node:assert/strict';
import { SignJWT, importJWK } from 'jose';
import { newId, type Envelope } from '@gateway/contracts';
import type { Pool } from '@gateway/db';
import { createLogger } from '@gateway/observability';
import { AppError } from '@gateway/problem';
import {
  canonicalJson,
  envelopeDigest,
  generateOperatorKey,
  OperatorGuard,
  OperatorSignatureError,
  OperatorSignatureVerifier,
  OperatorSigner,
  type Actor,
  type RefusalReason,
} from '@gateway/messaging';

const MERCHANT = `mer_${'a'.repeat(24)}`;

function approveKyb(merchantId = MERCHANT): Envelope {
  return { id: newId('cmd'), type: 'merchant.approve_kyb', version: 1, occurred_at: new Date().toISOString(), correlation_id: 'corr-1', data: { merchant_id: merchantId } };
}

async function refusal(verifier: OperatorSignatureVerifier, envelope: Envelope, token: string | undefined): Promise<RefusalReason> {
  try {
    await verifier.verify(envelope, token);
  } catch (err) {
    if (err instanceof OperatorSignatureError) return err.reason;
    throw err;
  }
  assert.fail('the token was accepted');
}

describe('operator signatures', () => {
  let signer: OperatorSigner;
  let verifier: OperatorSignatureVerifier;
  let kid: string;

  before(async () => {
    const key = await generateOperatorKey();
    kid = String(key.publicJwk.kid);
    signer = await OperatorSigner.fromJwk(key.privateJwk, 'amina');
    // A second operator's key beside it, as during a rotation.
    verifier = new OperatorSignatureVerifier([(await generateOperatorKey()).publicJwk, key.publicJwk]);
  });

  it('when an envelope is digested, then the order of its keys does not matter, its content does', () => {
    assert.equal(canonicalJson({ b: [1, { d: 'x', c: null }], a: true }), '{"a":true,"b":[1,{"c":null,"d":"x"}]}');
    const envelope = approveKyb();
    const reordered = { data: envelope.data, correlation_id: envelope.correlation_id, occurred_at: envelope.occurred_at, version: 1, type: envelope.type, id: envelope.id };
    assert.equal(envelopeDigest(reordered), envelopeDigest(envelope));
    assert.notEqual(envelopeDigest({ ...envelope, correlation_id: 'corr-2' }), envelopeDigest(envelope));
  });

  it('when a command is signed, then the verifier answers who signed it, with which key, and until when to remember its id', async () => {
    const envelope = approveKyb();
    const before = Date.now();
    const operator = await verifier.verify(envelope, await signer.sign(envelope));
    assert.deepEqual([operator.id, operator.keyId], ['amina', kid]);
    const remember = operator.expiresAt.getTime() - before;
    assert.ok(remember > 60_000 && remember <= 66_000, `${remember} ms`);
  });

  it('when a door signs for one of its users, then the verifier answers that user and their merchant, bound by the signature', async () => {
    const envelope = approveKyb();
    const actor = { type: 'user' as const, id: 'usr_1', email: 'amina@shop.tn', address: '192.0.2.7', merchantId: MERCHANT };
    const operator = await verifier.verify(envelope, await signer.sign(envelope, Date.now(), actor));
    assert.deepEqual(operator.actor, actor);
    // The actor is part of what is signed: no other actor can be put in its place without the key.
    const [header, payload, signature] = (await signer.sign(envelope, Date.now(), actor)).split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as { act: { mer: string } };
    claims.act.mer = `mer_${'b'.repeat(24)}`;
    const forged = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
    assert.equal(await refusal(verifier, envelope, forged), 'bad-signature');
  });

  it('when a signed actor is a user without a merchant, then the command is refused rather than run unbound', async () => {
    const envelope = approveKyb();
    const token = await signer.sign(envelope, Date.now(), { type: 'user', id: 'usr_1', email: 'a@b.tn', address: '' });
    assert.equal(await refusal(verifier, envelope, token), 'malformed');
  });

  it('when the token is missing, unreadable, of an unknown key or forged under a known kid, then it is refused with that reason', async () => {
    const envelope = approveKyb();
    assert.equal(await refusal(verifier, envelope, undefined), 'missing');
    assert.equal(await refusal(verifier, envelope, 'not.a.token'), 'malformed');
    const stranger = await generateOperatorKey();
    assert.equal(await refusal(verifier, envelope, await (await OperatorSigner.fromJwk(stranger.privateJwk)).sign(envelope)), 'unknown-key');
    const forger = await OperatorSigner.fromJwk({ ...stranger.privateJwk, kid });
    assert.equal(await refusal(verifier, envelope, await forger.sign(envelope)), 'bad-signature');
  });

  it('when the token was signed more than a minute ago, then it is refused as expired; within the clock skew it still passes', async () => {
    const envelope = approveKyb();
    assert.equal(await refusal(verifier, envelope, await signer.sign(envelope, Date.now() - 70_000)), 'expired');
    assert.equal((await verifier.verify(envelope, await signer.sign(envelope, Date.now() + 3_000))).id, 'amina');
  });

  it('when the command is not the one signed (another type, merchant, id or correlation), then it is refused', async () => {
    const envelope = approveKyb();
    const token = await signer.sign(envelope);
    assert.equal(await refusal(verifier, { ...envelope, type: 'merchant.suspend' }, token), 'wrong-command');
    assert.equal(await refusal(verifier, { ...envelope, data: { merchant_id: `mer_${'b'.repeat(24)}` } }, token), 'altered');
    assert.equal(await refusal(verifier, { ...envelope, id: newId('cmd') }, token), 'altered');
    assert.equal(await refusal(verifier, { ...envelope, correlation_id: 'corr-2' }, token), 'altered');
  });

  it('when a signer is made from a public key or a key without kid, then it is refused at once', async () => {
    const key = await generateOperatorKey();
    await assert.rejects(OperatorSigner.fromJwk(key.publicJwk), /private Ed25519 JWK/);
    await assert.rejects(OperatorSigner.fromJwk({ ...key.privateJwk, kid: undefined }), /no kid/);
  });
});

describe("the dashboard's key (a door's)", () => {
  let operator: OperatorSigner;
  let dashboard: OperatorSigner;
  let verifier: OperatorSignatureVerifier;
  let guard: OperatorGuard;
  const consoleOperator: Actor = { type: 'operator', id: 'opr_1', email: 'ops@example.com', address: '192.0.2.9' };

  function command(type: string, data: Record<string, unknown> = { merchant_id: MERCHANT }): Envelope {
    return { id: newId('cmd'), type, version: 1, occurred_at: new Date().toISOString(), correlation_id: 'corr-1', data };
  }

  /** Whether the guard lets what `signer` signed for `actor` run: the verifier's and the reach check's answer. */
  async function reach(signer: OperatorSigner, envelope: Envelope, actor?: Actor): Promise<'runs' | RefusalReason | 'forbidden'> {
    try {
      guard.checkReach(envelope, await verifier.verify(envelope, await signer.sign(envelope, Date.now(), actor)));
      return 'runs';
    } catch (err) {
      if (err instanceof OperatorSignatureError) return err.reason;
      if (err instanceof AppError && err.code === 'forbidden') return 'forbidden';
      throw err;
    }
  }

  before(async () => {
    const operatorKey = await generateOperatorKey();
    const dashboardKey = await generateOperatorKey();
    operator = await OperatorSigner.fromJwk(operatorKey.privateJwk, 'amina');
    dashboard = await OperatorSigner.fromJwk(dashboardKey.privateJwk, 'dashboard');
    const publicKeys = [operatorKey.publicJwk, { ...dashboardKey.publicJwk, door: 'dashboard' }];
    verifier = new OperatorSignatureVerifier(publicKeys);
    // The reach check reads no table: no pool is needed to ask it.
    guard = new OperatorGuard({ service: 'api-gateway', publicKeys, pool: {} as Pool, log: createLogger({ service: 'test', level: 'silent' }) });
  });

  it('when a command signed with it names nobody, then it is refused (no-actor), whatever the command; an operator\'s own key needs nobody', async () => {
    for (const type of ['merchant.approve_kyb', 'merchant.get', 'api_key.reveal', 'api_gateway.secrets.rewrap']) {
      assert.equal(await reach(dashboard, command(type)), 'no-actor', type);
      assert.equal(await reach(operator, command(type)), 'runs', type);
    }
  });

  it('when it signs for a console operator, then what the console does runs and every other operator command is refused (403)', async () => {
    assert.equal(await reach(dashboard, command('merchant.suspend'), consoleOperator), 'runs');
    assert.equal(await reach(dashboard, command('refund.resolve', { refund_id: 're_1', as: 'failed' }), consoleOperator), 'runs');
    for (const type of ['merchant.create', 'api_key.reveal', 'api_key.create', 'operator.create', 'user.create', 'api_gateway.secrets.rewrap', 'webhook_endpoint.reveal_secret']) {
      assert.equal(await reach(dashboard, command(type), consoleOperator), 'forbidden', type);
      // The same person named by an operator's own key: an operator's authority, as before.
      assert.equal(await reach(operator, command(type), consoleOperator), 'runs', type);
    }
  });

  it("when it signs for a merchant's user, then that user's merchant commands on their own merchant run, and nothing else", async () => {
    const user: Actor = { type: 'user', id: 'usr_1', email: 'amina@shop.tn', address: '192.0.2.7', merchantId: MERCHANT };
    assert.equal(await reach(dashboard, command('api_key.reveal'), user), 'runs');
    assert.equal(await reach(dashboard, command('api_key.reveal', { merchant_id: `mer_${'b'.repeat(24)}` }), user), 'forbidden');
    assert.equal(await reach(dashboard, command('merchant.suspend'), user), 'forbidden');
  });

  it('when a token names no key, or two keys share a kid, then nothing passes: the key that verified, and its authority, must be known', async () => {
    const only = await generateOperatorKey();
    const alone = new OperatorSignatureVerifier([{ ...only.publicJwk, door: 'dashboard' }]);
    const envelope = command('merchant.approve_kyb');
    const now = Math.floor(Date.now() / 1000);
    const unnamed = await new SignJWT({ cmd: envelope.type, dig: envelopeDigest(envelope) })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'operator-command+jwt' })
      .setJti(envelope.id)
      .setSubject('dashboard')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(await importJWK(only.privateJwk, 'EdDSA'));
    assert.equal(await refusal(alone, envelope, unnamed), 'malformed');
    const other = await generateOperatorKey();
    assert.throws(() => new OperatorSignatureVerifier([only.publicJwk, { ...other.publicJwk, kid: only.publicJwk.kid }]), /kid of its own/);
  });
});
