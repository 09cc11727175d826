import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { isExpired, maskPan, readCard, type CardForm } from '../../src/domain/card.js';
import { EpgError } from '../../src/domain/epg-error.js';

const NOW = new Date('2026-05-15T12:00:00Z');
const KEY = randomBytes(32);
const form = (overrides: Partial<CardForm> = {}): CardForm => ({ pan: '4242424242424242', cvc: '737', year: '2028', month: '12', cardholderName: 'Amina', ...overrides });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    assert.ok(err instanceof EpgError);
    return err.errorCode;
  }
}

describe('card fields', () => {
  it('When a card is read, then only the masked number, expiry, name, behaviour and a keyed fingerprint are kept', () => {
    const card = readCard(form(), NOW, KEY);
    assert.deepEqual(card, { maskedPan: '424242**4242', expiration: '202812', cardholderName: 'Amina', behaviour: 'approve', fingerprint: card.fingerprint });
    assert.match(card.fingerprint, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(!JSON.stringify(card).includes('4242424242424242'));
    assert.ok(!JSON.stringify(card).includes('737'));
  });

  it('When cards are read, then the same number has the same fingerprint under one key, another number or another key a different one', () => {
    const fingerprint = readCard(form(), NOW, KEY).fingerprint;
    assert.equal(readCard(form({ cvc: '111', year: '2030', cardholderName: 'Other' }), NOW, KEY).fingerprint, fingerprint);
    // Same first six and last four: the mask alike, the card not.
    assert.equal(readCard(form({ pan: '4242420000004242' }), NOW, KEY).maskedPan, '424242**4242');
    assert.notEqual(readCard(form({ pan: '4242420000004242' }), NOW, KEY).fingerprint, fingerprint);
    assert.notEqual(readCard(form(), NOW, randomBytes(32)).fingerprint, fingerprint);
  });

  it('When the number is a D8 card, then its behaviour comes from the shared table; another Luhn-valid number approves', () => {
    assert.equal(readCard(form({ pan: '4000000000003063' }), NOW, KEY).behaviour, 'challenge_3ds1');
    assert.equal(readCard(form({ pan: '4000000000003238' }), NOW, KEY).behaviour, 'frictionless_3ds2');
    assert.equal(readCard(form({ pan: '4000000000000036' }), NOW, KEY).behaviour, 'approve_silently');
    assert.equal(readCard(form({ pan: '4000000000007007' }), NOW, KEY).behaviour, 'approve_capture_refused');
    assert.equal(readCard(form({ pan: '378282246310005' }), NOW, KEY).behaviour, 'approve');
  });

  it('When the expiry month is before the current UTC month, then the card behaves as expired whatever its number', () => {
    assert.equal(readCard(form({ year: '2026', month: '04' }), NOW, KEY).behaviour, 'expired_card');
    assert.equal(readCard(form({ year: '2026', month: '05' }), NOW, KEY).behaviour, 'approve');
    assert.equal(isExpired('202604', NOW), true);
    assert.equal(isExpired('202605', NOW), false);
    assert.equal(isExpired('202512', new Date('2026-01-01T00:00:00Z')), true);
    assert.equal(isExpired('202601', new Date('2025-12-31T23:59:59Z')), false);
  });

  it('When a field is missing, then "4"; malformed, then "5"', () => {
    assert.equal(codeOf(() => readCard(form({ pan: undefined }), NOW, KEY)), '4');
    assert.equal(codeOf(() => readCard(form({ cvc: undefined }), NOW, KEY)), '4');
    assert.equal(codeOf(() => readCard(form({ month: undefined }), NOW, KEY)), '4');
    for (const bad of [{ pan: '4242424242424241' }, { pan: '42424242424' }, { cvc: '73' }, { cvc: '73a' }, { month: '13' }, { month: '1' }, { year: '228' }, { cardholderName: 'x'.repeat(129) }]) {
      assert.equal(codeOf(() => readCard(form(bad), NOW, KEY)), '5', JSON.stringify(bad));
    }
  });

  it('When a number of 12 to 19 digits is masked, then it keeps the first six and last four around **', () => {
    assert.equal(maskPan('5555555555554444'), '555555**4444');
    assert.equal(maskPan('4000000000000000006'), '400000**0006');
  });
});
