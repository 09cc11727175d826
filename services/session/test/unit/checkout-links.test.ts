import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { compactVerify, importJWK } from 'jose';
import { checkoutLinkExpiry, CheckoutLinkSigner } from '../../src/domain/checkout-links.js';

describe('checkout links', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');

  it('when a link is minted, then it is a compact JWS that jose verifies with the public key alone', async () => {
    const signer = await CheckoutLinkSigner.fromJwk(JSON.stringify(privateKey.export({ format: 'jwk' })));
    const expires = new Date('2026-11-22T10:30:00Z');
    const link = await signer.mint('ps_abc', null, expires);
    const verifyKey = await importJWK(publicKey.export({ format: 'jwk' }), 'EdDSA');
    const { payload, protectedHeader } = await compactVerify(link.token, verifyKey);
    assert.deepEqual(protectedHeader, { alg: 'EdDSA' });
    assert.deepEqual(JSON.parse(new TextDecoder().decode(payload)), { sid: 'ps_abc', lid: link.id, exp: expires.getTime() / 1000, pl: '' });
    const ofLink = await signer.mint('ps_def', 'pl_abc', expires);
    assert.equal(JSON.parse(new TextDecoder().decode((await compactVerify(ofLink.token, verifyKey)).payload)).pl, 'pl_abc');
  });

  it('when a token is altered, or signed by another key, then verification fails', async () => {
    const signer = await CheckoutLinkSigner.fromJwk(JSON.stringify(privateKey.export({ format: 'jwk' })));
    const link = await signer.mint('ps_abc', null, new Date());
    const verifyKey = await importJWK(publicKey.export({ format: 'jwk' }), 'EdDSA');
    const [head, body, sig] = link.token.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ sid: 'ps_other', lid: 'x', exp: 9e9 })).toString('base64url')}.${sig}`;
    await assert.rejects(compactVerify(forged, verifyKey));
    const other = generateKeyPairSync('ed25519');
    await assert.rejects(compactVerify(`${head}.${body}.${sig}`, await importJWK(other.publicKey.export({ format: 'jwk' }), 'EdDSA')));
  });

  it('when the key is not a private Ed25519 JWK, then the signer refuses it', async () => {
    await assert.rejects(CheckoutLinkSigner.fromJwk(JSON.stringify(publicKey.export({ format: 'jwk' }))));
  });

  it('when a link expiry is computed, then it is the link lifetime, never past the session, in whole seconds', () => {
    const now = new Date('2026-11-22T10:00:00.750Z');
    assert.equal(checkoutLinkExpiry(now, 1800, new Date('2026-11-23T10:00:00Z')).toISOString(), '2026-11-22T10:30:00.000Z');
    assert.equal(checkoutLinkExpiry(now, 1800, new Date('2026-11-22T10:10:00.400Z')).toISOString(), '2026-11-22T10:10:00.000Z');
  });
});
