import assert from 'node:assert/strict';
import { cardExpired } from '../../src/domain/customers.js';

describe('saved cards (D24)', () => {
  it('when a card expires this month, then it is usable until the month is over, and never after', () => {
    const card = { exp_month: 11, exp_year: 2026 };
    assert.equal(cardExpired(card, new Date('2026-11-30T23:59:59.999Z')), false);
    assert.equal(cardExpired(card, new Date('2026-12-01T00:00:00.000Z')), true);
    assert.equal(cardExpired({ exp_month: 12, exp_year: 2026 }, new Date('2027-01-01T00:00:00.000Z')), true);
    assert.equal(cardExpired({ exp_month: 1, exp_year: 2027 }, new Date('2026-12-31T12:00:00.000Z')), false);
  });
});
