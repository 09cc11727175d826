/** A checkout link opens only when it is the session service's signature, unaltered and unexpired. */
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { CheckoutLinkVerifier } from '../../src/domain/checkout-link-verifier.js';

function token(key: KeyObject, claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'EdDSA' }): string {
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
}

describe('Checkout link verifier', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const verifier = CheckoutLinkVerifier.fromJwk(JSON.stringify(publicKey.export({ format: 'jwk' })));
  const now = new Date('2026-11-22T10:00:00Z');
  const exp = Math.floor(now.getTime() / 1000) + 60;

  it('when the link is signed and unexpired, then it names its session and link', () => {
    assert.deepEqual(verifier.verify(token(privateKey, { sid: 'ps_1', lid: 'cl_1', exp }), now), { session_id: 'ps_1', link_id: 'cl_1' });
  });

  it('when the token states the payment link its session was made through, then it is given with the link: none, one, or unsaid', () => {
    const of = (claims: Record<string, unknown>) => verifier.verifyWithPaymentLink(token(privateKey, { sid: 'ps_1', lid: 'cl_1', exp, ...claims }), now)?.paymentLink;
    assert.equal(of({ pl: '' }), null);
    assert.equal(of({ pl: 'pl_7' }), 'pl_7');
    assert.equal(of({}), undefined);
    assert.equal(verifier.verifyWithPaymentLink(token(privateKey, { sid: 'ps_1', lid: 'cl_1', exp: exp - 120, pl: '' }), now), undefined);
  });

  it('when a link verified before has expired since, then it is refused', () => {
    const link = token(privateKey, { sid: 'ps_1', lid: 'cl_1', exp });
    assert.ok(verifier.verify(link, now));
    assert.equal(verifier.verify(link, new Date(now.getTime() + 61_000)), undefined);
  });

  it('when the link is expired, forged, altered or malformed, then it is not a link', () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    const good = token(privateKey, { sid: 'ps_1', lid: 'cl_1', exp });
    const [header, , signature] = good.split('.');
    const swapped = `${header}.${Buffer.from(JSON.stringify({ sid: 'ps_2', lid: 'cl_1', exp })).toString('base64url')}.${signature}`;
    for (const bad of [
      token(privateKey, { sid: 'ps_1', lid: 'cl_1', exp: exp - 120 }),
      token(other, { sid: 'ps_1', lid: 'cl_1', exp }),
      swapped,
      token(privateKey, { sid: 'ps_1', lid: 'cl_1', exp }, { alg: 'none' }),
      token(privateKey, { sid: 1, lid: 'cl_1', exp }),
      `${good}.extra`,
      'not-a-link',
      'a'.repeat(2000),
    ]) {
      assert.equal(verifier.verify(bad, now), undefined, bad.slice(0, 40));
    }
  });
});
