/** The sealed card is standard JWE: jose reads ours, we read jose's, nothing altered opens, and it pays for its own attempt only. */
import assert from 'node:assert/strict';
import { CompactEncrypt, compactDecrypt, importJWK } from 'jose';
import { cardKeys as keyPair } from '@gateway/testkit';
import { CardOpener, CardSealer, SealedCardError, type Card } from '../../src/index.js';

describe('Sealed card (JWE, ECDH-ES on P-256, A256GCM)', () => {
  const keys = keyPair();
  const card: Card = { pan: '4242424242424242', cvc: '123', expMonth: '12', expYear: '2034', holder: 'A' };
  const fields = { attempt_id: 'pa_1', pan: '4242424242424242', cvc: '123', exp_month: '12', exp_year: '2034', holder: 'A' };

  /** `plaintext` sealed by jose for the test key, as another JWE implementation would. */
  async function joseSeal(plaintext: string): Promise<string> {
    return new CompactEncrypt(new TextEncoder().encode(plaintext))
      .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A256GCM' })
      .encrypt(await importJWK(JSON.parse(keys.publicJwk), 'ECDH-ES'));
  }

  it('when we seal, then jose opens it with the private key and reads the card bound to its attempt', async () => {
    const sealed = CardSealer.fromJwk(keys.publicJwk).seal(card, 'pa_1');
    const { plaintext: opened, protectedHeader } = await compactDecrypt(sealed, await importJWK(JSON.parse(keys.privateJwk), 'ECDH-ES'));
    assert.deepEqual(JSON.parse(new TextDecoder().decode(opened)), fields);
    assert.equal(protectedHeader.alg, 'ECDH-ES');
    assert.equal(protectedHeader.enc, 'A256GCM');
  });

  it('when jose seals, then we open it', async () => {
    assert.deepEqual(CardOpener.fromJwk(keys.privateJwk).open(await joseSeal(JSON.stringify(fields)), 'pa_1'), card);
  });

  it('when a sealed card is altered, sealed for another key or malformed, then it does not open', () => {
    const sealed = CardSealer.fromJwk(keys.publicJwk).seal(card, 'pa_1');
    const parts = sealed.split('.');
    const flipped = parts[3]?.startsWith('A') ? `B${parts[3].slice(1)}` : `A${parts[3]?.slice(1) ?? ''}`;
    const altered = [parts[0], parts[1], parts[2], flipped, parts[4]].join('.');
    const opener = CardOpener.fromJwk(keys.privateJwk);
    assert.throws(() => opener.open(altered, 'pa_1'), SealedCardError);
    assert.throws(() => CardOpener.fromJwk(keyPair().privateJwk).open(sealed, 'pa_1'), SealedCardError);
    assert.throws(() => opener.open('not.a.jwe', 'pa_1'), SealedCardError);
    assert.throws(() => opener.open(`${Buffer.from('{"alg":"dir","enc":"A256GCM"}').toString('base64url')}..a.b.c`, 'pa_1'), SealedCardError);
  });

  it('when a card is sealed for one attempt, then it cannot pay for another', () => {
    const sealer = CardSealer.fromJwk(keys.publicJwk);
    const opener = CardOpener.fromJwk(keys.privateJwk);
    assert.equal(opener.open(sealer.seal(card, 'pa_1'), 'pa_1').pan, '4242424242424242');
    assert.throws(() => opener.open(sealer.seal(card, 'pa_1'), 'pa_2'), { name: 'SealedCardError', message: 'card data unreadable: sealed for another attempt' });
  });

  it('when the sealed fields are missing or malformed, then it does not open', async () => {
    const opener = CardOpener.fromJwk(keys.privateJwk);
    assert.throws(() => opener.open(CardSealer.fromJwk(keys.publicJwk).seal({ ...card, cvc: '12' }, 'pa_1'), 'pa_1'), /fields missing or malformed/);
    const withoutHolder = JSON.stringify({ ...fields, holder: undefined });
    await assert.rejects(async () => opener.open(await joseSeal(withoutHolder), 'pa_1'), /fields missing or malformed/);
  });

  it('when the configured key is not an EC P-256 JWK, then the sealer and the opener refuse it', () => {
    assert.throws(() => CardSealer.fromJwk('{"kty":"OKP","crv":"Ed25519","x":"AA"}'), /card sealing key: key is not an EC P-256 JWK/);
    assert.throws(() => CardOpener.fromJwk(keys.publicJwk), /card sealing key: d missing/);
    assert.throws(() => CardOpener.fromJwk('not json'), /card sealing key: not a JSON JWK/);
  });

  it('when one sealer seals many cards, then they share its ephemeral key (each its own IV) until the key is ten minutes old, and the opener opens every one, old key or new', () => {
    let now = Date.parse('2026-11-29T10:00:00Z');
    const sealer = CardSealer.fromJwk(keys.publicJwk, () => now);
    const opener = CardOpener.fromJwk(keys.privateJwk);
    const headerOf = (sealed: string) => sealed.split('.')[0];
    const ivOf = (sealed: string) => sealed.split('.')[2];
    const first = sealer.seal(card, 'pa_1');
    now += 9 * 60_000;
    const second = sealer.seal(card, 'pa_2');
    assert.equal(headerOf(second), headerOf(first), 'a new key within ten minutes');
    assert.notEqual(ivOf(second), ivOf(first));
    now += 60_000;
    const third = sealer.seal(card, 'pa_3');
    assert.notEqual(headerOf(third), headerOf(first), 'the same key after ten minutes');
    assert.equal(opener.open(first, 'pa_1').pan, card.pan);
    assert.equal(opener.open(second, 'pa_2').pan, card.pan);
    assert.equal(opener.open(third, 'pa_3').pan, card.pan);
    // A key kept for a header opens only what was sealed under it: altered content under a known header does not open.
    const parts = second.split('.');
    const altered = [parts[0], parts[1], parts[2], `${parts[3]?.startsWith('A') ? 'B' : 'A'}${parts[3]?.slice(1) ?? ''}`, parts[4]].join('.');
    assert.throws(() => opener.open(altered, 'pa_2'), SealedCardError);
  });

  it('when a card sealed under a new key is forged (it does not open), then the opener keeps nothing for it, and the genuine card under that key still opens', () => {
    const sealer = CardSealer.fromJwk(keys.publicJwk);
    const opener = CardOpener.fromJwk(keys.privateJwk);
    const sealed = sealer.seal(card, 'pa_1');
    const parts = sealed.split('.');
    const forged = [parts[0], parts[1], parts[2], parts[3], Buffer.alloc(16).toString('base64url')].join('.');
    assert.throws(() => opener.open(forged, 'pa_1'), SealedCardError);
    assert.equal(opener.open(sealed, 'pa_1').pan, card.pan);
  });
});
