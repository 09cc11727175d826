import assert from 'node:assert/strict';
import { parseMillimes, parseMillimesOrZero } from '../../src/domain/amount.js';

describe('amounts in millimes', () => {
  it('When digits of a positive amount up to 999999999 are parsed, then the same integer comes back', () => {
    assert.equal(parseMillimes('1'), 1);
    assert.equal(parseMillimes('125500'), 125500);
    assert.equal(parseMillimes('999999999'), 999_999_999);
    assert.equal(parseMillimes('0000001000'), 1000);
  });

  it('When the text is not a positive integer of at most 999999999, then it is refused', () => {
    for (const raw of ['', '0', '-1', '+1', '1.5', '1e3', ' 1', '1 ', '0x10', '1000000000', '99999999999', '١٢٣']) {
      assert.equal(parseMillimes(raw), undefined, raw);
    }
  });

  it('When a deposit amount is parsed, then 0 is read as well, and anything else not digits of at most 999999999 is refused', () => {
    assert.equal(parseMillimesOrZero('0'), 0);
    assert.equal(parseMillimesOrZero('000'), 0);
    assert.equal(parseMillimesOrZero('125500'), 125500);
    for (const raw of ['', '-0', '-1', '1.5', '1e3', ' 0', '1000000000']) {
      assert.equal(parseMillimesOrZero(raw), undefined, raw);
    }
  });
});
