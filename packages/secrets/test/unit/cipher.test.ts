/** The two layers alone (secrets under a data key, data keys wrapped by the KEK): formats, bindings and tampering, with no database. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { decryptWith, encryptWith, kekId, newDataKey, newDataKeyId, parseCiphertext, SecretsError, unwrapDataKey, wrapDataKey } from '../../src/cipher.js';

describe('secrets, cipher', () => {
  const dek = newDataKey();
  const dekId = newDataKeyId();
  const aad = 'webhooks.endpoints.secret:mer_1:test';

  it('when a secret is encrypted, then it is a v1 string naming its data key, and decrypts only with the same binding', () => {
    const ciphertext = encryptWith(dekId, dek, 'whsec_abc', aad);
    assert.match(ciphertext, /^v1\.dk_[0-9a-f]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    assert.equal(parseCiphertext(ciphertext).dataKeyId, dekId);
    assert.equal(ciphertext.includes('whsec_abc'), false);
    assert.equal(decryptWith(dek, ciphertext, aad), 'whsec_abc');
    assert.throws(() => decryptWith(dek, ciphertext, 'webhooks.endpoints.secret:mer_2:test'), SecretsError);
    assert.throws(() => decryptWith(dek, ciphertext, 'webhooks.endpoints.previous_secret:mer_1:test'), SecretsError);
    assert.throws(() => decryptWith(newDataKey(), ciphertext, aad), SecretsError);
  });

  it('when the same secret is encrypted twice, then the ciphertexts differ (a fresh nonce each time)', () => {
    assert.notEqual(encryptWith(dekId, dek, 'same', aad), encryptWith(dekId, dek, 'same', aad));
  });

  it('when a ciphertext is altered or malformed, then it is refused, and the error never quotes it', () => {
    const ciphertext = encryptWith(dekId, dek, 'sk_test_secret', aad);
    const parts = ciphertext.split('.');
    const sealed = Buffer.from(parts[3] ?? '', 'base64url');
    sealed[0] = (sealed[0] ?? 0) ^ 1;
    const altered = [...parts.slice(0, 3), sealed.toString('base64url')].join('.');
    assert.throws(
      () => decryptWith(dek, altered, aad),
      (err: Error) => err instanceof SecretsError && !err.message.includes(altered) && !err.message.includes('sk_test_secret'),
    );
    for (const bad of ['', 'sk_test_secret', 'v2.dk_1.a.b', 'v1.dk_1.a', 'v1.dk_1.a.b.c']) assert.throws(() => decryptWith(dek, bad, aad), SecretsError, bad);
  });

  it('when a data key is wrapped, then it unwraps only with the same KEK and for the same data key id', () => {
    const kek = randomBytes(32);
    const wrapped = wrapDataKey(kek, dekId, dek);
    assert.deepEqual(unwrapDataKey(kek, dekId, wrapped), dek);
    assert.throws(() => unwrapDataKey(randomBytes(32), dekId, wrapped), SecretsError);
    assert.throws(() => unwrapDataKey(kek, newDataKeyId(), wrapped), SecretsError);
  });

  it('when a KEK is named, then its id is short, stable, and differs between keys', () => {
    const kek = randomBytes(32);
    assert.match(kekId(kek), /^[0-9a-f]{16}$/);
    assert.equal(kekId(Buffer.from(kek)), kekId(kek));
    assert.notEqual(kekId(randomBytes(32)), kekId(kek));
  });
});
