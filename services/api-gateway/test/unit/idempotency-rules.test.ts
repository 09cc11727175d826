/**
 * Idempotency-Key rules without servers (D10): which keys are accepted, the
 * request fingerprint a replay is compared by, what a second request with a
 * key gets, and which first answers are kept.
 */
import assert from 'node:assert/strict';
import { createLogger } from '@gateway/observability';
import { AppError, validationError } from '@gateway/problem';
import type { Claim, IdempotencyRepository, IdempotencyScope, KeptAnswer, StoredAnswer } from '../../src/idempotency/idempotency.repository.js';
import { canonicalJson, IdempotentCalls, isFinal, parseIdempotencyKey, requestHash, type AnswerSealer } from '../../src/idempotency/idempotent-call.js';

/** A stand-in for the SecretBox: the text hidden, and opened only with the binding it was sealed with. */
const SEALER: AnswerSealer = {
  encrypt: (plaintext, aad) => `${Buffer.from(aad).toString('base64')}.${Buffer.from(plaintext).toString('base64')}`,
  decrypt: async (ciphertext, aad) => {
    const [bound = '', text = ''] = ciphertext.split('.');
    if (bound !== Buffer.from(aad).toString('base64')) throw new Error('bound to another row');
    return Buffer.from(text, 'base64').toString('utf8');
  },
};

describe('Idempotency-Key shape', () => {
  it('when the key is 1 to 255 printable ASCII characters, spaces included, then it is taken as given', () => {
    for (const key of ['a', 'order 42 / retry #1', '~'.repeat(255), ' ']) assert.equal(parseIdempotencyKey(key), key);
  });

  it('when the key is empty, too long, or holds control or non-ASCII characters, then it is a validation error on the header', () => {
    for (const key of ['', 'k'.repeat(256), 'clé', 'a\nb', 'tab\there', 'nul\u0000']) {
      assert.throws(
        () => parseIdempotencyKey(key),
        (err: unknown) => err instanceof AppError && err.code === 'validation-error' && err.errors[0]?.field === 'Idempotency-Key',
        JSON.stringify(key),
      );
    }
  });
});

