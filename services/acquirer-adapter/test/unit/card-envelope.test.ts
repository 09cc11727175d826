/** The card envelope is standard JWE: jose reads ours, we read jose's, and nothing altered opens. */
import assert from 'node:assert/strict';
import { CompactEncrypt, compactDecrypt, importJWK } from 'jose';
import { EnvelopeError, EnvelopeOpener, EnvelopeSealer } from '@gateway/contracts';
import { cardKeys as keyPair } from '@gateway/testkit';
import { CardOpener, UnreadableCard } from '../../src/domain/card.js';


describe('Card envelope (JWE, ECDH-ES on P-256, A256GCM)', () => {
  const keys = keyPair();
  const plaintext = JSON.stringify({ attempt_id: 'pa_1', pan: '4242424242424242' });

  it('when we seal, then jose opens it with the private key', async () => {
    const sealed = new EnvelopeSealer(keys.publicJwk).seal(plaintext);
    const { plaintext: opened, protectedHeader } = await compactDecrypt(sealed, await importJWK(JSON.parse(keys.privateJwk), 'ECDH-ES'));
    assert.equal(new TextDecoder().decode(opened), plaintext);
    assert.equal(protectedHeader.alg, 'ECDH-ES');
    assert.equal(protectedHeader.enc, 'A256GCM');
  });

  it('when jose seals, then we open it', async () => {
    const sealed = await new CompactEncrypt(new TextEncoder().encode(plaintext))
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM' })
      .encrypt(await importJWK(JSON.parse(keys.publicJwk), 'ECDH-ES'));
    assert.equal(new EnvelopeOpener(keys.privateJwk).open(sealed), plaintext);
  });

  it('when an envelope is altered, sealed for another key or malformed, then it does not open', () => {
    const sealed = new EnvelopeSealer(keys.publicJwk).seal(plaintext);
    const parts = sealed.split('.');
    const flipped = parts[3]?.startsWith('A') ? `B${parts[3].slice(1)}` : `A${parts[3]?.slice(1) ?? ''}`;
    const altered = [parts[0], parts[1], parts[2], flipped, parts[4]].join('.');
    const opener = new EnvelopeOpener(keys.privateJwk);
    assert.throws(() => opener.open(altered), EnvelopeError);
    assert.throws(() => new EnvelopeOpener(keyPair().privateJwk).open(sealed), EnvelopeError);
    assert.throws(() => opener.open('not.a.jwe'), EnvelopeError);
    assert.throws(() => opener.open(`${Buffer.from('{"alg":"dir","enc":"A256GCM"}').toString('base64url')}..a.b.c`), EnvelopeError);
  });

  it('when a card is sealed for one attempt, then it cannot pay for another', () => {
    const sealer = new EnvelopeSealer(keys.publicJwk);
    const opener = CardOpener.fromJwk(keys.privateJwk);
    const card = JSON.stringify({ attempt_id: 'pa_1', pan: '4242424242424242', cvc: '123', exp_month: '12', exp_year: '2034', holder: 'A' });
    assert.equal(opener.open(sealer.seal(card), 'pa_1').pan, '4242424242424242');
    assert.throws(() => opener.open(sealer.seal(card), 'pa_2'), UnreadableCard);
    assert.throws(() => opener.open(sealer.seal(card.replace('"123"', '"12"')), 'pa_1'), UnreadableCard);
  });
});
