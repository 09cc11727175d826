import assert from 'node:assert/strict';
import { fromMinorUnits, toMinorUnits } from '../../src/index.js';
import type { Currency } from '../../src/index.js';
import { currency } from './support.js';


const TND = currency('TND');
const EUR = currency('EUR');
const JPY = currency('JPY');
const CLF = currency('CLF');

describe('toMinorUnits and fromMinorUnits', () => {
  const pairs: ReadonlyArray<readonly [string, Currency, string]> = [
    ['12.345', TND, '12345'], ['0.100', TND, '100'], ['0.001', TND, '1'], ['0.000', TND, '0'],
    ['999999.999', TND, '999999999'], ['1.000', TND, '1000'], ['10.50', EUR, '1050'], ['0.01', EUR, '1'],
    ['100', JPY, '100'], ['1.2345', CLF, '12345'],
  ];
  for (const [decimal, on, minor] of pairs) {
    it(`When ${decimal} ${on.code} goes to minor units, then it is ${minor}`, () => {
      assert.equal(toMinorUnits(decimal, on), minor);
    });

    it(`When ${minor} minor units of ${on.code} come back, then they read ${decimal}`, () => {
      assert.equal(fromMinorUnits(minor, on), decimal);
    });
  }

  it('When every millime amount from 0.000 to 2.000 makes the round trip, then it comes back unchanged', () => {
    for (let millimes = 0; millimes <= 2000; millimes += 1) {
      const minor = String(millimes);
      const decimal = fromMinorUnits(minor, TND);
      assert.match(decimal, /^\d+\.\d{3}$/);
      assert.equal(toMinorUnits(decimal, TND), minor);
    }
  });

  it('When an amount has fewer decimals than the currency, then it still converts exactly', () => {
    assert.equal(toMinorUnits('12.3', TND), '12300');
    assert.equal(toMinorUnits('12', TND), '12000');
  });

  it('When a TND amount has more than 3 decimals, then toMinorUnits throws', () => {
    assert.throws(() => toMinorUnits('12.3456', TND), RangeError);
    assert.throws(() => toMinorUnits('0.0001', TND), RangeError);
  });

  it('When a JPY amount has any decimal digit, then toMinorUnits throws', () => {
    assert.throws(() => toMinorUnits('100.5', JPY), RangeError);
  });

  it('When the amount is not a plain decimal string, then toMinorUnits throws', () => {
    assert.throws(() => toMinorUnits('1e3', TND), RangeError);
    assert.throws(() => toMinorUnits('12,345', TND), RangeError);
  });

  it('When minor units carry leading zeros as in a fixed-width acquirer field, then they still convert', () => {
    assert.equal(fromMinorUnits('000000012345', TND), '12.345');
    assert.equal(fromMinorUnits('000', TND), '0.000');
  });

  it('When minor units are negative, then the sign is kept', () => {
    assert.equal(fromMinorUnits('-5', TND), '-0.005');
    assert.equal(toMinorUnits('-0.005', TND), '-5');
  });

  it('When minor units are not an integer string, then fromMinorUnits throws', () => {
    for (const bad of ['12.345', '', '1e3', ' 12', '12 ', '+12', 'abc']) {
      assert.throws(() => fromMinorUnits(bad, TND), RangeError, bad);
    }
    assert.throws(() => fromMinorUnits(12345 as unknown as string, TND), RangeError);
  });
});