describe('Request fingerprint', () => {
  it('when two bodies differ only in key order, at any depth, or in whitespace, then they have one fingerprint', () => {
    const a = JSON.parse('{"amount":"10.000","metadata":{"b":"2","a":"1"},"items":[{"name":"x","quantity":1}]}');
    const b = JSON.parse('{ "items": [ { "quantity": 1, "name": "x" } ],\n "metadata": { "a": "1", "b": "2" }, "amount": "10.000" }');
    assert.equal(canonicalJson(a), canonicalJson(b));
    assert.ok(requestHash(a).equals(requestHash(b)));
  });

  it('when a value differs, even only in how an amount is written, then the fingerprint differs', () => {
    const base = requestHash({ amount: '10.000', reason: 'damaged' });
    assert.ok(!base.equals(requestHash({ amount: '10.00', reason: 'damaged' })));
    assert.ok(!base.equals(requestHash({ amount: '10.000', reason: 'Damaged' })));
    assert.ok(!base.equals(requestHash({ amount: '10.000', reason: 'damaged', refund_type: 'PARTIAL' })));
  });

  it('when array elements are reordered, then the fingerprint differs: order in a list is meaning', () => {
    assert.ok(!requestHash({ items: [1, 2] }).equals(requestHash({ items: [2, 1] })));
  });

  it('when keys or strings hold quotes and separators, then canonical JSON escapes them so two bodies cannot collide', () => {
    assert.equal(canonicalJson({ 'a":"b': 'c' }), '{"a\\":\\"b":"c"}');
    assert.notEqual(canonicalJson({ 'a":"b': 'c' }), canonicalJson({ a: 'b":"c' }));
  });

  it('when there is no body, then it hashes as the empty string, unlike an empty object', () => {
    assert.equal(requestHash(undefined).toString('hex'), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.ok(!requestHash(undefined).equals(requestHash({})));
    assert.equal(requestHash({}).length, 32);
  });
});

describe('Which first answers are kept', () => {
  it('when the first request was refused for what it said (a 4xx), then that answer is kept and replayed', () => {
    for (const err of [validationError([{ field: 'amount', code: 'invalid', message: 'x' }]), new AppError('not-found'), new AppError('invalid-state'), new AppError('refund-failed')]) {
      assert.equal(isFinal(err), true, err.code);
    }
  });

  it('when the first request hit a limit, a conflict or a server error, then the key is given back for a retry', () => {
    for (const code of ['rate-limit-exceeded', 'conflict', 'internal-error'] as const) assert.equal(isFinal(new AppError(code)), false, code);
  });
});

describe('A second request with the same key', () => {
  const scope: IdempotencyScope = { merchantId: 'mer_1', livemode: false, key: 'k-1', route: 'POST /gateway/sessions/ps_1/refund' };
  const body = { reason: 'damaged' };

  /** Calls over a key store whose claim finds `claim`, recording what is stored and released. */
  function calls(claim: Claim) {
    const stored: KeptAnswer[] = [];
    const released: string[] = [];
    const keys = {
      claim: async () => claim,
      complete: async (_scope: IdempotencyScope, _token: string, answer: KeptAnswer) => (stored.push(answer), true),
      release: async (_scope: IdempotencyScope, token: string) => void released.push(token),
    } as unknown as IdempotencyRepository;
    const settings = { ttlSeconds: 86_400, abandonedAfterMs: 60_000, errorsHost: 'errors.example.tn', log: createLogger({ service: 'test', level: 'silent' }) };
    return { idempotent: new IdempotentCalls(keys, settings, SEALER), stored, released };
  }

  const neverRuns = async (): Promise<StoredAnswer> => assert.fail('the call ran again');

  it('when the same body comes again after the first answer, then that answer is replayed byte for byte and the call does not run', async () => {
    const first = { status: 201, body: '{"refund_id":"re_1"}' };
    const { idempotent } = calls({ kind: 'taken', requestHash: requestHash({ reason: 'damaged' }), state: 'done', answer: { ...first, sealed: false } });
    assert.deepEqual(await idempotent.run(scope, JSON.parse('{ "reason" : "damaged" }'), neverRuns), { ...first, replayed: true });
  });

  it('when another body comes with the key, then it is 422 idempotency-key-reused', async () => {
    const { idempotent } = calls({ kind: 'taken', requestHash: requestHash({ reason: 'other' }), state: 'done', answer: { status: 201, body: '{}', sealed: false } });
    await assert.rejects(idempotent.run(scope, body, neverRuns), (err: unknown) => err instanceof AppError && err.code === 'idempotency-key-reused');
  });

  it('when the first request with the key is still running, then it is 409 conflict', async () => {
    const { idempotent } = calls({ kind: 'taken', requestHash: requestHash(body), state: 'started' });
    await assert.rejects(idempotent.run(scope, body, neverRuns), (err: unknown) => err instanceof AppError && err.code === 'conflict');
  });

  it('when the first request is refused with a 4xx, then the problem document is stored as it is sent', async () => {
    const { idempotent, stored, released } = calls({ kind: 'claimed', token: 't1' });
    await assert.rejects(idempotent.run(scope, body, async () => Promise.reject(new AppError('invalid-state', 'Nothing is left to refund on this session.'))));
    assert.deepEqual(released, []);
    assert.equal(stored.length, 1);
    assert.equal(stored[0]?.status, 422);
    assert.equal(JSON.parse(stored[0]?.body ?? '{}').detail, 'Nothing is left to refund on this session.');
  });

  it('when the first request fails with a 5xx, a 429 or a conflict, then nothing is stored and the claim is released', async () => {
    for (const err of [new Error('broker down'), new AppError('rate-limit-exceeded'), new AppError('conflict')]) {
      const { idempotent, stored, released } = calls({ kind: 'claimed', token: 't1' });
      await assert.rejects(idempotent.run(scope, body, async () => Promise.reject(err)));
      assert.deepEqual(stored, [], String(err));
      assert.deepEqual(released, ['t1'], String(err));
    }
  });

  it('when the first request succeeds, then its answer is stored and given unmarked', async () => {
    const { idempotent, stored } = calls({ kind: 'claimed', token: 't1' });
    const answer = { status: 200, body: '{"ok":true}' };
    assert.deepEqual(await idempotent.run(scope, body, async () => answer), { ...answer, replayed: false });
    assert.deepEqual(stored, [{ ...answer, sealed: false }]);
  });

  it('when the answer shows a secret, then it is stored encrypted, bound to its key, and a replay gives it back in clear', async () => {
    const { idempotent, stored } = calls({ kind: 'claimed', token: 't1' });
    const answer = { status: 200, body: '{"secret":"whsec_abc"}' };
    assert.deepEqual(await idempotent.run(scope, undefined, async () => answer, { sealed: true }), { ...answer, replayed: false });
    const [kept] = stored;
    assert.ok(kept?.sealed);
    assert.ok(!kept.body.includes('whsec_'), kept.body);
    const again = calls({ kind: 'taken', requestHash: requestHash(undefined), state: 'done', answer: kept });
    assert.deepEqual(await again.idempotent.run(scope, undefined, neverRuns, { sealed: true }), { ...answer, replayed: true });
    const elsewhere = calls({ kind: 'taken', requestHash: requestHash(undefined), state: 'done', answer: kept });
    await assert.rejects(elsewhere.idempotent.run({ ...scope, key: 'k-2' }, undefined, neverRuns, { sealed: true }), /bound to another row/);
  });
});
