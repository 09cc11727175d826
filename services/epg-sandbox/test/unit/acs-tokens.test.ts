import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { AcsTokens } from '../../src/domain/acs-tokens.js';

const ORDER = '7b0c4d1e-2f3a-4b5c-8d6e-9f0a1b2c3d4e';

describe('paReq and paRes tokens', () => {
  const tokens = new AcsTokens(randomBytes(32));

  it('When a token is made, then it is base64url and reads back to its order and result', () => {
    const paReq = tokens.paReq(ORDER);
    assert.match(paReq, /^[A-Za-z0-9_-]+$/);
    assert.equal(tokens.readPaReq(paReq), ORDER);
    assert.deepEqual(tokens.readPaRes(tokens.paRes(ORDER, 'Y')), { orderId: ORDER, result: 'Y' });
    assert.deepEqual(tokens.readPaRes(tokens.paRes(ORDER, 'N')), { orderId: ORDER, result: 'N' });
  });

  it('When a paReq is offered as a paRes, or the reverse, then it is refused', () => {
    assert.equal(tokens.readPaRes(tokens.paReq(ORDER)), undefined);
    assert.equal(tokens.readPaReq(tokens.paRes(ORDER, 'Y')), undefined);
  });

  it('When a token is altered, signed with another key, spelled differently or not base64url, then it is refused', () => {
    const paRes = tokens.paRes(ORDER, 'N');
    const bytes = Buffer.from(paRes, 'base64url');
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 40] = (flipped[flipped.length - 40] ?? 0) ^ 1;
    assert.equal(tokens.readPaRes(flipped.toString('base64url')), undefined);
    const yesPayload = Buffer.from(`PaRes\n${ORDER}\nY`);
    assert.equal(tokens.readPaRes(Buffer.concat([yesPayload, bytes.subarray(bytes.length - 32)]).toString('base64url')), undefined);
    assert.equal(new AcsTokens(randomBytes(32)).readPaRes(paRes), undefined);
    assert.equal(tokens.readPaRes(`${paRes}=`), undefined);
    // 76 bytes: the last character carries 2 bits, so its neighbour in the alphabet decodes to the same bytes.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(paRes.slice(-1));
    const respelled = `${paRes.slice(0, -1)}${alphabet[last ^ 1]}`;
    assert.deepEqual(Buffer.from(respelled, 'base64url'), bytes);
    assert.equal(tokens.readPaRes(respelled), undefined);
    assert.equal(tokens.readPaRes(''), undefined);
    assert.equal(tokens.readPaRes('AAAA'), undefined);
  });
});
